/**
 * 翻译歌词 in the batch side bar's manual edit (batch_update_id3 `music_info.is_translate_lyrics`, spec doc 1 §7):
 * POST → plan on a worker → items in the workers' plugin pool → `caps.llm.translateLyric` against a local server
 * speaking OpenAI chat-completions, with the model configured in the stored system settings → lyrics read back
 * with ffprobe → the report → undo_task. No model configured: the task is refused before anything is queued.
 * Real store, bus, workers, sandbox and files; no mocks.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '@tagsonic/core/config';
import { buildApp } from '@tagsonic/gateway';
import { startWorker, type Worker } from '@tagsonic/workers';
import { builtinPlugin } from '@tagsonic/workers/plugin-runtime';
import { gatewayDeps, openRuntime, type Runtime } from '@tagsonic/cli';
import type { Manifest } from '@tagsonic/sdk';
import { call, expectError, expectOk, login, ADMIN_PASSWORD, type Session } from './api-harness.ts';
import { makeAudio, probeTags } from './support/audio.ts';
import { taskFinished } from './support/task-wait.ts';

let home: string;
let rt: Runtime;
let worker: Worker;
let app: FastifyInstance;
let admin: Session;
let media: string;
let server: Server;
let llmBase: string;
/** The lines each translation request carried. */
const asked: string[][] = [];
let failWith: number | null = null;
const at = (...parts: string[]) => path.join(media, ...parts);
const lyricsOf = async (file: string) => Object.entries(await probeTags(file)).find(([k]) => k.startsWith('lyrics'))?.[1];

const FLAGS = { is_save_lyrics_file: false, is_import_lyrics_file: false, is_translate_lyrics: true, is_save_album_cover: false, is_import_album_cover: false };
const payload = (music_info: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  file_full_path: at('Translate'),
  select_data: [{ icon: 'icon-folder', name: 'Album', title: 'Album' }],
  music_info: { ...FLAGS, ...music_info },
  is_regainer: false,
  ...extra,
});

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      if (failWith !== null) {
        res.writeHead(failWith, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'quota exceeded' } }));
        return;
      }
      const body = JSON.parse(raw) as { messages: Array<{ content: string }> };
      const lines = JSON.parse(body.messages.at(-1)!.content) as string[];
      asked.push(lines);
      const content = JSON.stringify(lines.map((l) => `译:${l}`));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content } }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  llmBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;

  home = await mkdtemp(path.join(tmpdir(), 'tagsonic-translate-'));
  rt = await openRuntime(loadConfig({ TAGSONIC_HOME: home }));
  await rt.users.ensureAdmin(ADMIN_PASSWORD);
  const { manifest, code } = await builtinPlugin('batch-update-id3');
  await rt.plugins.syncBuiltins([{ manifest: manifest as Manifest, code }]);
  worker = await startWorker({ bus: rt.bus, tasks: rt.tasks, roots: rt.roots, journal: rt.journal, concurrency: 2, plugins: { registry: rt.plugins, store: rt.store } });
  app = await buildApp(gatewayDeps(rt, { buildId: 'test', dashboardDir: path.join(home, 'no-dashboard') }));
  await app.ready();
  admin = await login(app);
  media = rt.roots.root('media').dir;
  await mkdir(at('Translate', 'Album'), { recursive: true });
  await makeAudio(at('Translate', 'Album', '01 Embedded.flac'), { tags: { title: 'One', lyrics: '[ar:Someone]\n[00:01.00]Hello\n[00:05.50]Goodbye' } });
  await makeAudio(at('Translate', 'Album', '02 Lrc.flac'), { tags: { title: 'Two' } });
  await writeFile(at('Translate', 'Album', '02 Lrc.lrc'), '[00:02.00]Rain\n[00:04.00]Sun\n');
  await makeAudio(at('Translate', 'Album', '03 None.flac'), { tags: { title: 'Three' } });
}, 60_000);

beforeEach(() => {
  asked.length = 0;
  failWith = null;
});

afterAll(async () => {
  await app?.close();
  await worker?.close();
  await rt?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await rm(home, { recursive: true, force: true });
});

const configure = () => rt.store.collection('settings').updateOne({ _id: 'system' }, { $set: { llm_base_url: llmBase, llm_api_key: 'sk-test', llm_model_name: 'gpt-4o-mini' } }, { upsert: true });

describe('batch_update_id3 is_translate_lyrics', () => {
  it('without a configured model the task is refused with TAGSONIC_ERR_LLM_NOT_CONFIGURED, nothing queued', async () => {
    await rt.store.collection('settings').deleteOne({ _id: 'system' });
    const before = (await rt.tasks.findTasks({})).length;
    const res = await call(app, admin, 'POST', '/apimt/batch_update_id3/', payload({}));
    expect(expectError(res, 409, 'TAGSONIC_ERR_LLM_NOT_CONFIGURED').message).toContain('llm_base_url');
    expect((await rt.tasks.findTasks({})).length).toBe(before);
    expect(asked).toHaveLength(0);
  });

  it('translates embedded and imported lyrics behind their time tags, skips a track without lyrics, and undo_task puts the lyrics back', async () => {
    await configure();
    const res = expectOk(await call(app, admin, 'POST', '/apimt/batch_update_id3/', payload({ is_import_lyrics_file: true, is_save_lyrics_file: true })));
    expect(res.data.total).toBe(3);
    const task = await taskFinished(rt.tasks, res.data.task_id, 30_000);
    expect(task).toMatchObject({ kind: 'action:batch-update-id3', status: 'success', counts: { success: 2, skip: 1 } });

    expect(await lyricsOf(at('Translate', 'Album', '01 Embedded.flac'))).toBe('[ar:Someone]\n[00:01.00]译:Hello\n[00:05.50]译:Goodbye');
    // The .lrc was imported first, then translated; the saved .lrc holds what the track now holds.
    expect(await lyricsOf(at('Translate', 'Album', '02 Lrc.flac'))).toBe('[00:02.00]译:Rain\n[00:04.00]译:Sun\n');
    expect(await readFile(at('Translate', 'Album', '02 Lrc.lrc'), 'utf8')).toContain('[00:02.00]译:Rain');
    expect(asked.flat().sort()).toEqual(['Goodbye', 'Hello', 'Rain', 'Sun']);

    const detail = expectOk(await call(app, admin, 'GET', `/apimt/audit_log_detail/?id=${res.data.task_id}`)).data;
    expect(detail.skip_count).toBe(1);
    expect(detail.skip[0].reason).toContain('03 None.flac has no lyrics to translate');
    expect(detail.success.flatMap((row: { changes: Array<{ field: string; after: string }> }) => row.changes.filter((c) => c.field === 'lyrics').map((c) => c.after)))
      .toContain('[ar:Someone]\n[00:01.00]译:Hello\n[00:05.50]译:Goodbye');

    expectOk(await call(app, admin, 'POST', '/apimt/undo_task/', { task_id: res.data.task_id }));
    expect(await lyricsOf(at('Translate', 'Album', '01 Embedded.flac'))).toBe('[ar:Someone]\n[00:01.00]Hello\n[00:05.50]Goodbye');
    expect(await lyricsOf(at('Translate', 'Album', '02 Lrc.flac'))).toBeUndefined();
  }, 60_000);

  it('a dry run asks the model nothing; applying it translates', async () => {
    await configure();
    const dry = expectOk(await call(app, admin, 'POST', '/apimt/batch_update_id3/', { ...payload({}), dry_run: true }));
    expect(await taskFinished(rt.tasks, dry.data.task_id)).toMatchObject({ status: 'success', counts: { success: 1, skip: 2 } });
    expect(asked).toHaveLength(0);
    const preview = expectOk(await call(app, admin, 'GET', `/apimt/audit_log_detail/?id=${dry.data.task_id}`)).data;
    expect(preview.success[0].changes[0]).toMatchObject({ field: 'lyrics', after: '(translated by the language model when applied: 2 lines)' });
    expect(await lyricsOf(at('Translate', 'Album', '01 Embedded.flac'))).toBe('[ar:Someone]\n[00:01.00]Hello\n[00:05.50]Goodbye');

    const applied = expectOk(await call(app, admin, 'POST', '/apimt/apply_task/', { task_id: dry.data.task_id }));
    expect(await taskFinished(rt.tasks, applied.data.task_id)).toMatchObject({ status: 'success', counts: { success: 1 } });
    expect(await lyricsOf(at('Translate', 'Album', '01 Embedded.flac'))).toBe('[ar:Someone]\n[00:01.00]译:Hello\n[00:05.50]译:Goodbye');
    expectOk(await call(app, admin, 'POST', '/apimt/undo_task/', { task_id: applied.data.task_id }));
  }, 60_000);

  it('the model\'s failure fails the items with its code and message; the files are untouched', async () => {
    await configure();
    failWith = 429;
    const res = expectOk(await call(app, admin, 'POST', '/apimt/batch_update_id3/', payload({ title: 'Renamed' })));
    const task = await taskFinished(rt.tasks, res.data.task_id);
    expect(task.counts).toMatchObject({ fail: 1 });
    const detail = expectOk(await call(app, admin, 'GET', `/apimt/audit_log_detail/?id=${res.data.task_id}`)).data;
    const failed = detail.fail.find((row: { name: string }) => row.name === '01 Embedded.flac');
    expect(failed).toMatchObject({ error_code: 'TAGSONIC_ERR_LLM_HTTP', reason: expect.stringContaining('HTTP 429: quota exceeded') });
    expect((await probeTags(at('Translate', 'Album', '01 Embedded.flac'))).title).toBe('One');
  }, 60_000);
});
