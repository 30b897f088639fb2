import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, mkdir } from 'node:fs/promises';
import { spawn, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '@tagsonic/core/config';
import { buildApp } from '@tagsonic/gateway';
import { startWorker, type Worker } from '@tagsonic/workers';
import { gatewayDeps, openRuntime, type Runtime } from '@tagsonic/cli';
import type { FastifyInstance } from 'fastify';
import { makeAudio, probeTags, waitFor } from '../support/audio.ts';
import { startNatsServer } from '../support/nats-server.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const PASSWORD = 'e2e-admin-password';

interface Setup {
  rt: Runtime;
  app: FastifyInstance;
  base: string;
  files: string[];
  cleanup(): Promise<void>;
}

async function setUp(env: Record<string, string>, inProcessWorker: boolean): Promise<Setup & { worker?: Worker }> {
  const home = await mkdtemp(path.join(tmpdir(), 'tagsonic-e2e-'));
  await mkdir(path.join(home, 'media/Artist/Album'), { recursive: true });
  const files = [path.join(home, 'media/Artist/Album/01 one.mp3'), path.join(home, 'media/Artist/Album/02 two.flac')];
  await makeAudio(files[0], { tags: { title: 'Old One', artist: 'Old Artist' } });
  await makeAudio(files[1], { freq: 523, tags: { title: 'Old Two', artist: 'Old Artist' } });
  const fullEnv = { TAGSONIC_HOME: home, TAGSONIC_ADMIN_PASSWORD: PASSWORD, ...env };
  const rt = await openRuntime(loadConfig(fullEnv));
  await rt.users.ensureAdmin(PASSWORD);
  const worker = inProcessWorker
    ? await startWorker({ bus: rt.bus, tasks: rt.tasks, roots: rt.roots, journal: rt.journal, concurrency: 2 })
    : undefined;
  const app = await buildApp(gatewayDeps(rt, { buildId: 'test' }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return {
    rt,
    app,
    base,
    files,
    worker,
    async cleanup() {
      await app.close();
      await worker?.close();
      await rt.close();
      await rm(home, { recursive: true, force: true });
    },
  };
}

async function login(base: string): Promise<string> {
  const res = await fetch(`${base}/apimt/token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: PASSWORD }),
  });
  const body = (await res.json()) as { result: boolean; token: string };
  expect(body.result).toBe(true);
  return body.token;
}

/** Collects SSE events from /apimt/events/ over a real HTTP connection. */
function followEvents(base: string, token: string) {
  const events: Array<{ event: string; data: any }> = [];
  let buffer = '';
  const req = httpRequest(`${base}/apimt/events/`, { headers: { authorization: `jwt ${token}` } }, (res) => {
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buffer += chunk;
      let i;
      while ((i = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        const ev = /^event: (.+)$/m.exec(block)?.[1];
        const data = /^data: (.+)$/m.exec(block)?.[1];
        if (ev && data) events.push({ event: ev, data: JSON.parse(data) });
      }
    });
  });
  req.end();
  return { events, close: () => req.destroy() };
}

async function exerciseWriteFlow(s: Setup) {
  const token = await login(s.base);
  const sse = followEvents(s.base, token);
  await new Promise((r) => setTimeout(r, 200));
  const res = await fetch(`${s.base}/apimt/update_id3/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `jwt ${token}` },
    body: JSON.stringify({
      music_id3_info: [
        { file_full_path: s.files[0], title: '新的标题', artist: '周杰伦/方文山', album: 'E2E Album', comment: '${null}' },
        { file_full_path: s.files[1], title: 'New Two', year: '2024' },
      ],
    }),
  });
  const body = (await res.json()) as any;
  expect(res.status).toBe(200);
  expect(body.result).toBe(true);
  expect(body.message).toBe('修改成功！');
  expect(body.data.status).toBe('success');
  expect(body.data.items.map((i: any) => i.status)).toEqual(['success', 'success']);

  // The files really changed, as an independent reader sees them.
  const a = await probeTags(s.files[0]);
  expect(a.title).toBe('新的标题');
  expect(a.album).toBe('E2E Album');
  const b = await probeTags(s.files[1]);
  expect(b.title).toBe('New Two');
  expect(b.date ?? b.year).toBe('2024');

  // The store holds the task, its items and one journal entry per file.
  const task = await s.rt.tasks.get(body.data.task_id);
  expect(task.status).toBe('success');
  expect(task.counts.success).toBe(2);
  const journal = await s.rt.store.collection('tag_journal').find({ taskId: task._id });
  expect(journal.map((j) => j.path).sort()).toEqual([...s.files].sort());

  // The events came back to the browser's stream. Other tasks (a worker's start-up library scan) report on
  // the same stream, so events are matched by task id.
  const ofTask = (name: string) => sse.events.filter((e) => e.event === name && e.data.taskId === task._id);
  await expect.poll(() => ofTask('tagsonic.evt.task.completed').length, { timeout: 5000 }).toBe(1);
  expect(ofTask('tagsonic.evt.task.progressed').map((e) => e.data.done).sort()).toEqual([1, 2]);
  expect(ofTask('tagsonic.evt.track.updated').map((e) => e.data.path).sort()).toEqual([...s.files].sort());
  sse.close();

  // A path outside the media roots is refused before anything is queued.
  const bad = await fetch(`${s.base}/apimt/update_id3/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `jwt ${token}` },
    body: JSON.stringify({ music_id3_info: [{ file_full_path: '/etc/passwd', title: 'x' }] }),
  });
  expect(bad.status).toBe(403);
  expect(((await bad.json()) as any).result).toBe(false);
}

describe('one command end to end: gateway → bus → worker → store → events', () => {
  describe('embedded mode (in-process bus, embedded store)', () => {
    let s: Setup & { worker?: Worker };
    beforeAll(async () => {
      s = await setUp({}, true);
    });
    afterAll(async () => s?.cleanup());

    it('writes tags through a task and reports back', async () => {
      expect(s.rt.bus.driver).toBe('memory');
      expect(s.rt.store.driver).toBe('embedded');
      await exerciseWriteFlow(s);
    });

    it('refuses the API without a session', async () => {
      const res = await fetch(`${s.base}/apimt/update_id3/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"music_id3_info":[]}' });
      expect(res.status).toBe(401);
    });

    it('reports health with drivers and versions', async () => {
      const h = (await (await fetch(`${s.base}/healthz`)).json()) as any;
      expect(h).toMatchObject({ status: 'ok', mode: 'embedded', store: { driver: 'embedded', ok: true }, bus: { driver: 'memory', ok: true } });
      expect(h.version).toMatchObject({ display: '2.4.3', project: '20250516' });
    });
  });

  describe('distributed mode (NATS JetStream, worker in its own process)', () => {
    let s: Setup;
    let nats: Awaited<ReturnType<typeof startNatsServer>>;
    let child: ChildProcess;
    let childLog = '';
    beforeAll(async () => {
      nats = await startNatsServer();
      s = await setUp({ TAGSONIC_NATS_URL: nats.url }, false);
      child = spawn(process.execPath, ['--no-node-snapshot', path.join(ROOT, 'cli/src/main.ts'), 'worker'], {
        env: { ...process.env, TAGSONIC_HOME: s.rt.config.home, TAGSONIC_NATS_URL: nats.url, TAGSONIC_ADMIN_PASSWORD: PASSWORD },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout!.on('data', (d) => (childLog += d));
      child.stderr!.on('data', (d) => (childLog += d));
      await waitFor(() => /worker consuming commands \(nats bus/.test(childLog), `the worker to start: ${childLog}`);
    }, 60_000);
    afterAll(async () => {
      child?.kill('SIGTERM');
      await new Promise((r) => (child?.exitCode !== null ? r(null) : child.once('exit', r)));
      await s?.cleanup();
      await nats?.stop();
    });

    it('writes tags through a worker process over NATS and reports back', async () => {
      // No worker runs in this process: only the child can have written the files.
      expect(s.rt.bus.driver).toBe('nats');
      await exerciseWriteFlow(s);
      const h = (await (await fetch(`${s.base}/healthz`)).json()) as any;
      expect(h).toMatchObject({ status: 'ok', mode: 'distributed', bus: { driver: 'nats', ok: true } });
    });
  });
});
