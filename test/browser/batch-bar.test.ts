/**
 * The batch side bar (issue 12, spec doc 1 §2 "Batch side bar", §4 "Batch actions", §7 payloads, §8 notices)
 * on the real server in Debian chromium: the badge toggle and the remembered detail mode, V2-only actions
 * disabled for V1, '请先勾选文件或文件夹！' with nothing ticked, every drawer's and modal's payload field
 * for field as the spec names them, the loading state, the success notice's link to /log and a failure
 * with the server's message. Screenshots (light/dark, desktop/narrow) go to test/browser/screenshots/batch-*.png.
 */
import { execFile } from 'node:child_process';
import { access, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page, Request, Route } from 'playwright-core';
import { buildDashboard, issueLicense, launchBrowser, makeHome, newContext, screenshot, startServer, type Home, type Server } from './harness.ts';

const PASSWORD = 'batch-bar-test-password';

let home: Home;
let server: Server;
let browser: Browser;
let context: BrowserContext;
let page: Page;

const row = (name: string) => page.locator(`[data-testid="file-tree"] li[data-name="${name}"]`);
const box = (name: string) => row(name).locator('[role="checkbox"]');
const notice = (title: string) => page.locator(`.bp6-toast [data-notice-title="${title}"]`).last();
const action = (id: string) => page.locator(`[data-batch-action="${id}"]`);
const form = (id: string) => page.locator(`.ts-batch-form[data-action="${id}"]`);
/** The open drawer's or modal's confirm button (only one is open at a time). */
const submit = () => page.locator('.bp6-overlay-open [data-testid="batch-submit"]');
/** Closes the open drawer or modal with its cancel button. */
const cancel = async (id: string) => {
  await page.locator('.bp6-overlay-open .ts-batch-footer').getByRole('button', { name: '取消' }).click();
  await form(id).waitFor({ state: 'detached' });
};

const goToFolder = async (folder: string) => {
  const input = page.locator('.ts-tree-toolbar form input');
  await input.fill(folder);
  await input.press('Enter');
  await expect.poll(() => input.inputValue()).toBe(folder);
  await page.locator('[data-testid="file-tree"]:not([data-loading])').waitFor();
};

/** An album folder of the generated library: its parent folder and its name. */
function albumFolder(): { parent: string; name: string } {
  const audio = home.library.files.find((f) => f.kind === 'audio')!;
  const dir = path.join(home.library.root, path.posix.dirname(audio.path));
  return { parent: path.dirname(dir), name: path.basename(dir) };
}

/** Waits for drawers and dialogs to finish sliding in (screenshots). */
const settled = (p: Page) => p.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));

/** Opens an action's drawer or modal and waits until it has slid in. */
async function open(id: string) {
  await action(id).click();
  await form(id).waitFor();
  await settled(page);
}

/** Shows the album's parent folder with the album ticked (each test can run alone). */
async function tickAlbum(): Promise<{ parent: string; name: string }> {
  const album = albumFolder();
  await goToFolder(album.parent);
  if ((await box(album.name).getAttribute('aria-checked')) !== 'true') await box(album.name).click();
  await page.getByTestId('batch-bar').waitFor();
  return album;
}

/**
 * Holds the batch routes in the browser: the body is recorded and answered with the envelope of a created
 * task, so these payload checks never change the library the later tests use. (The replace-text flow
 * below goes to the real server.)
 */
const caught: { route: string; body: Record<string, unknown> }[] = [];
async function holdBatchRoutes(routes: string[]) {
  for (const r of routes) {
    await page.route(`**/apimt/${r}/`, async (route: Route, request: Request) => {
      caught.push({ route: r, body: request.postDataJSON() as Record<string, unknown> });
      // A moment in flight, so the loading state can be seen.
      await new Promise((res) => setTimeout(res, 300));
      await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ result: true, code: 0, message: '', data: { task_id: `t-${caught.length}` } }) });
    });
  }
}
const last = () => caught[caught.length - 1];

/** The title as ffprobe reads it (an independent reader), from the container's or the audio stream's tags (Ogg keeps them there). */
async function probedTitle(file: string): Promise<string | undefined> {
  const { stdout } = await promisify(execFile)('ffprobe', ['-v', 'error', '-show_entries', 'format_tags:stream_tags', '-of', 'json', file]);
  const json = JSON.parse(stdout) as { format?: { tags?: Record<string, string> }; streams?: { tags?: Record<string, string> }[] };
  const tags = [json.format?.tags ?? {}, ...(json.streams ?? []).map((st) => st.tags ?? {})];
  for (const t of tags) for (const [k, v] of Object.entries(t)) if (k.toLowerCase() === 'title') return v;
  return undefined;
}

beforeAll(async () => {
  await buildDashboard();
  home = await makeHome(20);
  server = await startServer(home.home, PASSWORD);
  browser = await launchBrowser();
  context = await newContext(browser, { width: 1440, height: 900 });
  page = await context.newPage();
  page.on('pageerror', (e) => console.log('PAGEERROR', e.message));
  await page.goto(`${server.base}/login`);
  await page.fill('#ts-username', 'admin');
  await page.fill('#ts-password', PASSWORD);
  await page.press('#ts-password', 'Enter');
  await page.waitForURL(`${server.base}/`);
  await row('lib').waitFor();
}, 240_000);

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail' && page) await page.screenshot({ path: `/tmp/shots-batch-ui/failed-${ctx.task.name.slice(0, 40).replace(/[^\w]+/g, '-')}.png` }).catch(() => undefined);
  // A failed test may leave a drawer open: close it so the next test starts on the bar.
  if (ctx.task.result?.state === 'fail' && page) await page.locator('.bp6-overlay-open .ts-batch-footer button').first().click({ timeout: 2000 }).catch(() => undefined);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (home) await rm(home.home, { recursive: true, force: true });
});

describe('batch side bar', () => {
  it('with nothing ticked the badge shows 0, the bar opens on demand and an action says 请先勾选文件或文件夹！', async () => {
    await expect.poll(() => page.getByTestId('batch-count').textContent()).toBe('0');
    await expect(page.getByTestId('batch-bar').count()).resolves.toBe(0);
    await page.getByTestId('batch-toggle').click();
    await page.getByTestId('batch-bar').waitFor();
    await page.screenshot({ path: '/tmp/shots-batch-ui/nothing-ticked.png' });
    await action('manual').click();
    await notice('请先勾选文件或文件夹！').waitFor();
    // No drawer opened.
    expect(await form('manual').count()).toBe(0);
    await page.getByTestId('batch-toggle').click();
    await page.getByTestId('batch-bar').waitFor({ state: 'detached' });
  });

  it('V1: import collection, duplicate check and generate strm are disabled', async () => {
    const { parent, name } = albumFolder();
    await goToFolder(parent);
    await box(name).click();
    await page.getByTestId('batch-bar').waitFor();
    expect(await page.getByTestId('batch-count').textContent()).toBe('1');
    for (const id of ['import', 'duplicate', 'strm']) expect(await action(id).isDisabled()).toBe(true);
    for (const id of ['manual', 'auto', 'tidy', 'split', 'replace', 'convert', 'cue', 'removeNull', 'encoding', 'regain', 'sim2trad', 'trad2sim', 'settings']) expect(await action(id).isDisabled()).toBe(false);
  });

  it('the detail mode folds and is remembered across a reload (isOpenDetail)', async () => {
    const bar = page.getByTestId('batch-bar');
    expect(await bar.getAttribute('data-detail')).toBe('on');
    await screenshot(page, 'batch-bar-light-desktop');
    await page.screenshot({ path: '/tmp/shots-batch-ui/bar-light-desktop.png' });
    await page.getByTestId('batch-detail-toggle').click();
    expect(await bar.getAttribute('data-detail')).toBe('off');
    await page.reload();
    const { parent, name } = albumFolder();
    await row('lib').waitFor();
    await goToFolder(parent);
    await box(name).click();
    await expect.poll(() => page.getByTestId('batch-bar').getAttribute('data-detail')).toBe('off');
    expect(await page.evaluate(() => localStorage.getItem('isOpenDetail'))).toBe('false');
    await page.getByTestId('batch-detail-toggle').click();
    expect(await page.evaluate(() => localStorage.getItem('isOpenDetail'))).toBe('true');
  });

  it('every drawer and modal posts the spec’s payload to the spec’s route, with the loading state and the success notice', async () => {
    await holdBatchRoutes(['batch_update_id3', 'batch_auto_update_id3', 'tidy_folder', 'split_filename', 'format_music_type', 'remove_null_folder', 'fix_encoding', 'simplified_fields']);
    const { parent, name } = await tickAlbum();
    const sel = { file_full_path: parent, select_data: [{ icon: 'icon-folder', name, title: name }] };

    // 手动修改: only the filled fields, the flags, is_regainer false; the drawer closes on success (§4).
    await open('manual');
    await form('manual').locator('[data-tag="artist"]').fill('${first_artist}');
    await form('manual').locator('[data-tag="year"]').fill('1999');
    await form('manual').locator('label:has([data-flag="is_save_lyrics_file"])').click();
    await page.screenshot({ path: '/tmp/shots-batch-ui/manual-drawer.png' });
    await submit().click();
    // Loading: the action buttons are disabled while the request runs.
    await expect.poll(() => action('auto').isDisabled()).toBe(true);
    await notice('创建成功！').waitFor();
    expect(await notice('创建成功！').textContent()).toContain('任务在后台努力运行中');
    expect(last()).toEqual({
      route: 'batch_update_id3',
      body: {
        ...sel,
        music_info: { artist: '${first_artist}', year: '1999', is_save_lyrics_file: true, is_import_lyrics_file: false, is_translate_lyrics: false, is_save_album_cover: false, is_import_album_cover: false },
        is_regainer: false,
      },
    });
    await form('manual').waitFor({ state: 'detached' });
    await expect.poll(() => action('auto').isDisabled()).toBe(false);

    // 自动刮削: defaults of §9, a source added at the end of the order.
    await open('auto');
    await form('auto').locator('[data-source="kugou"] label').click();
    await form('auto').locator('label:has([data-option="is_folder_album"])').click();
    await submit().click();
    await form('auto').waitFor({ state: 'detached' });
    expect(last()).toEqual({
      route: 'batch_auto_update_id3',
      body: { ...sel, music_info: { select_mode: 'simple', source_list: ['qmusic', 'netease', 'kugou'], is_skip_tag: false, is_folder_album: true, scrape_rate: 1 }, modify_list: ['artist', 'album', 'album_img', 'year', 'lyrics'] },
    });

    // 整理文件夹: a custom level with value2, the clean-music rules appear only when switched on.
    await open('tidy');
    // No remembered root and a library outside /app/media: the folder shown is the default.
    expect(await form('tidy').locator('#ts-tidy-root').inputValue()).toBe(parent);
    await form('tidy').locator('#ts-tidy-root').fill(home.media);
    expect(await page.getByTestId('clean-rules').count()).toBe(0);
    await form('tidy').locator('label:has([data-option="is_clean_music"])').click();
    await page.getByTestId('clean-rules').waitFor();
    await form('tidy').getByRole('button', { name: '添加一级' }).click();
    await form('tidy').locator('select[aria-label="第 3 级"]').selectOption('custom');
    await form('tidy').locator('input[aria-label="自定义变量"]').fill('${year}');
    await settled(page);
    await page.screenshot({ path: '/tmp/shots-batch-ui/tidy-drawer.png' });
    await submit().click();
    await expect.poll(() => caught.length).toBe(3);
    expect(last()).toEqual({
      route: 'tidy_folder',
      body: {
        ...sel,
        root_path: home.media,
        dir_list: [{ value: 'artist' }, { value: 'album' }, { value: 'custom', value2: '${year}' }],
        rule_form: { is_clean_music: true, clean_format_priority: ['flac', 'mp3'], clean_size_rule: 'smaller', clean_bitrate_rule: 'none', clean_sample_rule: 'none', clean_name_rule: 'none', clean_delete_rule: 'delete' },
      },
    });
    // Tidy success remembers the root path (§4).
    await expect.poll(() => page.evaluate(() => localStorage.getItem('tidy_root_path'))).toBe(home.media);
    // Tidy's drawer stays open after success (only the edits and the duplicate check close, §4).
    await cancel('tidy');

    // 拆分文本
    await open('split');
    await form('split').getByRole('radio', { name: '标题' }).click();
    await submit().click();
    await expect.poll(() => caught.length).toBe(4);
    expect(last()).toEqual({ route: 'split_filename', body: { ...sel, rule_list: ['(?<artist>.+?) - (?<title>.+)'], extract_field: 'title' } });
    await cancel('split');

    // 格式转换: custom inputs only with custom (§4).
    await open('convert');
    expect(await form('convert').locator('[data-option="sample_rate_custom"]').count()).toBe(0);
    await form('convert').locator('select[data-option="sample_rate"]').selectOption('custom');
    await form('convert').locator('[data-option="sample_rate_custom"] input, input[data-option="sample_rate_custom"]').first().fill('96000');
    await form('convert').locator('select[data-option="music_type"]').selectOption('flac');
    await submit().click();
    await expect.poll(() => caught.length).toBe(5);
    expect(last()).toEqual({
      route: 'format_music_type',
      body: { ...sel, music_type: 'flac', bit_rate: 320, bit_rate_custom: null, sample_rate: 'custom', sample_rate_custom: 96000, is_keep_source: true },
    });
    await cancel('convert');

    // The modals: delete folder, encoding repair, replay gain, sim/trad (titled by mode).
    await open('removeNull');
    await form('removeNull').locator('label:has([data-mode="null_music"])').click();
    await submit().click();
    await form('removeNull').waitFor({ state: 'detached' });
    expect(last()).toEqual({ route: 'remove_null_folder', body: { ...sel, delete_mode: 'null_music' } });

    await open('encoding');
    await submit().click();
    await form('encoding').waitFor({ state: 'detached' });
    expect(last()).toEqual({ route: 'fix_encoding', body: { ...sel, replace_text_list: [], modify_list: ['title', 'artist', 'album', 'albumartist'] } });

    await open('regain');
    await submit().click();
    await form('regain').waitFor({ state: 'detached' });
    expect(last()).toEqual({ route: 'batch_update_id3', body: { ...sel, music_info: {}, is_regainer: true } });

    await open('trad2sim');
    expect(await page.locator('.bp6-dialog-header').last().textContent()).toContain('繁体转简体');
    await form('trad2sim').locator('label:has([data-field="lyrics"])').click();
    await submit().click();
    await form('trad2sim').waitFor({ state: 'detached' });
    expect(last()).toEqual({ route: 'simplified_fields', body: { mode: 'trad2sim', modify_list: ['title', 'artist', 'album', 'albumartist', 'lyrics'], ...sel } });

    // The success notice's button opens the operation log.
    await page.locator('.bp6-toast:has([data-notice-title="创建成功！"])').last().getByRole('button', { name: '查看操作记录' }).click();
    await page.waitForURL(`${server.base}/log`);
    await page.goBack();
    await page.unrouteAll({ behavior: 'wait' });
  }, 120_000);

  it('a failure shows 创建失败！ with the server’s message (split_cue on the real server)', async () => {
    const { parent, name } = await tickAlbum();
    await open('cue');
    await form('cue').locator('select[data-option="target_format"]').selectOption('mp3');
    const request = page.waitForRequest('**/apimt/split_cue/');
    await submit().click();
    expect((await request).postDataJSON()).toEqual({ file_full_path: parent, select_data: [{ icon: 'icon-folder', name, title: name }], is_delete_source: false, target_format: 'mp3' });
    await notice('创建失败！').waitFor();
    expect((await notice('创建失败！').textContent())!.length).toBeGreaterThan('创建失败！'.length);
    await page.screenshot({ path: '/tmp/shots-batch-ui/cue-failure.png' });
    await cancel('cue');
  });

  it('replace text end to end: a sample through preview_regex, the dry run’s before → after table with nothing touched, then applied to the files', async () => {
    const { parent, name } = await tickAlbum();
    const dir = path.join(parent, name);
    const tracks = home.library.files.filter((f) => f.kind === 'audio' && f.tags?.title && path.join(home.library.root, path.posix.dirname(f.path)) === dir);
    // A word of a title that no artist or album of the folder holds: only titles change.
    const others = tracks.flatMap((f) => [f.tags?.artist, f.tags?.album, f.tags?.albumartist]).join(' ');
    const word = tracks.flatMap((f) => f.tags!.title!.split(' ')).find((w) => w.length > 3 && !others.includes(w))!;
    const hits = tracks.filter((f) => f.tags!.title!.includes(word));
    expect(hits.length).toBeGreaterThan(0);
    const titleOf = (f: (typeof tracks)[number]) => probedTitle(path.join(home.library.root, f.path));

    await open('replace');
    const f = form('replace');
    await f.getByLabel('查找').first().fill(word);
    await f.getByLabel('替换为').first().fill('午夜');
    await f.getByLabel('示例文本').fill(`${word} Song`);
    await f.getByTestId('regex-preview').click();
    await expect.poll(() => f.getByTestId('regex-result').textContent()).toContain('午夜 Song');

    // Dry run: a task that touches nothing and lists what would change.
    await page.locator('.bp6-overlay-open [data-testid="batch-preview"]').click();
    const table = page.getByTestId('dry-run-table');
    await table.waitFor();
    await settled(page);
    await expect.poll(() => page.getByTestId('dry-run-progress').textContent(), { timeout: 30_000 }).toContain(`已检查 ${tracks.length} / ${tracks.length} 项`);
    expect(await table.locator('tbody tr').count()).toBe(hits.length);
    const afters = await table.locator('.ts-batch-after').allTextContents();
    expect(afters.sort()).toEqual(hits.map((h) => h.tags!.title!.replaceAll(word, '午夜')).sort());
    await page.screenshot({ path: '/tmp/shots-batch-ui/dry-run-light-desktop.png' });
    for (const h of hits) expect(await titleOf(h)).toBe(h.tags!.title);

    await page.getByTestId('dry-run-apply').click();
    await notice('创建成功！').waitFor();
    await page.getByTestId('dry-run').waitFor({ state: 'detached' });
    for (const h of hits) await expect.poll(() => titleOf(h), { timeout: 30_000 }).toBe(h.tags!.title!.replaceAll(word, '午夜'));
  }, 90_000);

  it('tidy with preview on the real server: the dry run lists each track’s move, nothing moves until 应用, then the files are where it said', async () => {
    // Another album than the one the other tests use: this one leaves its folder.
    const first = albumFolder();
    const byDir = new Map<string, string[]>();
    for (const f of home.library.files) {
      if (f.kind !== 'audio' || !f.tags?.artist || !f.tags?.album) continue;
      const dir = path.join(home.library.root, path.posix.dirname(f.path));
      if (dir !== path.join(first.parent, first.name)) byDir.set(dir, [...(byDir.get(dir) ?? []), path.join(home.library.root, f.path)]);
    }
    const [dir, tracks] = [...byDir].find(([, t]) => t.length >= 2)!;
    const root = path.join(home.media, 'tidied');
    await goToFolder(path.dirname(dir));
    await box(path.basename(dir)).click();
    await open('tidy');
    await form('tidy').locator('#ts-tidy-root').fill(root);
    await page.locator('.bp6-overlay-open [data-testid="batch-preview"]').click();
    const table = page.getByTestId('dry-run-table');
    await table.waitFor();
    await expect.poll(() => page.getByTestId('dry-run-progress').textContent(), { timeout: 30_000 }).toMatch(/已检查 (\d+) \/ \1 项/);
    await settled(page);
    await page.screenshot({ path: '/tmp/shots-batch-ui/tidy-dry-run.png' });
    const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.getAttribute('title') ?? td.textContent ?? '')));
    const moves = new Map(rows.filter((r) => r[1] === '移动').map((r) => [r[2], r[3]]));
    for (const t of tracks) {
      expect(moves.get(t), t).toBeDefined();
      expect(moves.get(t)!.startsWith(`${root}/`)).toBe(true);
      await access(t);
    }
    await page.getByTestId('dry-run-apply').click();
    await notice('创建成功！').waitFor();
    for (const t of tracks) {
      await expect.poll(() => access(moves.get(t)!).then(() => true, () => false), { timeout: 30_000 }).toBe(true);
      await expect(access(t)).rejects.toThrow();
    }
    // Applying closed the dialog and the drawer.
    await form('tidy').waitFor({ state: 'detached' });
  }, 90_000);

  it('format conversion and track split on the real server: 创建成功！ and the new files on disk', async () => {
    const dir = path.join(home.media, 'convert-cue');
    await mkdir(dir, { recursive: true });
    const run = promisify(execFile);
    await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=f=440:d=2', '-metadata', 'title=Tone', '-c:a', 'libmp3lame', path.join(dir, 'tone.mp3')]);
    await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=f=330:d=4:sample_rate=44100', '-ac', '2', '-c:a', 'flac', path.join(dir, 'CD.flac')]);
    await writeFile(path.join(dir, 'CD.cue'), 'TITLE "Alpha"\nFILE "CD.flac" WAVE\n  TRACK 01 AUDIO\n    TITLE "One"\n    INDEX 01 00:00:00\n  TRACK 02 AUDIO\n    TITLE "Two"\n    INDEX 01 00:02:00\n');
    const codec = async (file: string) => (await run('ffprobe', ['-v', 'error', '-select_streams', 'a:0', '-show_entries', 'stream=codec_name', '-of', 'csv=p=0', file])).stdout.trim();
    const exists = (file: string) => access(file).then(() => true, () => false);
    await goToFolder(home.media);
    await box('convert-cue').click();
    await page.getByTestId('batch-bar').waitFor();

    await open('cue');
    await form('cue').locator('select[data-option="target_format"]').selectOption('wav');
    await submit().click();
    await notice('创建成功！').waitFor();
    await cancel('cue');
    for (const name of ['01 - One.wav', '02 - Two.wav']) await expect.poll(() => exists(path.join(dir, name)), { timeout: 30_000 }).toBe(true);
    expect(await codec(path.join(dir, '02 - Two.wav'))).toBe('pcm_s16le');

    await open('convert');
    await form('convert').locator('select[data-option="music_type"]').selectOption('ogg');
    await submit().click();
    await notice('创建成功！').waitFor();
    await page.screenshot({ path: '/tmp/shots-convert/convert-created.png' });
    await cancel('convert');
    await expect.poll(() => exists(path.join(dir, 'tone.ogg')), { timeout: 30_000 }).toBe(true);
    await expect.poll(() => codec(path.join(dir, 'tone.ogg')), { timeout: 10_000 }).toBe('vorbis');
    expect(await probedTitle(path.join(dir, 'tone.ogg'))).toBe('Tone');
    expect(await exists(path.join(dir, 'tone.mp3'))).toBe(true); // is_keep_source is on by default
    await box('convert-cue').click();
  }, 120_000);

  it('manual edit and replay gain on the real server: 创建成功！ and the tags on disk (ffprobe)', async () => {
    const dir = path.join(home.media, 'manual-regain');
    await mkdir(dir, { recursive: true });
    const run = promisify(execFile);
    for (const [name, f] of [['01 One.flac', 440], ['02 Two.flac', 660]] as const) {
      await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', `sine=f=${f}:d=3`, '-metadata', `title=${name}`, '-metadata', 'album=RG', path.join(dir, name)]);
    }
    const tags = async (file: string) => {
      const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'format_tags', '-of', 'json', path.join(dir, file)]);
      return Object.fromEntries(Object.entries((JSON.parse(stdout) as { format?: { tags?: Record<string, string> } }).format?.tags ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
    };
    await goToFolder(home.media);
    await box('manual-regain').click();
    await page.getByTestId('batch-bar').waitFor();

    await open('manual');
    await form('manual').locator('[data-tag="title"]').fill('${file_song_name}');
    await form('manual').locator('[data-tag="year"]').fill('1999');
    await submit().click();
    await notice('创建成功！').waitFor();
    await form('manual').waitFor({ state: 'detached' });
    for (const [file, title] of [['01 One.flac', 'One'], ['02 Two.flac', 'Two']]) {
      await expect.poll(async () => [(await tags(file)).title, (await tags(file)).date], { timeout: 30_000 }).toEqual([title, '1999']);
    }

    await open('regain');
    await submit().click();
    await form('regain').waitFor({ state: 'detached' });
    await notice('创建成功！').waitFor();
    await page.screenshot({ path: '/tmp/shots-manual/regain-created.png' });
    for (const file of ['01 One.flac', '02 Two.flac']) {
      await expect.poll(async () => (await tags(file)).replaygain_album_gain ?? '', { timeout: 30_000 }).toMatch(/^[+-]\d+\.\d\d dB$/);
      expect((await tags(file)).replaygain_track_peak).toMatch(/^\d\.\d{6}$/);
    }
    await box('manual-regain').click();
  }, 120_000);

  it('批量设置 saves the scanning settings in the browser and says a reload applies them', async () => {
    await tickAlbum();
    await open('settings');
    await form('settings').locator('label:has([data-setting="isDepth"])').click();
    await page.locator('.bp6-overlay-open .ts-batch-footer').getByRole('button', { name: '保存' }).click();
    await notice('保存成功！').waitFor();
    expect(await notice('保存成功！').textContent()).toContain('设置已保存，请刷新页面生效');
    expect(await page.evaluate(() => localStorage.getItem('isDepth'))).toBe('true');
    await form('settings').waitFor({ state: 'detached' });
  });

  it('V2: import collection, duplicate check and generate strm open and post their payloads', async () => {
    const code = await issueLicense(home.home, true);
    await page.getByTestId('role-badge').click();
    await page.locator('#ts-activation-code').fill(code);
    const reloaded = page.waitForEvent('load', { timeout: 30_000 });
    await page.locator('.bp6-dialog button[type="submit"]').click();
    await reloaded;
    await expect.poll(() => page.getByTestId('role-badge').textContent(), { timeout: 20_000 }).toBe('V2');
    await row('lib').waitFor();
    const { parent, name } = await tickAlbum();
    const sel = { file_full_path: parent, select_data: [{ icon: 'icon-folder', name, title: name }] };
    await holdBatchRoutes(['import_music', 'check_file_duplicates', 'generate_strm']);
    for (const id of ['import', 'duplicate', 'strm']) expect(await action(id).isDisabled()).toBe(false);

    await open('import');
    await submit().click();
    await form('import').waitFor({ state: 'detached' });
    expect(last()).toEqual({ route: 'import_music', body: { ...sel, music_info: {}, is_skip_exist: true, import_rate: 10 } });

    await open('duplicate');
    await form('duplicate').locator('label:has([data-option="is_acoustid"])').click();
    await submit().click();
    // The duplicate check clears its show flag on success (§4).
    await form('duplicate').waitFor({ state: 'detached' });
    expect(last()).toEqual({ route: 'check_file_duplicates', body: { ...sel, is_acoustid: true } });

    await open('strm');
    await submit().click();
    await notice('请填写保存目录').waitFor();
    await form('strm').locator('#ts-strm-dir').fill('/strm');
    await submit().click();
    await form('strm').waitFor({ state: 'detached' });
    expect(last()).toEqual({ route: 'generate_strm', body: { ...sel, is_sign: false, save_dir: '/strm' } });
    await page.unrouteAll({ behavior: 'wait' });

    // And a duplicate check on the real server: the task is created and the notice links to the log.
    const created = page.waitForResponse('**/apimt/check_file_duplicates/');
    await open('duplicate');
    await submit().click();
    const answer = (await (await created).json()) as { result: boolean; data: { task_id: string } };
    expect(answer.result).toBe(true);
    expect(answer.data.task_id).toBeTruthy();
    await form('duplicate').waitFor({ state: 'detached' });

    // And generate strm on the real server: signed links, one .strm per track of the album under the folder
    // typed, each streaming its track to a client without a session (a media player).
    const strmDir = path.join(home.media, 'strm');
    const tracks = home.library.files.filter((f) => f.kind === 'audio' && path.join(home.library.root, path.posix.dirname(f.path)) === path.join(parent, name));
    await open('strm');
    await form('strm').locator('label:has([data-option="is_sign"])').click();
    await form('strm').locator('#ts-strm-dir').fill(strmDir);
    await submit().click();
    await notice('创建成功！').waitFor();
    await form('strm').waitFor({ state: 'detached' });
    const strmOf = (f: (typeof tracks)[number]) => {
      const rel = path.relative(home.media, path.join(home.library.root, f.path));
      return path.join(strmDir, `${rel.slice(0, rel.length - path.extname(rel).length)}.strm`);
    };
    await expect.poll(async () => (await Promise.all(tracks.map((f) => access(strmOf(f)).then(() => true, () => false)))).every(Boolean), { timeout: 30_000 }).toBe(true);
    const link = (await readFile(strmOf(tracks[0]!), 'utf8')).trim();
    expect(link.startsWith(`${server.base.replace(/\/$/, '')}/apimt/strm_stream/?path=`), link).toBe(true);
    const played = await fetch(link, { headers: { range: 'bytes=0-15' } });
    expect(played.status).toBe(206);
    const head = Buffer.from(await played.arrayBuffer());
    expect(head.equals((await readFile(path.join(home.library.root, tracks[0]!.path))).subarray(0, 16))).toBe(true);
  }, 90_000);

  it('English: the bar and a drawer speak English', async () => {
    await tickAlbum();
    await page.locator('button[aria-label="用户菜单"]').click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await expect.poll(() => page.getByTestId('batch-bar').textContent()).toContain('Batch actions');
    expect(await page.getByTestId('batch-bar').textContent()).not.toMatch(/[\u4e00-\u9fff]/);
    await open('tidy');
    expect(await form('tidy').textContent()).not.toMatch(/[\u4e00-\u9fff]/);
    await page.screenshot({ path: '/tmp/shots-batch-ui/tidy-en.png' });
    await page.locator('.bp6-overlay-open .ts-batch-footer').getByRole('button', { name: 'Cancel' }).click();
    await form('tidy').waitFor({ state: 'detached' });
    await page.locator('button[aria-label="User menu"]').click();
    await page.getByRole('menuitem', { name: '中文' }).click();
    await expect.poll(() => page.getByTestId('batch-bar').textContent()).toContain('批量操作');
  });

  it('dark theme and a narrow window: screenshots of the bar, a drawer and the phone drawer', async () => {
    await page.evaluate(() => localStorage.setItem('theme', 'dark'));
    await page.reload();
    await row('lib').waitFor();
    await tickAlbum();
    await page.screenshot({ path: '/tmp/shots-batch-ui/bar-dark-desktop.png' });
    await screenshot(page, 'batch-bar-dark-desktop');
    await open('auto');
    await form('auto').waitFor();
    await settled(page);
    await page.screenshot({ path: '/tmp/shots-batch-ui/auto-dark-desktop.png' });
    await cancel('auto');

    const phone = await newContext(browser, { width: 390, height: 844 });
    await phone.addCookies(await context.cookies());
    const p = await phone.newPage();
    await p.goto(`${server.base}/`);
    await p.evaluate(() => localStorage.setItem('theme', 'light'));
    const { parent, name } = albumFolder();
    // The screen's own first listing goes first: a path typed before it answered was replaced by it.
    await p.locator('[data-testid="file-tree"][data-row-count]:not([data-loading])').waitFor();
    const input = p.locator('.ts-tree-toolbar form input');
    await input.fill(parent);
    await input.press('Enter');
    await expect.poll(() => input.inputValue()).toBe(parent);
    await p.locator(`[data-testid="file-tree"] li[data-name="${name}"] [role="checkbox"]`).click();
    await p.getByTestId('batch-toggle').waitFor();
    await p.screenshot({ path: '/tmp/shots-batch-ui/ticked-light-narrow.png' });
    await p.getByTestId('batch-toggle').click();
    await p.getByTestId('batch-bar').waitFor();
    await settled(p);
    await p.screenshot({ path: '/tmp/shots-batch-ui/bar-light-narrow.png' });
    await p.locator('[data-batch-action="replace"]').click();
    await p.locator('.ts-batch-form[data-action="replace"]').waitFor();
    await settled(p);
    await p.screenshot({ path: '/tmp/shots-batch-ui/replace-light-narrow.png' });
    expect(await p.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await phone.close();
  }, 60_000);
});
