import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { DomainException } from '../errors/domain.exception';
import { activeContent, RENDER_CSP } from './active-content';
import { withPdfInfo } from './pdf-info';

export type PaperSize = 'A4' | 'Letter';

/**
 * Chromium's flags for a headless run on a server: no GPU, no /dev/shm, nothing fetched in the
 * background. Its sandbox is sandboxArgs' to decide.
 */
export const HEADLESS_CHROMIUM_ARGS: readonly string[] = [
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export type SandboxMode = 'auto' | 'on' | 'off';

/**
 * Whether Chromium runs with its sandbox (issue 41): `on` always, `off` never (--no-sandbox), `auto`
 * unless this process is root, where Chromium refuses to start with it: run the service as an
 * unprivileged user (the Docker image does) to have it. An `auto` start the kernel refuses (no user
 * namespaces, as under Docker's default seccomp profile) is retried without it, with a warning.
 */
export function sandboxed(mode: SandboxMode, uid = process.getuid?.() ?? 0): boolean {
  return mode === 'on' || (mode === 'auto' && uid !== 0);
}

/** Why PDFs cannot be made here, and how to make them possible; null when they can. */
function missingTool(path: string, what: string, install: string, variable: string): string | null {
  try {
    accessSync(path, constants.X_OK);
    return null;
  } catch {
    return `${what} was not found at ${path}: install it (${install}) or set ${variable} to its path`;
  }
}

/** How long a browser nobody renders with stays open. */
const BROWSER_IDLE_MS = 60_000;

/** Renders a page serves before it is closed and a fresh one opened. */
const PAGE_USES = 50;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * `inject` at the start of the page's head: after `<head…>` when it has one, else after `<html…>`,
 * else before everything but a doctype (before a doctype, it would put the page in quirks mode).
 * Found with indexOf, never a pattern over the page.
 */
export function withHead(html: string, inject: string): string {
  const lower = html.slice(0, 4096).toLowerCase();
  for (const tag of ['<head', '<html']) {
    const at = lower.indexOf(tag);
    const end = at === -1 ? -1 : html.indexOf('>', at);
    if (end !== -1 && end < 4096) return html.slice(0, end + 1) + inject + html.slice(end + 1);
  }
  const doctype = /^\s*<!doctype[^>]{0,200}>/i.exec(html);
  const at = doctype ? doctype[0].length : 0;
  return html.slice(0, at) + inject + html.slice(at);
}

/** A page's render went past its time limit, or the browser failed it. */
export class PdfRenderError extends Error {}

/**
 * HTML to PDF by the system's headless Chromium (puppeteer-core; no browser is downloaded): one
 * browser per process, started on first use and again if it dies, at most PDF_PAGES pages at once
 * (reused), each with JavaScript disabled and every request but inline `data:` URLs refused, and a
 * time limit (PDF_TIMEOUT_MS) from its HTML to its PDF. Encryption by qpdf (`encrypt`).
 */
@Injectable()
export class PdfRenderer implements OnApplicationShutdown {
  private readonly logger = new Logger('PdfRenderer');
  private browser: Promise<Browser> | null = null;
  private readonly idle: Page[] = [];
  private readonly uses = new WeakMap<Page, number>();
  private idleTimer: NodeJS.Timeout | undefined;
  private readonly retired = new WeakSet<Promise<Browser>>();
  /** How long a browser nobody renders with stays open (tests shorten it). */
  idleMs = BROWSER_IDLE_MS;
  private busy = 0;
  private readonly waiting: Array<() => void> = [];
  private closed = false;
  private warnedSandbox = false;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** Pages rendered at once (PDF_PAGES): what a caller feeding many renders should keep busy. */
  get pages(): number {
    return this.config.pdf.pages;
  }

  /** Null when PDFs can be rendered; else what is missing and how to install it. */
  unavailableReason(): string | null {
    return missingTool(this.config.pdf.chromiumPath, 'Chromium', 'apt-get install -y chromium', 'CHROMIUM_PATH');
  }

  /** Null when PDFs can be encrypted; else what is missing. */
  encryptionUnavailableReason(): string | null {
    return missingTool(this.config.pdf.qpdfPath, 'qpdf', 'apt-get install -y qpdf', 'QPDF_PATH');
  }

  /** 503 PDF_UNAVAILABLE, saying what to install, when PDFs cannot be made. */
  assertAvailable(): void {
    const reason = this.unavailableReason();
    if (reason) throw new DomainException('PDF_UNAVAILABLE', `Payslip PDFs are not available: ${reason}`);
  }

  /**
   * The PDF of `html`, on `paper`, titled `title` and made by the service. Rejects with
   * PdfRenderError past the time limit, when the browser fails, or when the page holds active or
   * embedded content (a script, a frame, an object; activeContent), which is never rendered.
   */
  async render(html: string, paper: PaperSize, title = 'Document'): Promise<Buffer> {
    const active = activeContent(html);
    if (active) throw new PdfRenderError(`the page holds <${active.tag}>, which is not rendered: edit the template`);
    html = withHead(html, `${RENDER_CSP}<title>${escapeHtml(title)}</title>`);
    const page = await this.takePage();
    let healthy = false;
    const timeoutMs = this.config.pdf.timeoutMs;
    let timer: NodeJS.Timeout | undefined;
    try {
      const work = (async () => {
        await page.setContent(html, { waitUntil: 'load', timeout: timeoutMs });
        return page.pdf({ format: paper, printBackground: true, timeout: timeoutMs, preferCSSPageSize: false });
      })();
      const limit = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new PdfRenderError(`the page took longer than ${timeoutMs} ms`)), timeoutMs);
      });
      const pdf = await Promise.race([work, limit]);
      work.catch(() => undefined);
      healthy = true;
      return withPdfInfo(Buffer.from(pdf), { title, creator: 'hr-service', producer: 'Chromium (Skia/PDF)' });
    } catch (err) {
      if (err instanceof PdfRenderError) throw err;
      throw new PdfRenderError(`the browser could not render the page: ${(err as Error).message.split('\n')[0]}`);
    } finally {
      clearTimeout(timer);
      this.releasePage(page, healthy);
    }
  }

  /**
   * The PDF encrypted with AES-256 by qpdf: opening it asks for `password`. qpdf reads the job from
   * a JSON file readable by this user only: the password is never on a command line (where `ps`
   * shows it) and never parsed as arguments (a password such as an employee code may start with a
   * dash or hold a line break, which qpdf's argument files would read as options).
   */
  async encrypt(pdf: Buffer, password: string): Promise<Buffer> {
    const dir = await mkdtemp(join(tmpdir(), 'hr-pdf-'));
    try {
      const input = join(dir, 'in.pdf');
      const output = join(dir, 'out.pdf');
      const job = join(dir, 'job.json');
      await writeFile(input, pdf, { mode: 0o600 });
      // The owner password is random: nobody lifts the restrictions.
      const ownerPassword = randomBytes(24).toString('hex');
      await writeFile(
        job,
        JSON.stringify({
          inputFile: input,
          outputFile: output,
          encrypt: { userPassword: password, ownerPassword, '256bit': {} },
        }),
        { mode: 0o600 },
      );
      await new Promise<void>((resolve, reject) =>
        execFile(
          this.config.pdf.qpdfPath,
          [`--job-json-file=${job}`],
          { timeout: this.config.pdf.timeoutMs },
          (err, _out, stderr) =>
            err
              ? reject(new PdfRenderError(`qpdf could not encrypt the PDF: ${String(stderr).trim() || err.message}`))
              : resolve(),
        ),
      );
      return await readFile(output);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idleTimer);
    await this.closeBrowser();
  }

  private async takePage(): Promise<Page> {
    clearTimeout(this.idleTimer);
    while (this.busy >= this.config.pdf.pages) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.busy++;
    try {
      const page = this.idle.pop();
      if (page && !page.isClosed()) return page;
      return await this.newPage();
    } catch (err) {
      this.busy--;
      this.waiting.shift()?.();
      throw new PdfRenderError(`the browser could not be started: ${(err as Error).message.split('\n')[0]}`);
    }
  }

  private releasePage(page: Page, healthy: boolean): void {
    const uses = (this.uses.get(page) ?? 0) + 1;
    this.uses.set(page, uses);
    // A page is replaced after PAGE_USES renders: a renderer process keeps some of every page it showed.
    if (healthy && !this.closed && uses < PAGE_USES) this.idle.push(page);
    else void page.close().catch(() => undefined);
    this.busy--;
    this.waiting.shift()?.();
    if (this.busy === 0 && !this.waiting.length) {
      // A worker between payrolls does not hold a browser: it is closed once idle, started again when needed.
      clearTimeout(this.idleTimer);
      this.idleTimer = setTimeout(() => void this.closeBrowser(), this.idleMs);
      this.idleTimer.unref();
    }
  }

  private async closeBrowser(): Promise<void> {
    if (this.busy) return;
    const browser = this.browser;
    this.browser = null;
    this.idle.length = 0;
    if (!browser) return;
    this.retired.add(browser);
    await (await browser.catch(() => null))?.close().catch(() => undefined);
  }

  /** The browser's process id while one runs (tests, diagnostics). */
  async browserPid(): Promise<number | null> {
    const browser = this.browser && (await this.browser.catch(() => null));
    return browser?.process()?.pid ?? null;
  }

  private async newPage(): Promise<Page> {
    const browser = await this.startedBrowser();
    const page = await browser.newPage();
    await page.setJavaScriptEnabled(false);
    await page.setRequestInterception(true);
    // The page's own HTML is set directly; anything it asks for (an image, a font, a style sheet,
    // a frame) is refused but inline data: URLs, so a template cannot reach the network or files.
    page.on('request', (request) => {
      if (request.isInterceptResolutionHandled()) return;
      if (request.url().startsWith('data:')) void request.continue();
      else void request.abort('blockedbyclient');
    });
    return page;
  }

  private startedBrowser(): Promise<Browser> {
    if (this.browser) return this.browser;
    const reason = this.unavailableReason();
    if (reason) return Promise.reject(new Error(reason));
    const started = (async () => {
      const puppeteer = (await import('puppeteer-core')).default;
      const launch = (sandbox: boolean) =>
        puppeteer.launch({
          executablePath: this.config.pdf.chromiumPath,
          headless: true,
          // DevTools over the child's pipes, not a port: a worker that dies (even by SIGKILL) closes
          // them and the browser exits with it, instead of living on as an orphan holding its memory.
          pipe: true,
          args: [
            ...HEADLESS_CHROMIUM_ARGS,
            ...(sandbox ? [] : ['--no-sandbox']),
            '--disable-extensions',
            // Defence in depth behind the request interception: no name resolves, no proxy is asked.
            '--host-resolver-rules=MAP * ~NOTFOUND',
            '--proxy-server=127.0.0.1:9',
          ],
        });
      const mode = this.config.pdf.sandbox;
      const sandbox = sandboxed(mode);
      if (!sandbox && !this.warnedSandbox) {
        this.warnedSandbox = true;
        this.logger.warn(
          mode === 'off'
            ? 'the PDF browser runs without its sandbox (PDF_SANDBOX=off)'
            : 'the PDF browser runs without its sandbox: this process is root; run the service as an unprivileged user to have it',
        );
      }
      const browser = await launch(sandbox).catch((err: unknown) => {
        if (!sandbox || mode === 'on') throw err;
        this.logger.warn(
          `the PDF browser could not start with its sandbox (${(err as Error).message.split('\n')[0]}); it runs without it`,
        );
        return launch(false);
      });
      browser.on('disconnected', () => {
        // A browser that died is started again by the next render; its pages are gone with it.
        if (this.browser === started) this.browser = null;
        this.idle.length = 0;
        if (!this.closed && !this.retired.has(started))
          this.logger.warn('the PDF browser stopped; the next render starts another');
      });
      return browser;
    })();
    this.browser = started;
    started.catch(() => {
      if (this.browser === started) this.browser = null;
    });
    return started;
  }
}
