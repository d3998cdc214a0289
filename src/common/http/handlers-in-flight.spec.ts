import Fastify from 'fastify';
import { request } from 'node:http';
import { AddressInfo } from 'node:net';
import { HandlersInFlight } from './handlers-in-flight';

describe('HandlersInFlight', () => {
  it("waits for a handler whose client went away, which the listener's close does not", async () => {
    const app = Fastify();
    const handlers = new HandlersInFlight();
    handlers.register(app);
    let finish!: () => void;
    const gate = new Promise<void>((resolve) => (finish = resolve));
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    let handlerDone = false;
    app.get('/slow', async () => {
      started();
      await gate;
      handlerDone = true;
      return { ok: true };
    });
    app.get('/fast', async () => ({ ok: true }));
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;

    expect((await fetch(`http://127.0.0.1:${port}/fast`)).status).toBe(200);
    expect(handlers.count).toBe(0);

    const client = request({ host: '127.0.0.1', port, path: '/slow' });
    client.on('error', () => undefined);
    client.end();
    await running;
    client.destroy(); // the client goes away while the handler runs
    await new Promise((resolve) => setTimeout(resolve, 50));
    await app.close(); // resolves although the handler still runs
    expect([handlerDone, handlers.count]).toEqual([false, 1]);
    expect(await handlers.idle(50)).toBe(false);

    const idle = handlers.idle(5_000);
    finish();
    expect(await idle).toBe(true);
    expect([handlerDone, handlers.count]).toEqual([true, 0]);
  });
});
