/** Worker processes for the benchmarks that run jobs across workers (bench:payroll-scale, bench:payslips-scale). */
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const WORKER_JS = join(__dirname, '..', 'src', 'worker.js');

/** CPU seconds a process has used (user + system), from /proc; 0 once it is gone. */
export function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return 0;
  }
}

/** The database server's process on this machine, when there is one (its CPU is printed beside the workers'). */
/** The machine's CPU time so far, busy and all (jiffies, from /proc/stat): the share busy over a run is its load. */
export function machineCpu(): { busy: number; total: number } {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const n = fields.map(Number);
  const total = n.reduce((a, b) => a + b, 0);
  return { busy: total - n[3] - n[4], total }; // idle, iowait
}

export function databasePid(): number | undefined {
  try {
    return Number(execFileSync('pidof', ['mariadbd', 'mysqld'], { encoding: 'utf8' }).trim().split(/\s+/)[0]) || undefined;
  } catch {
    return undefined;
  }
}

/** One worker process as `npm run worker` starts it, with its peak RSS (and, with `pss`, the peak PSS of it and its browser). */
export class BenchWorker {
  readonly proc: ChildProcess;
  peakMiB = 0;
  private readonly sampler: NodeJS.Timeout;
  private readonly ready: Promise<void>;

  constructor(env: Record<string, string>) {
    this.proc = spawn(process.execPath, ['--max-old-space-size=256', WORKER_JS], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    this.ready = new Promise((resolve, reject) => {
      this.proc.stdout?.on('data', (b: Buffer) => {
        out += b.toString();
        if (out.includes('worker consuming jobs')) resolve();
        if (out.length > 100_000) out = out.slice(-10_000);
      });
      this.proc.stderr?.on('data', (b: Buffer) => process.stderr.write(b));
      this.proc.on('exit', (code) => reject(new Error(`worker exited (${code}) before it was ready:\n${out.slice(-2000)}`)));
    });
    this.sampler = setInterval(() => {
      try {
        const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${this.proc.pid}/status`, 'utf8'))?.[1] ?? 0);
        this.peakMiB = Math.max(this.peakMiB, Math.round(kb / 1024));
      } catch {
        // gone
      }
    }, 100);
  }

  started(): Promise<void> {
    return this.ready;
  }

  async stop(): Promise<void> {
    clearInterval(this.sampler);
    if (this.proc.exitCode !== null) return;
    const exited = new Promise((r) => this.proc.once('exit', r));
    this.proc.kill('SIGTERM');
    await exited;
  }
}
