/**
 * Batch action tasks in distributed mode: a gateway and two worker processes on a NATS JetStream bus. The items
 * of one replace_text task are shared by both workers; stopping a task in the gateway stops the items the
 * workers had not reached (their files untouched); nothing is run twice.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { spawn, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openStore } from '@tagsonic/core/store';
import { readTags } from '@tagsonic/core/tags';
import type { TaskDoc, TaskItemDoc } from '@tagsonic/core/tasks';
import { makeAudio } from './support/audio.ts';
import { startNatsServer } from './support/nats-server.ts';
import { freePort, ROOT } from './e2e/tagsonic-process.ts';

const PASSWORD = 'engine-nats-admin-password';
const homes: string[] = [];
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const h of homes) await rm(h, { recursive: true, force: true });
});

async function startTagsonic(home: string, command: 'gateway' | 'worker', env: Record<string, string>) {
  const port = await freePort();
  const child = spawn(process.execPath, ['--no-node-snapshot', path.join(ROOT, 'cli/src/main.ts'), command], {
    env: { ...process.env, TAGSONIC_HOME: home, TAGSONIC_PORT: String(port), TAGSONIC_HOST: '127.0.0.1', TAGSONIC_LOG_LEVEL: command === 'worker' ? 'info' : 'warn', TAGSONIC_ADMIN_PASSWORD: PASSWORD, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const base = `http://127.0.0.1:${port}`;
  if (command === 'worker') {
    await expect.poll(() => /worker consuming commands/.test(out) || child.exitCode !== null, { timeout: 90_000, interval: 100 }).toBe(true);
    expect(out).toMatch(/worker consuming commands/);
  } else {
    await expect.poll(async () => (await fetch(`${base}/healthz`).then((r) => r.status).catch(() => 0)), { timeout: 90_000, interval: 200 }).toBe(200);
  }
  return { base, output: () => out, async kill(signal: NodeJS.Signals) { child.kill(signal); await exited; } };
}

async function client(base: string) {
  const token = await fetch(`${base}/apimt/token/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: PASSWORD }) })
    .then(async (r) => ((await r.json()) as { token: string }).token);
  return async (method: 'GET' | 'POST', url: string, body?: unknown) => {
    const res = await fetch(`${base}${url}`, { method, headers: { 'content-type': 'application/json', authorization: `jwt ${token}` }, body: body === undefined ? undefined : JSON.stringify(body) });
    return (await res.json()) as { result: boolean; message: string; data: any };
  };
}

async function inStore<R>(home: string, fn: (store: Awaited<ReturnType<typeof openStore>>) => Promise<R>): Promise<R> {
  const store = await openStore({ dataDir: path.join(home, 'data') });
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

describe('batch action tasks on NATS with separate gateway and workers', () => {
  it('two workers share a task\'s items; a stop from the gateway stops what they had not reached', async () => {
    const nats = await startNatsServer();
    try {
      const home = await mkdtemp(path.join(tmpdir(), 'tagsonic-engine-nats-'));
      homes.push(home);
      const seed = path.join(home, 'seed.mp3');
      await makeAudio(seed, { tags: { title: 'Old' } });
      const make = async (folder: string, n: number) => {
        await mkdir(path.join(home, 'media', folder), { recursive: true });
        const files = Array.from({ length: n }, (_, i) => path.join(home, 'media', folder, `${String(i).padStart(3, '0')}.mp3`));
        for (const f of files) await copyFile(seed, f);
        return files;
      };
      const shared = await make('Shared', 120);
      const stopped = await make('Stopped', 600);
      const env = { TAGSONIC_NATS_URL: nats.url };
      const workers = [await startTagsonic(home, 'worker', env), await startTagsonic(home, 'worker', env)];
      const gateway = await startTagsonic(home, 'gateway', env);
      const api = await client(gateway.base);
      const payload = (folder: string) => ({ file_full_path: path.join(home, 'media'), select_data: [folder], replace_text_list: [{ before: 'Old', after: 'New Old' }], modify_list: ['title'] });

      const first = await api('POST', '/apimt/replace_text/', payload('Shared'));
      expect(first).toMatchObject({ result: true, data: { total: 120 } });
      await expect.poll(async () => (await api('GET', `/apimt/audit_log_detail/?id=${first.data.task_id}`)).data.status, { timeout: 120_000, interval: 300 }).toBe('success');

      const second = await api('POST', '/apimt/replace_text/', payload('Stopped'));
      await expect.poll(async () => (await api('GET', `/apimt/audit_log_detail/?id=${second.data.task_id}`)).data.static.success_count, { timeout: 60_000, interval: 20 }).toBeGreaterThan(0);
      expect(await api('POST', '/apimt/stop_audit_log_detail/', { id: second.data.task_id })).toMatchObject({ result: true });
      await expect.poll(async () => (await api('GET', `/apimt/audit_log_detail/?id=${second.data.task_id}`)).data.running_count, { timeout: 120_000, interval: 300 }).toBe(0);
      for (const w of workers) await w.kill('SIGTERM');
      await gateway.kill('SIGTERM');

      const after = await inStore(home, async (store) => ({
        first: await store.collection<TaskItemDoc>('task_items').find({ taskId: first.data.task_id }),
        second: (await store.collection<TaskDoc>('tasks').findOne({ _id: second.data.task_id }))!,
        secondItems: await store.collection<TaskItemDoc>('task_items').find({ taskId: second.data.task_id }),
      }));
      // Both worker processes took part in the first task.
      expect(new Set(after.first.map((i) => i.owner)).size).toBe(2);
      for (const f of shared) expect((await readTags(f)).tags.fields.title).toBe('New Old');
      expect(after.second.status).toBe('stop');
      expect(after.second.counts.stop).toBeGreaterThan(0);
      expect(after.second.counts.success + after.second.counts.stop).toBe(600);
      // Each file is replaced once if its item succeeded, and untouched if it was stopped.
      const byPath = new Map(after.secondItems.map((i) => [i.path, i.status]));
      for (const f of stopped) expect((await readTags(f)).tags.fields.title).toBe(byPath.get(f) === 'success' ? 'New Old' : 'Old');
    } finally {
      await nats.stop();
    }
  }, 300_000);
});
