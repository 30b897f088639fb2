import { afterAll, describe, expect, it } from 'vitest';
import { copyFile, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openStore } from '@tagsonic/core/store';
import { readTags } from '@tagsonic/core/tags';
import type { TaskDoc, TaskItemDoc } from '@tagsonic/core/tasks';
import { makeAudio } from './support/audio.ts';
import { startNatsServer } from './support/nats-server.ts';
import { freePort, ROOT } from './e2e/tagsonic-process.ts';

/**
 * Issue 10 item 3: `kill -9` of the embedded server in the middle of a 200-file save, then a
 * restart. The task must not stay `running`: what the journal committed counts as done, the rest is
 * resumed, files that vanished meanwhile fail with the reason, and the failures reach the bell.
 */
const PASSWORD = 'recovery-admin-password';
const FILES = 200;
const MANY = 800;
/**
 * Files of the save a second worker starts beside: enough that the first worker is still writing once the second
 * has started (800 were written before a second start that a loaded CI machine slowed to seconds).
 */
const WHILE_STARTING = 2000;
const homes: string[] = [];
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const h of homes) await rm(h, { recursive: true, force: true });
});

/** `tagsonic start` (or `gateway`, `worker`) as users run it, until /healthz answers or the worker consumes. */
async function startTagsonic(home: string, command: 'start' | 'gateway' | 'worker' = 'start', env: Record<string, string> = {}) {
  const port = await freePort();
  const child = spawn(process.execPath, ['--no-node-snapshot', path.join(ROOT, 'cli/src/main.ts'), command], {
    env: {
      ...process.env,
      TAGSONIC_HOME: home,
      TAGSONIC_PORT: String(port),
      TAGSONIC_HOST: '127.0.0.1',
      // The worker says when it consumes at info level.
      TAGSONIC_LOG_LEVEL: command === 'worker' ? 'info' : 'warn',
      TAGSONIC_ADMIN_PASSWORD: PASSWORD,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const base = `http://127.0.0.1:${port}`;
  if (command === 'worker') {
    const over = () => child.exitCode !== null || child.signalCode !== null;
    await expect.poll(() => /worker consuming commands/.test(out) || over(), { timeout: 60_000, interval: 100, message: 'the worker to start' }).toBe(true);
    // A worker that exits at start says why.
    expect(out).toMatch(/worker consuming commands/);
  }
  else {
    await expect
      .poll(async () => (await fetch(`${base}/healthz`).then((r) => r.status).catch(() => 0)), { timeout: 60_000, interval: 200 })
      .toBe(200);
  }
  return {
    base,
    output: () => out,
    running: () => child.exitCode === null && child.signalCode === null,
    async kill(signal: NodeJS.Signals) {
      child.kill(signal);
      await exited;
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

/** The task events of /apimt/events/, over a real connection. */
function followProgress(base: string, token: string) {
  const progress: Array<{ taskId: string; total: number; done: number }> = [];
  let buffer = '';
  const req = httpRequest(`${base}/apimt/events/`, { headers: { authorization: `jwt ${token}` } }, (res) => {
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buffer += chunk;
      let i;
      while ((i = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        const data = /^data: (.+)$/m.exec(block)?.[1];
        if (/^event: tagsonic\.evt\.task\.progressed$/m.test(block) && data) progress.push(JSON.parse(data));
      }
    });
    res.on('error', () => undefined);
  });
  req.on('error', () => undefined);
  req.end();
  return { progress, close: () => req.destroy() };
}

/** Reads the server's embedded store while no server runs. */
async function inStore<R>(home: string, fn: (store: Awaited<ReturnType<typeof openStore>>) => Promise<R>): Promise<R> {
  const store = await openStore({ dataDir: path.join(home, 'data') });
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

/** A media folder of `n` copies of one tagged MP3 (copies: 200 ffmpeg runs would take a while). */
async function library(n: number): Promise<{ home: string; files: string[] }> {
  const home = await mkdtemp(path.join(tmpdir(), 'tagsonic-recovery-'));
  homes.push(home);
  const album = path.join(home, 'media/Album');
  await mkdir(album, { recursive: true });
  const seed = path.join(home, 'seed.mp3');
  await makeAudio(seed, { tags: { title: 'Old', album: 'Old Album' } });
  const files = Array.from({ length: n }, (_, i) => path.join(album, `${String(i + 1).padStart(4, '0')}.mp3`));
  for (const f of files) await copyFile(seed, f);
  return { home, files };
}

/** Starts saving new tags in every file (the answer is not awaited: the server may die first). */
function saveAll(base: string, token: string, files: string[], album = 'New Album') {
  return fetch(`${base}/apimt/update_id3/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `jwt ${token}` },
    body: JSON.stringify({ music_id3_info: files.map((f, i) => ({ file_full_path: f, title: `New ${i + 1}`, album })) }),
  }).catch(() => null);
}

/** Signs in, follows the task events, then starts saving `files` (not awaited); `done` is how far the save got. */
async function saveFollowed(base: string, files: string[]) {
  const token = await login(base);
  const events = followProgress(base, token);
  await new Promise((r) => setTimeout(r, 200));
  void saveAll(base, token, files);
  const ours = () => events.progress.filter((p) => p.total === files.length);
  const done = () => Math.max(0, ...ours().map((p) => p.done));
  return { events, ours, done };
}

describe('a task interrupted by kill -9', () => {
  it('is settled at the next start: journal-committed items succeed, the rest resume or fail with a reason', async () => {
    const { home, files } = await library(FILES);

    // 1. Save 200 files and kill the server hard part-way through.
    const first = await startTagsonic(home);
    const token = await login(first.base);
    const events = followProgress(first.base, token);
    await new Promise((r) => setTimeout(r, 200));
    const save = saveAll(first.base, token, files);
    const ours = () => events.progress.filter((p) => p.total === FILES);
    await expect.poll(() => Math.max(0, ...ours().map((p) => p.done)), { timeout: 60_000, interval: 20 }).toBeGreaterThanOrEqual(40);
    await first.kill('SIGKILL');
    events.close();
    await save;
    const taskId = ours()[0].taskId;

    const before = await inStore(home, async (store) => ({
      task: (await store.collection<TaskDoc>('tasks').findOne({ _id: taskId }))!,
      journaled: await store.collection('tag_journal').countDocuments({ taskId, kind: { $ne: 'move' } }),
    }));
    expect(before.task.status).toBe('running');
    expect(before.task.counts.success).toBeLessThan(FILES);

    // Three files not written yet disappear while the server is down: resuming them is impossible.
    const untouched: string[] = [];
    for (const f of [...files].reverse()) {
      if ((await readTags(f)).tags.fields.title === 'Old') untouched.push(f);
      if (untouched.length === 3) break;
    }
    expect(untouched).toHaveLength(3);
    for (const f of untouched) await rm(f);

    // 2. Restart: the task ends, and its failures reach the bell.
    const second = await startTagsonic(home);
    const token2 = await login(second.base);
    const records = async () => {
      const res = await fetch(`${second.base}/apimt/record/`, { headers: { authorization: `jwt ${token2}` } });
      return ((await res.json()) as { data: { items: Array<{ task_id: string; content: string }> } }).data.items;
    };
    await expect.poll(async () => (await records()).filter((r) => r.task_id === taskId).length, { timeout: 90_000, interval: 500 }).toBe(1);
    const record = (await records()).find((r) => r.task_id === taskId)!;
    expect(record.content).toMatch(/^3 个文件失败（共 200 个）/);
    await second.kill('SIGTERM');

    // 3. The store agrees with the journal and the files.
    const after = await inStore(home, async (store) => ({
      task: (await store.collection<TaskDoc>('tasks').findOne({ _id: taskId }))!,
      items: await store.collection<TaskItemDoc>('task_items').find({ taskId }, { sort: { seq: 1 } }),
      committed: await store.collection<{ _id: string; path: string }>('tag_journal').find({ taskId, kind: { $ne: 'move' }, state: 'committed' }),
    }));
    expect(after.task.status).toBe('success');
    expect(after.task.completedAt).toBeInstanceOf(Date);
    expect(after.task.counts).toEqual({ success: FILES - 3, fail: 3, miss: 0, skip: 0, stop: 0 });
    expect(after.items.filter((i) => i.status === 'success')).toHaveLength(FILES - 3);
    const failed = after.items.filter((i) => i.status === 'fail');
    expect(failed.map((i) => i.path).sort()).toEqual([...untouched].sort());
    for (const item of failed) expect(item.error).toMatch(/Interrupted by a crash and cannot be resumed: No such file or folder/);
    // Every success is a committed journal write of that file (journal-committed before the crash + resumed).
    const committedPaths = new Set(after.committed.map((e) => e.path));
    expect(committedPaths.size).toBe(FILES - 3);
    for (const item of after.items) if (item.status === 'success') expect(committedPaths.has(item.path!)).toBe(true);
    // Nothing was lost: every remaining file holds its new tags.
    for (const [i, f] of files.entries()) {
      if (untouched.includes(f)) continue;
      const tags = (await readTags(f)).tags.fields;
      expect({ file: f, title: tags.title, album: tags.album }).toEqual({ file: f, title: `New ${i + 1}`, album: 'New Album' });
    }
    console.log(
      `killed with ${before.task.counts.success} counted success / ${before.journaled} journal entries; after restart ${after.task.counts.success} success, ${after.task.counts.fail} fail`,
    );
  }, 240_000);

  it('in distributed mode: when the gateway and one worker die mid-task, the live worker is left alone and the task is settled', async () => {
    const nats = await startNatsServer();
    try {
      // Enough files that the task is still running after both kills.
      const { home, files } = await library(MANY);
      const env = { TAGSONIC_NATS_URL: nats.url };
      const doomed = await startTagsonic(home, 'worker', env);
      const survivor = await startTagsonic(home, 'worker', env);
      const gateway = await startTagsonic(home, 'gateway', env);
      const { events, ours, done } = await saveFollowed(gateway.base, files);
      await expect.poll(done, { timeout: 60_000, interval: 10 }).toBeGreaterThanOrEqual(20);
      await doomed.kill('SIGKILL');
      await expect.poll(done, { timeout: 60_000, interval: 10 }).toBeGreaterThanOrEqual(100);
      await gateway.kill('SIGKILL');
      events.close();
      const taskId = ours()[0].taskId;
      const task = () => inStore(home, async (store) => (await store.collection<TaskDoc>('tasks').findOne({ _id: taskId }))!);
      const creator = (await task()).owner;
      expect(creator).toEqual(expect.any(String));

      // A gateway restart settles nothing; the live worker keeps the task while it works on it.
      const gateway2 = await startTagsonic(home, 'gateway', env);
      const running = await task();
      if (running.status === 'running') expect(running).toMatchObject({ owner: creator, settling: null });
      // What the dead worker held is settled once the survivor is the only one left on the task.
      await expect.poll(async () => (await task()).status, { timeout: 120_000, interval: 500 }).toBe('success');
      await survivor.kill('SIGTERM');
      await gateway2.kill('SIGTERM');

      const after = await inStore(home, async (store) => ({
        task: (await store.collection<TaskDoc>('tasks').findOne({ _id: taskId }))!,
        items: await store.collection<TaskItemDoc>('task_items').find({ taskId }),
        committed: await store.collection<{ _id: string; path: string }>('tag_journal').find({ taskId, kind: { $ne: 'move' }, state: { $in: ['committed', 'pending'] } }),
      }));
      expect(after.task.counts).toEqual({ success: MANY, fail: 0, miss: 0, skip: 0, stop: 0 });
      expect(after.items.every((i) => i.status === 'success')).toBe(true);
      expect(new Set(after.committed.map((e) => e.path)).size).toBe(MANY);
      for (const [i, f] of files.entries()) expect((await readTags(f)).tags.fields.title).toBe(`New ${i + 1}`);
    } finally {
      await nats.stop();
    }
  }, 300_000);
});

describe('a worker started while another one writes (distributed mode)', () => {
  it("leaves the live worker's journal entries and temp files alone: the task succeeds, nothing crashes, no file is lost", async () => {
    const nats = await startNatsServer();
    try {
      const { home, files } = await library(WHILE_STARTING);
      const env = { TAGSONIC_NATS_URL: nats.url };
      const first = await startTagsonic(home, 'worker', env);
      const gateway = await startTagsonic(home, 'gateway', env);
      const { events, ours, done } = await saveFollowed(gateway.base, files);
      await expect.poll(done, { timeout: 60_000, interval: 10 }).toBeGreaterThanOrEqual(20);

      // The second worker's start-up journal recovery runs while the first one has writes in flight.
      const second = await startTagsonic(home, 'worker', env);
      // Otherwise the recovery met no write in flight and this test proves nothing.
      expect(done()).toBeLessThan(WHILE_STARTING);
      const taskId = ours()[0].taskId;
      const task = () => inStore(home, async (store) => (await store.collection<TaskDoc>('tasks').findOne({ _id: taskId }))!);
      await expect.poll(async () => (await task()).status, { timeout: 120_000, interval: 500 }).toBe('success');
      expect({ first: first.running(), second: second.running() }).toEqual({ first: true, second: true });
      expect(first.output() + second.output()).not.toMatch(/expected pending/);
      events.close();
      await first.kill('SIGTERM');
      await second.kill('SIGTERM');
      await gateway.kill('SIGTERM');

      const after = await inStore(home, async (store) => ({
        task: (await store.collection<TaskDoc>('tasks').findOne({ _id: taskId }))!,
        items: await store.collection<TaskItemDoc>('task_items').find({ taskId }),
        entries: await store.collection<{ _id: string; path: string; state: string }>('tag_journal').find({ taskId }),
      }));
      expect(after.task.counts).toEqual({ success: WHILE_STARTING, fail: 0, miss: 0, skip: 0, stop: 0 });
      expect(after.items.filter((i) => i.status !== 'success')).toEqual([]);
      // Every write was committed by its writer: none failed or left pending by the second worker's recovery.
      expect(after.entries.filter((e) => e.state !== 'committed')).toEqual([]);
      expect(new Set(after.entries.map((e) => e.path)).size).toBe(WHILE_STARTING);
      for (const [i, f] of files.entries()) expect((await readTags(f)).tags.fields.title).toBe(`New ${i + 1}`);
      expect((await readdir(path.dirname(files[0]))).filter((n) => n.includes('.tagsonic-'))).toEqual([]);
    } finally {
      await nats.stop();
    }
  }, 300_000);
});
