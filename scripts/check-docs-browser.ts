/**
 * /docs in a real browser (issue 25): `npm run check:docs` (a `.ci/run` step; needs Debian's
 * Chromium at /usr/bin/chromium or CHROMIUM_PATH, `apt-get install -y chromium`).
 *
 * Serves the built application on 127.0.0.1 and opens its Swagger UI in headless Chromium through a
 * host name that is not loopback (`hr.test`, mapped to 127.0.0.1 by Chromium's resolver rules) over
 * plain HTTP, as a team opens a staging server: every operation of the document must be rendered,
 * with no script error, no failed request and no Content-Security-Policy violation. Then the same
 * with PUBLIC_URL on https, served over HTTP: the CSP then asks the browser to upgrade the page's
 * requests to an https:// nobody serves, and the page must come out empty (the check can fail).
 * Prints what it saw and exits 1 when the first round is not a complete page or the second is not
 * the empty one.
 */
import { AddressInfo, createServer } from 'node:net';
import { Writable } from 'node:stream';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import puppeteer, { Browser } from 'puppeteer-core';
import { buildOpenApiDocument, createApp } from '../src/app.factory';
import { HEADLESS_CHROMIUM_ARGS } from '../src/common/pdf/pdf-renderer';
import { AppConfig, loadConfig } from '../src/config/config';
import { ENABLE_REST_API } from '../src/settings/settings.registry';
import { SettingsService } from '../src/settings/settings.service';

const HOST = 'hr.test';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

interface Seen {
  operations: number;
  documented: number;
  ms: number;
  problems: string[];
}

/** A port nothing listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** The application listening on a free port: another process may take the probed port before we
 * listen on it (CI runs this beside the fuzz, SCIM and traces steps), so a taken one is tried again. */
async function listening(
  publicUrl: (port: number) => string,
): Promise<{ app: NestFastifyApplication; config: AppConfig; port: number }> {
  const quiet = new Writable({ write: (_chunk, _enc, cb) => cb() });
  for (let attempt = 1; ; attempt++) {
    const port = await freePort(); // PUBLIC_URL, read at boot, names it
    const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'error', PUBLIC_URL: publicUrl(port) });
    const app = await createApp(config, { logDestination: quiet, shutdownHooks: false });
    await app.get(SettingsService).set(ENABLE_REST_API, 'Yes'); // as the demo: /openapi.json answers 503 while it is off
    try {
      await app.listen(port, '127.0.0.1');
      return { app, config, port };
    } catch (err) {
      await app.close();
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt === 5) throw err;
    }
  }
}

/** Opens /docs and counts the operations rendered once all the document's (or, when not `all`, the
 * first) are there or the wait is over. */
async function openDocs(browser: Browser, publicUrl: (port: number) => string, all: boolean): Promise<Seen> {
  const { app, config, port } = await listening(publicUrl);
  const documented = Object.values(buildOpenApiDocument(app, config).paths).reduce(
    (n, methods) => n + Object.keys(methods).length,
    0,
  );
  const context = await browser.createBrowserContext(); // its own connections, closed with it
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`script error: ${(e as Error).message}`));
  page.on('console', (m) => {
    // Chromium says it ignores Cross-Origin-Opener-Policy on an origin that is not https or
    // loopback: what it does with the header there, not a fault of the page.
    if (m.type() === 'error' && !m.text().includes('Cross-Origin-Opener-Policy header has been ignored'))
      problems.push(`console: ${m.text()}`);
  });
  page.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()}: ${r.url()}`));
  page.on('requestfailed', (r) => problems.push(`failed: ${r.url()} ${r.failure()?.errorText ?? ''}`));
  // In the page (a string: this project's types have no DOM).
  await page.evaluateOnNewDocument(
    "document.addEventListener('securitypolicyviolation', (e) => console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI))",
  );
  const started = Date.now();
  try {
    // Generous waits: CI opens the page beside six other steps on two cores.
    await page.goto(`http://${HOST}:${port}${config.apiPrefix}/docs`, { waitUntil: 'networkidle0', timeout: 120_000 });
    const rendered = all ? `document.querySelectorAll('.opblock').length >= ${documented}` : "document.querySelector('.opblock')";
    await page.waitForFunction(rendered, { timeout: all ? 60_000 : 15_000 }).catch(() => undefined);
    const operations = await page.$$eval('.opblock', (nodes) => nodes.length);
    return { operations, documented, ms: Date.now() - started, problems };
  } finally {
    await context.close();
    await app.close();
  }
}

async function main(): Promise<void> {
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...HEADLESS_CHROMIUM_ARGS, '--no-sandbox', `--host-resolver-rules=MAP ${HOST} 127.0.0.1`],
  });
  let failed = false;
  try {
    const plain = await openDocs(browser, (port) => `http://${HOST}:${port}`, true);
    console.log(
      `http://${HOST} (PUBLIC_URL http): ${plain.operations} of ${plain.documented} operations rendered in ${plain.ms} ms, ` +
        `${plain.problems.length} problems`,
    );
    for (const p of plain.problems) console.log(`  ${p}`);
    if (plain.operations !== plain.documented || plain.problems.length) failed = true;

    const upgraded = await openDocs(browser, () => `https://${HOST}`, false);
    console.log(
      `http://${HOST} (PUBLIC_URL https, so the CSP upgrades requests): ${upgraded.operations} operations rendered, ` +
        `${upgraded.problems.length} problems (expected: none rendered)`,
    );
    if (upgraded.operations !== 0) failed = true;
  } finally {
    await browser.close();
  }
  console.log(failed ? 'FAILED' : 'ok');
  process.exitCode = failed ? 1 : 0;
}

main().catch((err: unknown) => {
  console.log(`FAILED: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exitCode = 1;
});
