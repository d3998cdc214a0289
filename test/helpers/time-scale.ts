/**
 * The tests' time limits on a machine shared with other work. `HR_TEST_TIME_SCALE` (a number ≥ 1,
 * default 1) multiplies every limit that guards against a hang: jest's timeouts of tests and hooks
 * and `until`'s waits. .ci/run sets it for the steps it runs together on two cores, where a suite
 * takes up to four times its time alone (test:long failed there on 2026-12-06 with its output lost,
 * after 315 s against 70 alone, its suites near their own limits such as the demo's 120 s). A limit
 * that is the behaviour under test (a server's own timeout, a pause of the event loop) is asserted
 * as it is, never through this.
 */
export const TIME_SCALE = timeScale(process.env.HR_TEST_TIME_SCALE);

export function timeScale(raw: string | undefined): number {
  const n = Number(raw ?? 1);
  if (!Number.isFinite(n) || n < 1) throw new Error(`HR_TEST_TIME_SCALE must be a number ≥ 1, not ${JSON.stringify(raw)}`);
  return n;
}

/** A hang guard's limit on this machine: `ms` times HR_TEST_TIME_SCALE. */
export const scaled = (ms: number): number => Math.round(ms * TIME_SCALE);

type Registrar = (...args: unknown[]) => unknown;

/**
 * `it`, `test` or a hook whose timeout argument (at `timeoutAt`, when a number) is multiplied by `scale`; its
 * modifiers (`.skip`, `.only`, `.each`, ...) are kept as they are.
 */
export function withScaledTimeout<T extends Registrar>(register: T, scale: number, timeoutAt: number): T {
  const wrapped = function (this: unknown, ...args: unknown[]) {
    const timeout = args[timeoutAt];
    if (typeof timeout === 'number') args[timeoutAt] = Math.round(timeout * scale);
    return register.apply(this, args);
  };
  return Object.assign(wrapped, register);
}
