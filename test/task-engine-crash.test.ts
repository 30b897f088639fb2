/**
 * A batch action task interrupted by `kill -9` of the embedded server, then a restart: the task completes and
 * each file's replacement happens exactly once — an item whose write the journal committed before the crash is
 * settled from the journal, not run again (replacing "Old" by "New Old" twice would leave "New New Old").
 */
import { afterAll, describe, expect, it } from 'vitest';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openStore } from '@tagsonic/core/store';
import { readTags } from '@tagsonic/core/tags';
import type { TaskDoc } from '@tagsonic/core/tasks';
import { makeAudio } from './support/audio.ts';
import { freePort, ROOT } from './e2e/tagsonic-process.ts';

const PASSWORD = 'engine-crash-admin-password';
const FILES = 240;
const homes: string[] = [];
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const h of homes) await rm(h, { recursive: true, force: true });
});

/** `tagsonic start` as users run it (built-in plugins synced, a worker in the process), until /healthz answers. */
async function startTagsonic(home: string) {
  const port = await freePort();
  const child = spawn(process.execPath, ['--no-node-snapshot', path.join(ROOT, 'cli/src/main.ts'), 'start'], {
    env: { ...process.env, TAGSONIC_HOME: home, TAGSONIC_PORT: String(port), TAGSONIC_HOST: '127.0.0.1', TAGSONIC_LOG_LEVEL: 'warn', TAGSONIC_ADMIN_PASSWORD: PASSWORD },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const base = `http://127.0.0.1:${port}`;
  await expect.poll(async () => (await fetch(`${base}/healthz`).then((r) => r.status).catch(() => 0)), { timeout: 90_000, interval: 200 }).toBe(200);
  const token = await fetch(`${base}/apimt/token/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: PASSWORD }) })
    .then(async (r) => ((await r.json()) as { token: string }).token);
  const api = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
    const res = await fetch(`${base}${url}`, { method, headers: { 'content-type': 'application/json', authorization: `jwt ${token}` }, body: body === undefined ? undefined : JSON.stringify(body) });
    return (await res.json()) as { result: boolean; message: string; data: any };
  };
  return { base, token, api, output: () => out, async kill(signal: NodeJS.Signals) { child.kill(signal); await exited; } };
}

/** The task events of /apimt/events/. */
function followProgress(base: string, token: string) {
  const progress: Array<{ taskId: string; total: number; done: number; items_per_sec?: number }> = [];
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

describe('a batch action task interrupted by kill -9', () => {
  it('completes after the restart with every file replaced exactly once', async () => {
    const home = await mkdtemp(path.join(tmpdir(), 'tagsonic-engine-crash-'));
    homes.push(home);
    const album = path.join(home, 'media/Album');
    await mkdir(album, { recursive: true });
    const seed = path.join(home, 'seed.mp3');
    await makeAudio(seed, { tags: { title: 'Old', album: 'Old Album' } });
    const files = Array.from({ length: FILES }, (_, i) => path.join(album, `${String(i + 1).padStart(3, '0')}.mp3`));
    for (const f of files) await copyFile(seed, f);

    const first = await startTagsonic(home);
    const events = followProgress(first.base, first.token);
    await new Promise((r) => setTimeout(r, 200));
    const created = await first.api('POST', '/apimt/replace_text/', {
      file_full_path: path.join(home, 'media'), select_data: [{ name: 'Album' }], replace_text_list: [{ before: 'Old', after: 'New Old' }], modify_list: ['title'], replace_mode: 'text',
    });
    expect(created).toMatchObject({ result: true, message: '创建成功！ 任务在后台努力运行中', data: { total: FILES } });
    const taskId: string = created.data.task_id;
    const done = () => Math.max(0, ...events.progress.filter((p) => p.taskId === taskId).map((p) => p.done));
    await expect.poll(done, { timeout: 60_000, interval: 10 }).toBeGreaterThanOrEqual(20);
    await first.kill('SIGKILL');
    events.close();
    // The progress events said how fast it went.
    expect(events.progress.find((p) => p.taskId === taskId)?.items_per_sec).toBeGreaterThan(0);

    const before = await inStore(home, async (store) => (await store.collection<TaskDoc>('tasks').findOne({ _id: taskId }))!);
    expect(before.status).toBe('running');
    expect(before.counts.success).toBeLessThan(FILES);

    const second = await startTagsonic(home);
    await expect.poll(async () => (await second.api('GET', `/apimt/audit_log_detail/?id=${taskId}`)).data.status, { timeout: 120_000, interval: 500 }).toBe('success');
    const detail = (await second.api('GET', `/apimt/audit_log_detail/?id=${taskId}`)).data;
    expect(detail.static).toMatchObject({ total_count: FILES, success_count: FILES, fail_count: 0, complete_rate: 100 });
    await second.kill('SIGTERM');

    // Every file was replaced once: never "New New Old", never left "Old".
    const titles = await Promise.all(files.map(async (f) => (await readTags(f)).tags.fields.title));
    expect(titles.filter((t) => t !== 'New Old')).toEqual([]);
    const journal = await inStore(home, (store) => store.collection<{ _id: string; path: string }>('tag_journal').find({ taskId, state: 'committed' }));
    expect(journal).toHaveLength(FILES);
    expect(new Set(journal.map((e) => e.path)).size).toBe(FILES);
  }, 300_000);
});

async function inStore<R>(home: string, fn: (store: Awaited<ReturnType<typeof openStore>>) => Promise<R>): Promise<R> {
  const store = await openStore({ dataDir: path.join(home, 'data') });
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}
