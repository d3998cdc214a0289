import cluster from 'node:cluster';

/** What the primary of API_PROCESSES > 1 sends each HTTP process once all of them listen (src/main.ts). */
export const ALL_PROCESSES_LISTENING = 'hr:all-processes-listening';

/**
 * Whether every HTTP process of this instance listens: always in a process of its own; in one of
 * API_PROCESSES > 1 only once the primary said so. node:cluster hands each new connection to the
 * next process, and a client (a load balancer, a proxy) keeps its keep-alive connections: those
 * opened while the first process was alone (the others start after it has run the migrations)
 * stayed on it, which took the whole load while the others idled (bench:soak, 2026-11-29).
 * Readiness waits for all of them.
 */
let allListening = !cluster.isWorker;
if (cluster.isWorker)
  process.on('message', (message: unknown) => {
    if (message === ALL_PROCESSES_LISTENING) allListening = true;
  });

export function allProcessesListening(): boolean {
  return allListening;
}
