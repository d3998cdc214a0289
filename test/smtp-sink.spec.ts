import { connect, Socket } from 'node:net';
import { startSmtp } from './helpers/smtp';
import { until } from './helpers/test-app';

/** Reads the server's replies until one starts with `code`. */
function expectReply(socket: Socket, code: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (b: Buffer) => {
      seen += b.toString('utf8');
      if (new RegExp(`^${code}[ -]`, 'm').test(seen)) {
        socket.off('data', onData);
        resolve();
      }
    };
    socket.on('data', onData);
    socket.once('error', reject);
  });
}

/**
 * The SMTP sink of the worker tests: a client killed in the middle of a message (a worker killed by
 * SIGKILL while its e-mail is being answered) resets its socket. The sink records the reset instead
 * of throwing it, which failed the payslip worker test in CI with "read ECONNRESET".
 */
describe('SMTP sink', () => {
  it('records a client resetting its socket inside a transaction and keeps serving', async () => {
    const smtp = await startSmtp();
    try {
      const socket = connect(smtp.port, '127.0.0.1');
      await expectReply(socket, '220');
      socket.write('EHLO test\r\n');
      await expectReply(socket, '250');
      socket.write('MAIL FROM:<a@company.test>\r\n');
      await expectReply(socket, '250');
      socket.resetAndDestroy();
      await until(() => smtp.errors.length > 0, 5000);
      expect((smtp.errors[0] as NodeJS.ErrnoException).code).toBe('ECONNRESET');

      const again = connect(smtp.port, '127.0.0.1');
      await expectReply(again, '220');
      again.end('QUIT\r\n');
    } finally {
      await smtp.close();
    }
  });
});
