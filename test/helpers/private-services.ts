import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from './test-app';

/** A free loopback port (asked of the kernel, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Sends `signal` and waits for the exit; SIGKILL after `graceMs`. */
async function stopProcess(proc: ChildProcess | null, signal: NodeJS.Signals, graceMs = 30_000): Promise<void> {
  if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  proc.kill(signal);
  const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** A server process of the test's own, with its data in a temporary directory. */
abstract class PrivateServer {
  protected proc: ChildProcess | null = null;
  port = 0;

  constructor(readonly dir: string) {}

  get running(): boolean {
    return this.proc !== null && this.proc.exitCode === null && this.proc.signalCode === null;
  }

  /** A clean shutdown (SIGTERM), as `systemctl stop` does. */
  stop(): Promise<void> {
    return stopProcess(this.proc, 'SIGTERM');
  }

  async destroy(): Promise<void> {
    await stopProcess(this.proc, 'SIGTERM');
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * A MariaDB server of the test's own (the fault-injection tests stop and start it, which the
 * machine's shared server must not suffer): `mariadbd --no-defaults` on a free port with its data
 * in a temporary directory, a user `hr`/`hr` with every privilege. Needs root (mariadbd runs as
 * the mysql user) and the mariadb-server package (.ci/services.sh install).
 */
export class PrivateMariaDb extends PrivateServer {
  constructor() {
    super(mkdtempSync(join(tmpdir(), 'hr-faults-db-')));
  }

  get url(): string {
    return `mysql://hr:hr@127.0.0.1:${this.port}/hr_faults`;
  }

  private get socket(): string {
    return join(this.dir, 'mysqld.sock');
  }

  async init(): Promise<void> {
    // mariadbd runs as the mysql user: it writes its socket, pid file and log next to its data.
    chmodSync(this.dir, 0o755);
    const data = join(this.dir, 'data');
    mkdirSync(data);
    const uid = Number(spawnSync('id', ['-u', 'mysql'], { encoding: 'utf8' }).stdout.trim());
    const gid = Number(spawnSync('id', ['-g', 'mysql'], { encoding: 'utf8' }).stdout.trim());
    chownSync(this.dir, uid, gid);
    chownSync(data, uid, gid);
    const install = spawnSync(
      'mariadb-install-db',
      ['--user=mysql', `--datadir=${data}`, '--auth-root-authentication-method=socket', '--skip-test-db'],
      { encoding: 'utf8' },
    );
    if (install.status !== 0) throw new Error(`mariadb-install-db failed: ${install.stderr}`);
    this.port = await freePort();
    await this.start();
    const sql = spawnSync('mariadb', [`--socket=${this.socket}`], {
      encoding: 'utf8',
      input: `CREATE DATABASE hr_faults CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
        CREATE USER 'hr'@'127.0.0.1' IDENTIFIED BY 'hr'; GRANT ALL ON *.* TO 'hr'@'127.0.0.1';`,
    });
    if (sql.status !== 0) throw new Error(`cannot create the database: ${sql.stderr}`);
  }

  /** Starts the server (again) on the same port and data; resolves once it answers. */
  async start(): Promise<void> {
    this.proc = spawn(
      'mariadbd',
      [
        '--no-defaults',
        '--user=mysql',
        `--datadir=${join(this.dir, 'data')}`,
        `--socket=${this.socket}`,
        `--pid-file=${join(this.dir, 'mysqld.pid')}`,
        '--bind-address=127.0.0.1',
        `--port=${this.port}`,
        '--skip-name-resolve',
        `--log-error=${join(this.dir, 'error.log')}`,
        '--innodb-buffer-pool-size=64M',
        '--character-set-server=utf8mb4',
        '--collation-server=utf8mb4_unicode_ci',
      ],
      { stdio: 'ignore' },
    );
    await until(() => spawnSync('mariadb-admin', [`--socket=${this.socket}`, 'ping']).status === 0, 60_000);
  }
}

/**
 * A Redis of the test's own with an append-only file fsynced on every write (how Redis must run
 * for queued jobs to survive its restart), on a free port.
 */
export class PrivateRedis extends PrivateServer {
  constructor() {
    super(mkdtempSync(join(tmpdir(), 'hr-faults-redis-')));
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}/0`;
  }

  async start(): Promise<void> {
    if (!this.port) this.port = await freePort();
    this.proc = spawn(
      'redis-server',
      [
        '--bind',
        '127.0.0.1',
        '--port',
        String(this.port),
        '--dir',
        this.dir,
        '--appendonly',
        'yes',
        '--appendfsync',
        'always',
        '--save',
        '',
      ],
      { stdio: 'ignore' },
    );
    await until(
      () => spawnSync('redis-cli', ['-p', String(this.port), 'ping'], { encoding: 'utf8' }).stdout.trim() === 'PONG',
      20_000,
    );
  }
}

/** Whether this machine can run private servers: root, and the binaries on the PATH. */
export function privateServersAvailable(): string | null {
  if (process.getuid?.() !== 0) return 'needs root (mariadbd --user=mysql)';
  for (const bin of ['mariadbd', 'mariadb-install-db', 'mariadb-admin', 'redis-server', 'redis-cli']) {
    const found = ['/usr/sbin', '/usr/bin', '/usr/local/bin', '/usr/local/sbin'].some((d) => existsSync(join(d, bin)));
    if (!found) return `${bin} is not installed (bash .ci/services.sh install)`;
  }
  return null;
}
