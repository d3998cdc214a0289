import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** Labels of a gauge read when scraped, and its value. */
export type Sample = [labels: Record<string, string>, value: number];

const HTTP_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const JOB_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300, 900];

let processRegistry: Registry | null = null;

/**
 * The process's own metrics (CPU, memory, heap spaces, GC, handles, event-loop delay): one set per
 * process, however many applications it builds (the tests build many).
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, eventLoopMonitoringPrecision: 10 });
  }
  return processRegistry;
}

type HttpChild = ReturnType<Histogram<'method' | 'route' | 'status_class'>['labels']>;

/**
 * The metrics of one application (API or worker), in the Prometheus text format (docs/api/decisions.md §24):
 * requests by route template and status class, jobs by queue, name and outcome, and gauges that
 * modules register (queue depth, the database pool, the outbox relay's lag), read when scraped.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly contentType = this.registry.contentType;
  private readonly http = new Histogram({
    name: 'hr_http_request_duration_seconds',
    help: 'HTTP requests by method, route template (never the raw URL) and status class, from the request to the response sent',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: HTTP_BUCKETS,
    registers: [this.registry],
  });
  /** One child per method, route and status class: a request costs a lookup, not a label hash. */
  private readonly httpChildren = new Map<string, HttpChild>();
  private readonly jobs = new Histogram({
    name: 'hr_job_duration_seconds',
    help: 'Job attempts by queue, job name and outcome (completed or failed), run in this process',
    labelNames: ['queue', 'name', 'outcome'] as const,
    buckets: JOB_BUCKETS,
    registers: [this.registry],
  });

  /** A request answered: `route` is the matched template ("unmatched" for none). */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    const statusClass = status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : 'other';
    const key = `${method} ${route} ${statusClass}`;
    let child = this.httpChildren.get(key);
    if (!child) {
      child = this.http.labels(method, route, statusClass);
      this.httpChildren.set(key, child);
    }
    child.observe(seconds);
  }

  observeJob(queue: string, name: string, outcome: 'completed' | 'failed', seconds: number): void {
    this.jobs.labels(queue, name, outcome).observe(seconds);
  }

  /**
   * A gauge whose samples `read` gives when scraped. A read that fails (a database away) leaves
   * the gauge without samples for that scrape, and the scrape answers.
   */
  gauge(name: string, help: string, labelNames: readonly string[], read: () => Promise<Sample[]> | Sample[]): void {
    new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        this.reset();
        let samples: Sample[];
        try {
          samples = await read();
        } catch {
          return;
        }
        for (const [labels, value] of samples) this.set(labels, value);
      },
    });
  }

  /** Everything, in the Prometheus text format (version 0.0.4). */
  async text(): Promise<string> {
    const [own, proc] = await Promise.all([this.registry.metrics(), processMetrics().metrics()]);
    return `${own}\n${proc}`;
  }
}
