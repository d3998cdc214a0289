/** How long synchronous work runs before it lets the event loop run other work (timeSlices). */
export const SLICE_MS = 10;

/**
 * Slices of synchronous work for a process that serves requests too: call `due()` between units of
 * work, and past SLICE_MS since the last pause `await pause()` lets the event loop run (payroll
 * processing and diffs, leave balances in bulk, imports row by row).
 */
export function timeSlices(): { due(): boolean; pause(): Promise<void> } {
  let start = performance.now();
  return {
    due: () => performance.now() - start >= SLICE_MS,
    pause: async () => {
      await new Promise((resolve) => setImmediate(resolve));
      start = performance.now();
    },
  };
}
