import { FileHandle, open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';

/** Bytes written or read at a time. */
const IO_BYTES = 1 << 16;

/**
 * Lines appended to a temporary file through a 64 KiB buffer (externalSort's runs, the bank file's
 * transfers per currency): a line holds no newline of its own.
 */
export class LineWriter {
  private chunk = '';
  private closed = false;

  private constructor(private readonly file: FileHandle) {}

  static async create(path: string): Promise<LineWriter> {
    return new LineWriter(await open(path, 'w'));
  }

  async write(line: string): Promise<void> {
    this.chunk += `${line}\n`;
    if (this.chunk.length < IO_BYTES) return;
    await this.file.write(this.chunk);
    this.chunk = '';
  }

  /** Writes what is buffered and closes the file; again: nothing. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      if (this.chunk) await this.file.write(this.chunk);
      this.chunk = '';
    } finally {
      await this.file.close();
    }
  }
}

/** A file's lines, one at a time, read through a 64 KiB buffer: memory holds the buffer, not the file. */
export class LineReader {
  private readonly buffer = Buffer.allocUnsafe(IO_BYTES);
  private readonly decoder = new StringDecoder('utf8');
  private lines: string[] = [];
  private next = 0;
  private rest = '';
  private ended = false;

  constructor(private readonly file: FileHandle) {}

  /** The next line without its newline; undefined past the last. */
  async read(): Promise<string | undefined> {
    while (this.next >= this.lines.length) {
      if (this.ended) return undefined;
      const { bytesRead } = await this.file.read(this.buffer, 0, IO_BYTES, null);
      const text = this.rest + (bytesRead ? this.decoder.write(this.buffer.subarray(0, bytesRead)) : this.decoder.end());
      if (!bytesRead) this.ended = true;
      const lines = text.split('\n');
      this.rest = lines.pop() ?? '';
      // A last line without its newline is a line too.
      if (this.ended && this.rest) lines.push(this.rest);
      this.lines = lines;
      this.next = 0;
    }
    return this.lines[this.next++];
  }
}
