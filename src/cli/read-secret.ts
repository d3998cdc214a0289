/**
 * A secret from standard input: typed at a prompt that echoes nothing when it is a terminal, else
 * the first line of what is piped in (`printf '%s\n' "$PASSWORD" | hr users:create-admin ...`).
 */
export async function readSecret(input: NodeJS.ReadStream, prompt: NodeJS.WriteStream, question: string): Promise<string> {
  if (!input.isTTY) {
    let text = '';
    for await (const chunk of input) {
      text += String(chunk);
      if (text.includes('\n') || text.length > 4096) break;
    }
    return text.split(/\r?\n/)[0];
  }
  prompt.write(question);
  input.setRawMode(true);
  input.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    let typed = '';
    const done = (err?: Error) => {
      input.setRawMode(false);
      input.pause();
      input.off('data', onData);
      prompt.write('\n');
      if (err) reject(err);
      else resolve(typed);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') return done();
        if (ch === '\u0003') return done(new Error('cancelled'));
        if (ch === '\u007f' || ch === '\b') typed = typed.slice(0, -1);
        else typed += ch;
      }
    };
    input.on('data', onData);
    input.resume();
  });
}
