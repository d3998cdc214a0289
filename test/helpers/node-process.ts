import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { until } from './test-app';

export const DIST = join(__dirname, '..', '..', 'dist', 'src');

/** A `node dist/src/<script>.js` child process (the built service), its JSON log lines collected. */
export class NodeProcess {
  readonly lines: string[] = [];
  /** Called with each line as it arrives (a test that must act within a millisecond of a log line). */
  private readonly watchers: Array<(line: string) => void> = [];
  readonly proc: ChildProcess;
  private readonly exited: Promise<number | null>;

  constructor(script: 'main' | 'worker', env: Record<string, string>) {
    this.proc = spawn(process.execPath, [join(DIST, `${script}.js`)], {
      env: { PATH: process.env.PATH ?? '', TZ: 'UTC', LOG_LEVEL: 'info', MIGRATIONS_RUN: 'false', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let rest = '';
    const collect = (chunk: Buffer) => {
      const parts = (rest + chunk.toString()).split('\n');
      rest = parts.pop() ?? '';
      this.lines.push(...parts);
      for (const line of parts) for (const watch of this.watchers) watch(line);
    };
    this.proc.stdout?.on('data', collect);
    this.proc.stderr?.on('data', collect);
    this.exited = new Promise((resolve) => this.proc.once('exit', (code) => resolve(code)));
  }

  /** Calls `watch` with every line from now on. */
  onLine(watch: (line: string) => void): void {
    this.watchers.push(watch);
  }

  get running(): boolean {
    return this.proc.exitCode === null && this.proc.signalCode === null;
  }

  /** The `msg` of every JSON log line (other lines as they are). */
  messages(): string[] {
    return this.lines.flatMap((l) => {
      try {
        return [String((JSON.parse(l) as { msg?: unknown }).msg)];
      } catch {
        return [l];
      }
    });
  }

  /** Waits for a log line with this message. */
  async logged(message: string, ms = 30_000): Promise<void> {
    await until(() => this.messages().includes(message) || !this.running, ms).catch(() => undefined);
    if (!this.messages().includes(message)) throw new Error(`no "${message}" logged:\n${this.lines.join('\n')}`);
  }

  /** Sends the signal; resolves with the exit code (null when a signal ended the process). */
  kill(signal: NodeJS.Signals): Promise<number | null> {
    if (this.running) this.proc.kill(signal);
    return this.exited;
  }

  /** Resolves with the exit code once the process has exited. */
  exit(): Promise<number | null> {
    return this.exited;
  }
}

/** A `node dist/src/worker.js` child process. */
export class WorkerProcess extends NodeProcess {
  constructor(env: Record<string, string>) {
    super('worker', env);
  }

  ready(): Promise<void> {
    return this.logged('worker consuming jobs');
  }
}
