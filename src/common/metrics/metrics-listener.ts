import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { MetricsSettings } from '../../config/config';
import { ErrorCode } from '../errors/error-codes';
import { errorEnvelope } from '../errors/error-envelope';
import { mayReadMetrics } from './metrics-access';
import { Metrics } from './metrics';

export interface MetricsListener {
  port: number;
  /** The default port was taken (another worker on the host): this one listens on `port`, any free one. */
  movedFromDefault: boolean;
  close(): Promise<void>;
}

/**
 * The worker's metrics (it has no HTTP API): GET /metrics on WORKER_METRICS_HOST:WORKER_METRICS_PORT,
 * to loopback or with METRICS_TOKEN, like the API's. Null when WORKER_METRICS_PORT is off.
 */
export async function startMetricsListener(metrics: Metrics, settings: MetricsSettings): Promise<MetricsListener | null> {
  if (settings.workerPort === null) return null;
  const server: Server = createServer((req, res) => {
    const json = (status: number, code: ErrorCode, message: string) => {
      res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
      res.end(JSON.stringify(errorEnvelope(code, message)));
    };
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics')
      return json(404, 'NOT_FOUND', 'Only GET /metrics is served here');
    if (!mayReadMetrics(req.socket.remoteAddress, req.headers, settings.token)) {
      res.setHeader('WWW-Authenticate', 'Bearer');
      return json(401, 'UNAUTHORIZED', 'Send METRICS_TOKEN as a bearer token, or scrape from loopback');
    }
    metrics.text().then(
      (text) => {
        res.writeHead(200, { 'Content-Type': metrics.contentType, 'Cache-Control': 'no-store' });
        res.end(text);
      },
      () => json(500, 'INTERNAL_ERROR', 'The metrics could not be read'),
    );
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 10_000;
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, settings.workerHost, () => {
        server.off('error', reject);
        resolve();
      });
    });
  let movedFromDefault = false;
  try {
    await listen(settings.workerPort);
  } catch (err) {
    // A port the operator chose that is taken stops the worker; the default one moves.
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || !settings.workerPortDefault) throw err;
    await listen(0);
    movedFromDefault = true;
  }
  return {
    port: (server.address() as AddressInfo).port,
    movedFromDefault,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
