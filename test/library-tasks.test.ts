/**
 * Tasks whose items come from the library (spec doc 2 /progress): POST /apimt/missing_music_task/ (the tracks
 * missing lyrics, cover, album, artist or year → an auto scrape, here against the real built-in Kugou source
 * pointed at a local replay) and POST /apimt/rule_tag/ (the tracks missing a genre → the rule-tag plugin: artist
 * rules, then the album majority the gateway counts from the library, then the language model, here a local server
 * speaking OpenAI chat-completions with the system settings in the store). Real generated files, scanned by the real
 * scanner into the real store; real bus, workers, sandbox and HTTP; the results read back with ffprobe, and undone.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '@tagsonic/core/config';
import { buildApp } from '@tagsonic/gateway';
import { startWorker, type Worker } from '@tagsonic/workers';
import { builtinPlugin } from '@tagsonic/workers/plugin-runtime';
import { Scanner } from '@tagsonic/workers/scanner';
import { gatewayDeps, openRuntime, type Runtime } from '@tagsonic/cli';
import type { Manifest } from '@tagsonic/sdk';
import { call, expectOk, login, ADMIN_PASSWORD, type Session } from './api-harness.ts';
import { makeAudio, probeTags } from './support/audio.ts';
import { sourceFake, type FakeAnswer } from './support/source-fake.ts';
import { taskFinished } from './support/task-wait.ts';

const HASH = 'B8B4E2E5A5E56B4C3E0A1C2D3E4F5A6B';
const LRC = ['[ti:晴天]', '[00:29.12]故事的小黄花', ''].join('\n');
const found = (lists: unknown[]) => ({ status: 1, error_code: 0, error_msg: '', data: { page: 1, pagesize: lists.length, total: lists.length, lists } });

/** Kugou knows 晴天 only (see action-auto-scrape.test.ts); every other search finds nothing. */
const fake = sourceFake('kugou', (p, query): FakeAnswer => {
  if (p === '/v2/search/song') {
    if (!(query.get('keyword') ?? '').startsWith('晴天')) return [200, 'application/json', found([])];
    return [200, 'application/json', found([{
      SongName: '晴天', OriSongName: '晴天', SingerName: '周杰伦', Singers: [{ name: '周杰伦', id: 3520 }], AlbumName: '叶惠美',
      AlbumID: '960399', FileHash: HASH, Duration: 2, PublishTime: '2003-07-31 00:00:00', Image: '',
    }])];
  }
  if (p === '/search') return [200, 'application/json', { status: 200, info: 'OK', candidates: [{ id: '22361470', accesskey: 'A1B2C3D4E5F6', duration: 2000, song: '晴天', singer: '周杰伦' }] }];
  if (p === '/download') return [200, 'application/json', { status: 200, info: 'OK', fmt: 'lrc', content: Buffer.from(LRC).toString('base64') }];
  return [404, 'text/html', 'not found'];
});

/** The language model: C1 is rock (in markdown), D3 an error; what it was asked is kept. */
const asked: Array<{ model: string; messages: Array<{ role: string; content: string }>; auth?: string }> = [];
const llm: Server = createServer((req, res) => {
  let raw = '';
  req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
  req.on('end', () => {
    const body = JSON.parse(raw) as (typeof asked)[number];
    asked.push({ ...body, auth: req.headers.authorization });
    const user = body.messages.at(-1)?.content ?? '';
    if (user.includes('Title: D3')) return void res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'model overloaded' } }));
    const content = user.includes('Title: C1') ? '**摇滚**' : 'unknown';
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'c', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }));
  });
});

let home: string;
let rt: Runtime;
let worker: Worker;
let app: FastifyInstance;
let admin: Session;
let media: string;

/** The library: name → tags. Only 晴天 lacks a year; Alpha's third track, Beta, Gamma and Delta's third lack a genre. */
const FILES: Record<string, Record<string, string>> = {
  'Jay/晴天.mp3': { title: '晴天', artist: '周杰伦', album: '叶惠美' },
  'Alpha/01.mp3': { title: 'A1', artist: '周杰伦', album: 'Alpha', album_artist: 'Alpha Band', genre: 'Pop', date: '2001' },
  'Alpha/02.mp3': { title: 'A2', artist: 'Alpha Band', album: 'Alpha', album_artist: 'Alpha Band', genre: 'pop', date: '2001' },
  'Alpha/03.mp3': { title: 'A3', artist: 'Alpha Band', album: 'Alpha', album_artist: 'Alpha Band', date: '2001' },
  'Beta/01.flac': { title: 'B1', artist: 'Nobody Else / Björk', album: 'Beta', date: '1997' },
  'Gamma/01.mp3': { title: 'C1', artist: 'Nobody', album: 'Gamma', date: '1990' },
  'Delta/01.mp3': { title: 'D1', artist: 'Delta', album: 'Delta', album_artist: 'Delta', genre: 'Rock', date: '1980' },
  'Delta/02.mp3': { title: 'D2', artist: 'Delta', album: 'Delta', album_artist: 'Delta', genre: 'Jazz', date: '1980' },
  'Delta/03.mp3': { title: 'D3', artist: 'Delta', album: 'Delta', album_artist: 'Delta', date: '1980' },
};
const file = (name: string) => path.join(media, ...name.split('/'));

async function scan(): Promise<void> {
  await new Scanner({ roots: rt.roots, library: rt.library.store, catalog: rt.library.catalog, bus: rt.bus, readerThreads: 2 }).scan();
}

beforeAll(async () => {
  process.env.TAGSONIC_SOURCE_URL_KUGOU = fake.baseUrl();
  await new Promise<void>((resolve) => llm.listen(0, '127.0.0.1', resolve));
  home = await mkdtemp(path.join(tmpdir(), 'tagsonic-library-tasks-'));
  rt = await openRuntime(loadConfig({ TAGSONIC_HOME: home }));
  await rt.users.ensureAdmin(ADMIN_PASSWORD);
  for (const id of ['auto-scrape', 'kugou', 'rule-tag']) {
    const { manifest, code } = await builtinPlugin(id);
    await rt.plugins.syncBuiltins([{ manifest: manifest as Manifest, code }]);
  }
  worker = await startWorker({ bus: rt.bus, tasks: rt.tasks, roots: rt.roots, journal: rt.journal, concurrency: 2, plugins: { registry: rt.plugins, store: rt.store } });
  app = await buildApp(gatewayDeps(rt, { buildId: 'test', dashboardDir: path.join(home, 'no-dashboard') }));
  await app.ready();
  admin = await login(app);
  media = rt.roots.root('media').dir;
  for (const [name, tags] of Object.entries(FILES)) {
    await mkdir(path.dirname(file(name)), { recursive: true });
    await makeAudio(file(name), { seconds: 2, tags });
  }
  await scan();
}, 90_000);

afterAll(async () => {
  delete process.env.TAGSONIC_SOURCE_URL_KUGOU;
  await app?.close();
  await worker?.close();
  await rt?.close();
  llm.closeAllConnections();
  await new Promise((resolve) => llm.close(resolve));
  await rm(home, { recursive: true, force: true });
});

const finished = (taskId: string) => taskFinished(rt.tasks, taskId, 60_000);
const report = async (taskId: string) => expectOk(await call(app, admin, 'GET', `/apimt/audit_log_detail/?id=${taskId}`)).data;
const names = (rows: Array<{ path: string }>) => rows.map((r) => path.relative(media, r.path).split(path.sep).join('/')).sort();

describe('missing_music_task', () => {
  it('scrapes the library\'s tracks missing the year, writes only the year, and undoes', async () => {
    const dry = expectOk(await call(app, admin, 'POST', '/apimt/missing_music_task/', {
      miss_mode: 'year', select_mode: 'simple', source_list: ['kugou'], is_skip_tag: false, is_folder_album: false, scrape_rate: 20, dry_run: true,
    }));
    expect(dry.message).toBe('创建成功！ 任务在后台努力运行中');
    expect(dry.data).toMatchObject({ total: 1, dry_run: true });
    expect(await finished(dry.data.task_id)).toMatchObject({ kind: 'action:auto-scrape', action: '自动刮削', status: 'success', counts: { success: 1 } });
    expect(await probeTags(file('Jay/晴天.mp3'))).not.toHaveProperty('date');

    const applied = expectOk(await call(app, admin, 'POST', '/apimt/apply_task/', { task_id: dry.data.task_id }));
    expect(await finished(applied.data.task_id)).toMatchObject({ action: '自动刮削', status: 'success', counts: { success: 1, fail: 0 } });
    const tags = await probeTags(file('Jay/晴天.mp3'));
    expect(tags.date).toBe('2003-07-31');
    // modify_list defaulted to the missing field: the lyrics Kugou has are not written.
    expect(Object.keys(tags).some((k) => k.startsWith('lyrics'))).toBe(false);
    const detail = await report(applied.data.task_id);
    expect([...detail.success, ...detail.mode_success].flatMap((r: { changes: Array<{ field: string }> }) => r.changes.map((c) => c.field))).toEqual(['year']);

    expect(expectOk(await call(app, admin, 'POST', '/apimt/undo_task/', { task_id: applied.data.task_id })).data).toMatchObject({ undone: 1, failed: [] });
    expect(await probeTags(file('Jay/晴天.mp3'))).not.toHaveProperty('date');
  }, 60_000);

  it('takes every track missing lyrics with the dialog\'s modify list; tracks the source does not know are missed', async () => {
    const res = expectOk(await call(app, admin, 'POST', '/apimt/missing_music_task/', {
      miss_mode: 'lyrics', select_mode: 'simple', source_list: ['kugou'], modify_list: ['lyrics'], is_skip_tag: true, is_folder_album: false, scrape_rate: 50,
    }));
    expect(res.data.total).toBe(Object.keys(FILES).length);
    const task = await finished(res.data.task_id);
    expect(task.counts).toMatchObject({ success: 1, miss: Object.keys(FILES).length - 1, fail: 0 });
    expect(Object.entries(await probeTags(file('Jay/晴天.mp3'))).find(([k]) => k.startsWith('lyrics'))?.[1]).toContain('故事的小黄花');
    expect(expectOk(await call(app, admin, 'POST', '/apimt/undo_task/', { task_id: res.data.task_id })).data).toMatchObject({ undone: 1, failed: [] });
    expect(Object.keys(await probeTags(file('Jay/晴天.mp3'))).some((k) => k.startsWith('lyrics'))).toBe(false);
  }, 90_000);

  it('answers a clear error when nothing is missing, for genre (no source gives one) and for a bad option', async () => {
    const none = await call(app, admin, 'POST', '/apimt/missing_music_task/', { miss_mode: 'album', source_list: ['kugou'] });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ result: false, data: { error: 'TAGSONIC_ERR_TASK_NOTHING_MISSING' } });
    const genre = await call(app, admin, 'POST', '/apimt/missing_music_task/', { miss_mode: 'genre', source_list: ['kugou'] });
    expect(genre.json()).toMatchObject({ result: false, data: { error: 'TAGSONIC_ERR_TASK_GENRE_NEEDS_RULES' } });
    const mode = await call(app, admin, 'POST', '/apimt/missing_music_task/', { miss_mode: 'year', select_mode: 'fuzzy', source_list: ['kugou'] });
    expect(mode.json()).toMatchObject({ result: false, message: 'select_mode must be one of simple, normal, hard', data: { error: 'TAGSONIC_ERR_PLUGIN_INVALID' } });
    const kind = await call(app, admin, 'POST', '/apimt/missing_music_task/', { miss_mode: 'mood' });
    expect(kind.statusCode).toBe(400);
  }, 30_000);
});

describe('rule_tag', () => {
  const rules = { artistRules: [{ artist: '周杰伦', genre: '流行' }, { artist: 'BJORK', genre: 'Electronic' }], useAlbumMajorityGenre: true, useAI: false };

  it('fills missing genres by artist rule (any artist of the track, folded), then the album majority; misses the rest with the reason', async () => {
    const dry = expectOk(await call(app, admin, 'POST', '/apimt/rule_tag/', { miss_mode: 'genre', rule_form: rules, dry_run: true }));
    expect(dry.data).toMatchObject({ total: 5, dry_run: true });
    expect(await finished(dry.data.task_id)).toMatchObject({ kind: 'action:rule-tag', action: '流派规则', status: 'success', counts: { success: 3, miss: 2 } });
    expect(await probeTags(file('Jay/晴天.mp3'))).not.toHaveProperty('genre');

    const applied = expectOk(await call(app, admin, 'POST', '/apimt/apply_task/', { task_id: dry.data.task_id }));
    expect(await finished(applied.data.task_id)).toMatchObject({ action: '流派规则', counts: { success: 3, fail: 0 } });
    expect((await probeTags(file('Jay/晴天.mp3'))).genre).toBe('流行');
    expect((await probeTags(file('Beta/01.flac'))).genre).toBe('Electronic');
    // Pop and pop are one genre (folded): two of Alpha's other tracks carry it.
    expect((await probeTags(file('Alpha/03.mp3'))).genre?.toLowerCase()).toBe('pop');
    expect(await probeTags(file('Gamma/01.mp3'))).not.toHaveProperty('genre');
    expect(await probeTags(file('Delta/03.mp3'))).not.toHaveProperty('genre');

    const detail = await report(applied.data.task_id);
    expect(detail.success.map((r: { report: { rule: string }; name: string }) => `${r.name} ${r.report.rule}`).sort()).toEqual(['01.flac artist', '03.mp3 album', '晴天.mp3 artist']);
    const missed = await report(dry.data.task_id);
    expect(names(missed.miss_tag)).toEqual(['Delta/03.mp3', 'Gamma/01.mp3']);
    const reasons = Object.fromEntries(missed.miss_tag.map((r: { name: string; reason: string }) => [r.name, r.reason]));
    expect(reasons['01.mp3']).toBe('no rule decided the genre: no artist rule for Nobody; no other track of the album has a genre');
    expect(reasons['03.mp3']).toBe("no rule decided the genre: no artist rule for Delta; no majority among the album's other tracks (Jazz ×1, Rock ×1)");

    expect(expectOk(await call(app, admin, 'POST', '/apimt/undo_task/', { task_id: applied.data.task_id })).data).toMatchObject({ undone: 3, failed: [] });
    for (const name of ['Jay/晴天.mp3', 'Beta/01.flac', 'Alpha/03.mp3']) expect(await probeTags(file(name))).not.toHaveProperty('genre');
  }, 90_000);

  it('without the album majority only the artist rules decide', async () => {
    const res = expectOk(await call(app, admin, 'POST', '/apimt/rule_tag/', { miss_mode: 'genre', rule_form: { ...rules, useAlbumMajorityGenre: false }, dry_run: true }));
    expect(await finished(res.data.task_id)).toMatchObject({ counts: { success: 2, miss: 3 } });
  }, 60_000);

  it('runs through run_action over a ticked folder too: the plugin splits the artist tag itself (no album counts)', async () => {
    const res = expectOk(await call(app, admin, 'POST', '/apimt/run_action/', {
      plugin_id: 'rule-tag', file_full_path: media, select_data: [{ icon: 'icon-folder', name: 'Beta', title: 'Beta' }, { icon: 'icon-folder', name: 'Alpha', title: 'Alpha' }], rule_form: rules, dry_run: true,
    }));
    expect(await finished(res.data.task_id)).toMatchObject({ kind: 'action:rule-tag', action: '流派规则', counts: { success: 1, skip: 2, miss: 1 } });
    const detail = await report(res.data.task_id);
    expect(detail.success).toEqual([expect.objectContaining({ name: '01.flac', changes: [expect.objectContaining({ field: 'genre', after: 'Electronic' })] })]);
    expect(detail.miss_tag).toEqual([expect.objectContaining({ name: '03.mp3', reason: 'no rule decided the genre: no artist rule for Alpha Band; no album counts (the library tasks count them: POST /apimt/rule_tag/)' })]);
  }, 60_000);

  it('refuses genre rules without a rule, and a rule without a genre', async () => {
    const empty = await call(app, admin, 'POST', '/apimt/rule_tag/', { miss_mode: 'genre', rule_form: { artistRules: [], useAlbumMajorityGenre: false, useAI: false } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ result: false, data: { error: 'TAGSONIC_ERR_TASK_NO_RULES' } });
    const bad = await call(app, admin, 'POST', '/apimt/rule_tag/', { miss_mode: 'genre', rule_form: { artistRules: [{ artist: 'x', genre: '' }] } });
    expect(bad.statusCode).toBe(400);
  }, 30_000);

  it('asks the language model for what no rule decided: a genre name is written, an error fails the item with its reason', async () => {
    const body = { miss_mode: 'genre', rule_form: { ...rules, useAI: true }, dry_run: true };
    // No model configured: refused before anything is queued.
    const unset = await call(app, admin, 'POST', '/apimt/rule_tag/', body);
    expect(unset.json()).toMatchObject({ result: false, data: { error: 'TAGSONIC_ERR_LLM_NOT_CONFIGURED' } });

    const base = `http://127.0.0.1:${(llm.address() as AddressInfo).port}/v1`;
    await rt.store.collection('settings').updateOne({ _id: 'system' }, { $set: { llm_base_url: base, llm_api_key: 'sk-test', llm_model_name: 'genre-model' } }, { upsert: true });
    asked.length = 0;
    const dry = expectOk(await call(app, admin, 'POST', '/apimt/rule_tag/', body));
    expect(await finished(dry.data.task_id)).toMatchObject({ counts: { success: 4, fail: 1, miss: 0 } });
    // Only the tracks the rules left were asked about, with the configured model and key.
    expect(asked.map((a) => a.messages.at(-1)!.content.split('\n')[0]).sort()).toEqual(['Title: C1', 'Title: D3']);
    expect(asked[0]).toMatchObject({ model: 'genre-model', auth: 'Bearer sk-test' });
    expect(asked.find((a) => a.messages.at(-1)!.content.startsWith('Title: D3'))!.messages.at(-1)!.content).toContain('Other tracks of the album: Jazz (1), Rock (1)');
    const detail = await report(dry.data.task_id);
    expect(detail.fail).toEqual([expect.objectContaining({ name: '03.mp3', reason: expect.stringMatching(/^AI: .*model overloaded.* \(before: no artist rule for Delta; no majority/) })]);

    // Applying writes the genres the preview showed: the model is not asked again (its answers vary).
    const askedBefore = asked.length;
    const applied = expectOk(await call(app, admin, 'POST', '/apimt/apply_task/', { task_id: dry.data.task_id }));
    expect(await finished(applied.data.task_id)).toMatchObject({ counts: { success: 4, fail: 0 } });
    expect(asked.length).toBe(askedBefore);
    expect((await probeTags(file('Gamma/01.mp3'))).genre).toBe('摇滚');
    const rows = (await report(applied.data.task_id)).success as Array<{ name: string; report: { rule: string } }>;
    expect(rows.find((r) => r.name === '01.mp3')?.report.rule).toBe('ai');
    expect(expectOk(await call(app, admin, 'POST', '/apimt/undo_task/', { task_id: applied.data.task_id })).data).toMatchObject({ undone: 4, failed: [] });
    expect(await probeTags(file('Gamma/01.mp3'))).not.toHaveProperty('genre');
  }, 90_000);
});
