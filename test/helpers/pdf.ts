import { execFileSync } from 'node:child_process';
import { LONG, NEEDS_LONG } from './skip';
import { accessSync, constants } from 'node:fs';
import { PdfRenderer } from '../../src/common/pdf/pdf-renderer';
import { testConfig } from './test-app';

const POPPLER = '/usr/bin/pdftotext';

/**
 * Why the PDF tests cannot run on this machine (no Chromium, qpdf or poppler's pdftotext), or null.
 * `.ci/run` installs all three; a fresh laptop skips these tests and says why.
 */
export const PDF_SKIP_REASON: string | null = (() => {
  const renderer = new PdfRenderer(testConfig());
  const reason = renderer.unavailableReason() ?? renderer.encryptionUnavailableReason();
  if (reason) return reason;
  try {
    accessSync(POPPLER, constants.X_OK);
    return null;
  } catch {
    return `pdftotext was not found at ${POPPLER}: install it (apt-get install -y poppler-utils)`;
  }
})();

/** `describe`, or `describe.skip` with the reason in its name (listed at the end of the run), when PDFs cannot be made here. */
export function describeWithPdf(name: string, fn: () => void): void {
  if (PDF_SKIP_REASON) {
    // The reason a newcomer's run skips these tests.
    describe.skip(`${name} [skipped: needs ${PDF_SKIP_REASON}]`, fn);
  } else describe(name, fn);
}

/** The text of a PDF (poppler's pdftotext, layout kept), opened with `password` when given. */
export function pdfText(pdf: Buffer, password?: string): string {
  return execFileSync(POPPLER, [...(password === undefined ? [] : ['-upw', password]), '-layout', '-', '-'], {
    input: pdf,
    stdio: ['pipe', 'pipe', 'ignore'],
  }).toString();
}

/** The number of pages of a PDF (poppler's pdfinfo). */
export function pdfPages(pdf: Buffer, password?: string): number {
  const info = execFileSync('/usr/bin/pdfinfo', [...(password === undefined ? [] : ['-upw', password]), '-'], {
    input: pdf,
    stdio: ['pipe', 'pipe', 'ignore'],
  }).toString();
  return Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]);
}

/**
 * As describeWithPdf, for suites that render whole payrolls' payslips and e-mail them with Chromium:
 * test:long and test:integration run them (.ci/run); a newcomer's npm test keeps the renderer's own.
 */
export function describeLongWithPdf(name: string, fn: () => void): void {
  if (!LONG) describe.skip(`${name} [skipped: needs ${NEEDS_LONG}]`, fn);
  else describeWithPdf(name, fn);
}
