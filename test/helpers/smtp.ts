import { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
  subject: string;
  /** The temporary password as written in the text part. */
  password: string | null;
}

export interface SmtpSink {
  port: number;
  url: string;
  messages: ReceivedMail[];
  /** RCPT TO commands seen: one per delivery attempt. */
  attempts: number;
  /** Connection errors seen, such as a client killed mid-message resetting its socket (ECONNRESET). */
  errors: Error[];
  /** From now on refuse every recipient with this code (550), or accept again (null). */
  setRejectCode(code: number | null): void;
  close(): Promise<void>;
}

/**
 * A real SMTP server on loopback (the smtp-server package). With `rejectCode` every recipient is
 * refused with that code (550: mailbox unavailable), so delivery attempts fail. With
 * `acceptDelayMs` a message is answered (accepted and counted) only that long after its data ended.
 */
export async function startSmtp(opts: { rejectCode?: number | null; acceptDelayMs?: number } = {}): Promise<SmtpSink> {
  const sink = { messages: [] as ReceivedMail[], attempts: 0, errors: [] as Error[] };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      sink.attempts += 1;
      if (opts.rejectCode) return callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: opts.rejectCode }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const accept = () => {
          sink.messages.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
            subject: /^Subject: (.*)$/m.exec(raw)?.[1]?.trim() ?? '',
            password: /Temporary password: ([A-Za-z0-9_-]{12,})/.exec(raw)?.[1] ?? null,
          });
          callback();
        };
        if (opts.acceptDelayMs) setTimeout(accept, opts.acceptDelayMs);
        else accept();
      });
    },
  });
  // A client that dies inside a transaction (a worker killed by SIGKILL) resets its socket; the
  // server emits that as 'error', which without a listener would be thrown and fail the test run.
  server.on('error', (err) => sink.errors.push(err));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    get messages() {
      return sink.messages;
    },
    get attempts() {
      return sink.attempts;
    },
    get errors() {
      return sink.errors;
    },
    setRejectCode: (code) => (opts.rejectCode = code),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A loopback port with nothing listening. */
export async function closedPort(): Promise<number> {
  const s = await startSmtp();
  await s.close();
  return s.port;
}

/** The PDF attachments of a received message (base64 MIME parts of type application/pdf), with their file names. */
export function pdfAttachments(raw: string): Array<{ filename: string; content: Buffer }> {
  const out: Array<{ filename: string; content: Buffer }> = [];
  const part =
    /Content-Type: application\/pdf[^\r\n]*(?:\r?\n[ \t][^\r\n]*)*((?:\r?\n[^\r\n]+)*)\r?\n\r?\n([A-Za-z0-9+/=\r\n]+?)\r?\n--/g;
  for (let m = part.exec(raw); m; m = part.exec(raw)) {
    const filename = /filename="?([^";\r\n]+)"?/.exec(m[0])?.[1] ?? '';
    out.push({ filename, content: Buffer.from(m[2].replace(/\s+/g, ''), 'base64') });
  }
  return out;
}
