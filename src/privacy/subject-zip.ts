import archiver from 'archiver';
import { Readable } from 'node:stream';
import type { EntityManager } from 'typeorm';
import { StoredList, storedRows, SubjectExport } from '../common/privacy/subject-export';
import { FileStore } from '../common/storage/file-store';

/** JSON text handed to the archive at a time: a page of rows, not a row. */
const CHUNK_CHARS = 64 * 1024;

/** The archive's own index, first in README.txt. */
const README_HEAD = [
  'Your personal data, as this HR service holds it (GDPR art. 15).',
  '',
  'Records are written as the service stores them: each table row with its columns under their stored names.',
  'Dates are ISO 8601; instants are UTC. Payroll amounts are in the payroll grid of each payroll, which',
  'payslips/ shows as the PDFs you received.',
  '',
  'Files:',
];

/**
 * The subject-access export's ZIP (issue 69), written entry by entry into `output` as the holders
 * hand their data over: each entry is finished before the next starts, so memory holds a page of
 * rows or a file's chunk, never the archive. Stored files (PDFs, images) are stored as they are;
 * JSON is deflated.
 */
export class SubjectZip implements SubjectExport {
  private readonly archive = archiver('zip', { zlib: { level: 6 } });
  private readonly sections: Array<[string, unknown]> = [];
  private readonly readme: Array<[string, string]> = [];
  private readonly missing: string[] = [];
  private failed: Error | null = null;

  constructor(
    private readonly em: EntityManager,
    private readonly store: FileStore,
    /** The entries' time (a ZIP's dates start in 1980): when the export was asked for. */
    private readonly date: Date,
  ) {
    this.archive.on('warning', (err: Error) => (this.failed ??= err));
    this.archive.on('error', (err: Error) => (this.failed ??= err));
  }

  /** The archive's bytes, to stream into the file store. */
  get output(): Readable {
    return this.archive;
  }

  section(name: string, value: unknown): void {
    this.sections.push([name, value]);
  }

  describe(path: string, about: string): void {
    this.readme.push([path, about]);
  }

  async lists(file: string, about: string, lists: readonly StoredList[]): Promise<void> {
    this.describe(file, about);
    await this.entry(Readable.from(jsonLists(this.em, lists)), file, false);
  }

  async file(path: string, key: string): Promise<void> {
    const opened = await this.store.open(key);
    if (!opened) {
      this.missing.push(path);
      return;
    }
    await this.entry(opened.body, path, true);
  }

  /** employee.json and README.txt, then the archive's end. */
  async finish(): Promise<void> {
    const employee = Object.fromEntries(this.sections);
    await this.entry(Buffer.from(JSON.stringify(employee, null, 2)), 'employee.json', false);
    const lines = [
      ...README_HEAD,
      `  employee.json: the employee record (${this.sections.map(([name]) => name).join(', ')})`,
      ...this.readme.map(([path, about]) => `  ${path}: ${about}`),
      ...(this.missing.length
        ? ['', 'Files the store no longer had when this archive was made:', ...this.missing.map((p) => `  ${p}`)]
        : []),
      '',
    ];
    await this.entry(Buffer.from(lines.join('\n')), 'README.txt', false);
    await this.archive.finalize();
  }

  /** Stops the archive (the store's upload then fails and keeps nothing). */
  abort(): void {
    this.archive.abort();
  }

  /** Adds one entry and waits until the archive has taken all of it. */
  private entry(source: Readable | Buffer, name: string, stored: boolean): Promise<void> {
    if (this.failed) return Promise.reject(this.failed);
    return new Promise((resolve, reject) => {
      const done = (entry: archiver.EntryData) => {
        if (entry.name !== name) return;
        this.archive.off('entry', done);
        this.archive.off('error', failed);
        resolve();
      };
      const failed = (err: Error) => {
        this.archive.off('entry', done);
        this.archive.off('error', failed);
        reject(err);
      };
      this.archive.on('entry', done);
      this.archive.on('error', failed);
      if (source instanceof Readable) source.once('error', failed);
      this.archive.append(source, { name, store: stored, date: this.date });
    });
  }
}

/** `{"<list>": [rows...], ...}` as text, a page of rows at a time. */
async function* jsonLists(em: EntityManager, lists: readonly StoredList[]): AsyncGenerator<string> {
  let chunk = '{';
  for (const [i, list] of lists.entries()) {
    chunk += `${i ? ',' : ''}\n  ${JSON.stringify(list.name)}: [`;
    let first = true;
    for await (const row of storedRows(em, list)) {
      chunk += `${first ? '' : ','}\n    ${JSON.stringify(row)}`;
      first = false;
      if (chunk.length >= CHUNK_CHARS) {
        yield chunk;
        chunk = '';
      }
    }
    chunk += first ? ']' : '\n  ]';
  }
  yield `${chunk}\n}\n`;
}
