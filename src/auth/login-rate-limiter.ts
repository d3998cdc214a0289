/**
 * Fixed-window counters for POST /oauth/token, per client address and per username. Kept in the
 * process's memory: with several API instances each counts its own share (see README).
 */
export class LoginRateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one attempt; returns 0 when allowed, else the seconds to wait. */
  hit(key: string, limit: number): number {
    const now = this.now();
    if (this.windows.size > 50_000) this.sweep(now);
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { count: 0, resetAt: now + this.windowMs };
      this.windows.set(key, w);
    }
    w.count += 1;
    return w.count > limit ? Math.max(1, Math.ceil((w.resetAt - now) / 1000)) : 0;
  }

  private sweep(now: number): void {
    for (const [key, w] of this.windows) if (w.resetAt <= now) this.windows.delete(key);
  }
}
