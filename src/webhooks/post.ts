import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { safeLookup } from './safe-address';

export interface PostResult {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

/**
 * POSTs `body` to `url` once: the address connected to is checked (safeLookup), redirects are not
 * followed (a 3xx is a failed attempt), the whole attempt ends after `timeoutMs`, and at most 64 KiB
 * of the answer is read.
 */
export function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  opts: { timeoutMs: number; allowPrivate: boolean },
): Promise<PostResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    let settled = false;
    const done = (statusCode: number | null, error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ statusCode, durationMs: Date.now() - started, error: error?.slice(0, 500) ?? null });
    };
    const target = new URL(url);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(
      target,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'hr-service-webhooks',
          ...headers,
          'content-length': Buffer.byteLength(body),
        },
        lookup: safeLookup(opts.allowPrivate),
      },
      (res) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > 65_536) res.destroy();
        });
        // 'close' follows the end of the answer, and its cut-off past 64 KiB.
        res.on('error', () => done(res.statusCode ?? null, `answered ${res.statusCode ?? '?'} and broke off`));
        res.on('close', () => {
          const code = res.statusCode ?? null;
          done(code, code !== null && code >= 200 && code < 300 ? null : `answered ${code ?? '?'}`);
        });
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      done(null, `no answer within ${opts.timeoutMs} ms`);
    }, opts.timeoutMs);
    req.on('error', (err) => done(null, err.message));
    req.end(body);
  });
}
