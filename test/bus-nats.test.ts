import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { connectNatsBus, openBus, type DeadLetter } from '@tagsonic/core/bus';
import { isTagsonicError } from '@tagsonic/core/errors';
import { busContract, sleep, uniqueArea, waitFor } from './contract/bus-contract.ts';
import { startNatsServer, type NatsServerHandle } from './support/nats-server.ts';

let server: NatsServerHandle;

beforeAll(async () => {
  server = await startNatsServer();
});
afterAll(async () => {
  await server?.stop();
});

busContract('nats', async () => {
  const bus = await connectNatsBus({ servers: server.url, name: 'contract', onError: () => {} });
  return { bus, cleanup: () => bus.close() };
});

describe('choosing the bus driver', () => {
  it('openBus() in core picks NATS when a URL is given and the in-process bus otherwise', async () => {
    const nats = await openBus({ natsUrl: server.url, name: 'open-bus' });
    const memory = await openBus({});
    try {
      expect(nats.driver).toBe('nats');
      expect((await nats.health()).ok).toBe(true);
      expect(memory.driver).toBe('memory');
    } finally {
      await nats.close();
      await memory.close();
    }
  });
});

describe('nats bus across processes', () => {
  it('consumes on one connection what another connection sent, and fans events out across them', async () => {
    const gateway = await connectNatsBus({ servers: server.url, name: 'gateway' });
    const worker = await connectNatsBus({ servers: server.url, name: 'worker' });
    try {
      const area = uniqueArea();
      const got: unknown[] = [];
      const events: unknown[] = [];
      const eventSub = gateway.subscribe(`tagsonic.evt.${area}.>`, (_s, p) => void events.push(p));
      await gateway.health(); // a round trip, so the server has the subscription before the worker publishes
      const sub = await worker.consume(
        `tagsonic.cmd.${area}.write`,
        async (d) => {
          got.push(d.payload);
          await worker.publish(`tagsonic.evt.${area}.track.updated`, { id: (d.payload as { id: string }).id });
        },
        { durable: `${area}-w`, concurrency: 2, ackWaitMs: 1_000, maxDeliver: 3 },
      );
      for (let i = 0; i < 5; i++) await gateway.send(`tagsonic.cmd.${area}.write`, { id: `t${i}` }, { msgId: `${area}-${i}` });
      await waitFor(() => got.length === 5 && events.length === 5, 'commands and events across connections');
      expect(new Set(got.map((p) => (p as { id: string }).id)).size).toBe(5);
      await sub.close();
      await eventSub.close();
    } finally {
      await Promise.all([gateway.close(), worker.close()]);
    }
  });

  it('survives a nats-server restart: queued commands persist and consumers resume', async () => {
    const gateway = await connectNatsBus({ servers: server.url, name: 'gateway', onError: () => {} });
    const worker = await connectNatsBus({ servers: server.url, name: 'worker', onError: () => {} });
    try {
      const area = uniqueArea();
      const options = { durable: `${area}-w`, concurrency: 2, ackWaitMs: 1_000, maxDeliver: 3 };
      const got: string[] = [];
      const handler = async (d: { msgId: string }) => void got.push(d.msgId);

      // The durable exists but nobody consumes while the message is sent and the server restarts.
      await (await worker.consume(`tagsonic.cmd.${area}.write`, handler, options)).close();
      await gateway.send(`tagsonic.cmd.${area}.write`, { n: 1 }, { msgId: 'before-restart' });
      await server.restart();
      await waitFor(() => got.length === 0, 'nothing yet');

      const sub = await retry(() => worker.consume(`tagsonic.cmd.${area}.write`, handler, options));
      await waitFor(() => got.includes('before-restart'), 'the command sent before the restart', 10_000);

      // A consumer that lives through a restart keeps pulling, and the gateway can send again.
      await server.restart();
      await gateway.send(`tagsonic.cmd.${area}.write`, { n: 2 }, { msgId: 'after-restart' });
      await waitFor(() => got.includes('after-restart'), 'the command sent after the second restart', 10_000);
      expect((await gateway.health()).ok).toBe(true);
      await sleep(200);
      expect(got.filter((id) => id === 'before-restart')).toHaveLength(1);
      await sub.close();
    } finally {
      await Promise.all([gateway.close(), worker.close()]);
    }
  });

  it('dead-letters a command whose worker died on its last delivery (max-deliveries advisory)', async () => {
    const area = uniqueArea();
    const subject = `tagsonic.cmd.${area}.write`;
    const options = { durable: `${area}-w`, concurrency: 1, ackWaitMs: 400, maxDeliver: 1 };
    const gateway = await connectNatsBus({ servers: server.url, name: 'gateway' });
    // A real worker process takes the command and is killed mid-job: only the server knows it was given up.
    const worker = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { connectNatsBus } from ${JSON.stringify(new URL('../core/src/bus/index.ts', import.meta.url).pathname)};
         const bus = await connectNatsBus({ servers: ${JSON.stringify(server.url)}, name: 'doomed-worker' });
         await bus.consume(${JSON.stringify(subject)}, async () => { console.log('taken'); await new Promise(() => {}); }, ${JSON.stringify(options)});
         console.log('ready');`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const out: string[] = [];
    worker.stdout!.setEncoding('utf8').on('data', (chunk: string) => out.push(chunk));
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    try {
      await waitFor(() => out.join('').includes('ready'), 'the worker process to consume', 10_000);
      await gateway.send(subject, { file: 'crash.mp3' }, { msgId: `${area}-crash` });
      await waitFor(() => out.join('').includes('taken'), 'the worker to take the command');
      worker.kill('SIGKILL');
      await exited;

      const letters: DeadLetter[] = [];
      const handled: unknown[] = [];
      const sub = await gateway.consume(subject, async (d) => void handled.push(d.payload), { ...options, onDeadLetter: (l) => void letters.push(l) });
      await waitFor(() => letters.length === 1, 'the dead letter from the advisory', 5_000);
      expect(letters[0]).toMatchObject({ msgId: `${area}-crash`, payload: { file: 'crash.mp3' }, reason: 'max-deliver', deliveryCount: 1 });
      await sleep(options.ackWaitMs * 2);
      expect(handled).toHaveLength(0);
      expect(letters).toHaveLength(1);
      // Dead-lettered means gone from the work queue, not parked in it forever.
      expect((await gateway.health()).detail).toMatch(/holds 0 command/);
      await sub.close();
    } finally {
      worker.kill('SIGKILL');
      await gateway.close();
    }
  });

  it('answers a request whose reply exceeds the server\'s max_payload with an error instead of a timeout', async () => {
    const bus = await connectNatsBus({ servers: server.url, name: 'big-reply' });
    try {
      const subject = `tagsonic.rpc.${uniqueArea()}.big`;
      const sub = await bus.serve(subject, async () => 'x'.repeat(2 * 1024 * 1024), { queue: 'w', concurrency: 1 });
      const t0 = Date.now();
      await expect(bus.request(subject, {}, { timeoutMs: 5_000 })).rejects.toMatchObject({ code: 'TAGSONIC_ERR_BUS_REPLY_TOO_LARGE', kind: 'unavailable' });
      expect(Date.now() - t0).toBeLessThan(4_000);
      await sub.close();
    } finally {
      await bus.close();
    }
  });

  it('fails fast with an unavailable error when no server listens', async () => {
    const err = await connectNatsBus({ servers: 'nats://127.0.0.1:1' }).catch((e: unknown) => e);
    expect(isTagsonicError(err) && err.kind === 'unavailable').toBe(true);
  });
});

/** Right after a restart the client may still be reconnecting; a consumer set-up is retried briefly. */
async function retry<T>(fn: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await fn();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(200);
    }
  }
}
