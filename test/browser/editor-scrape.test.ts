/**
 * Scraping in the single-track editor, in chromium against the real server: the built-in iTunes source is
 * pointed by TAGSONIC_SOURCE_URL_ITUNES at a local fake of the Search API (test/support/source-fake.ts), the
 * 刮削配置 select lists the server's sources, a lookup shows the scored candidates with the spec's colours,
 * a cell and then the whole row (cover included) are copied into the editor, and the save is checked in the
 * file with ffprobe. The built-in LRCLIB source, pointed at its own fake, supplies a lyric whose credit
 * lines fill composer and lyricist. The covers are on the iTunes fake too, as a local mirror's would be (nothing
 * in tests reaches the internet, nothing is intercepted in the browser): the browser shows them straight from
 * there, and the save has the server download the candidate's cover URL (allowed on loopback because it is the
 * administrator's source base URL) and embed it byte for byte. Screenshots: light and dark, desktop and phone.
 */
import { mkdir, readFile, rm } from 'node:fs/promises';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { openRuntime } from '@tagsonic/cli';
import { loadConfig } from '@tagsonic/core/config';
import { readArtwork } from '@tagsonic/core/tags';
import { sourceFake } from '../support/source-fake.ts';
import { buildDashboard, coverOf, ffprobe, launchBrowser, makeHome, makePicture, newContext, startServer, type Home, type Server } from './harness.ts';

const PASSWORD = 'browser-scrape-password';
const SHOTS = '/tmp/shots-ui-editor';
/** The candidate's thumbnail in iTunes' path shape, on the fake (the source asks for 3000x3000bb instead). */
const ART_PATH = '/image/thumb/Music115/v4/7a/0b/b6/7a0bb6b0/source/100x100bb.jpg';
const art = (size = '100x100bb') => `${fake.baseUrl()}${ART_PATH.replace('100x100bb', size)}`;
/** A picture server on loopback that no administrator configured: the browser shows its covers, the server refuses them. */
let elsewhere: HttpServer;
let elsewhereServerHits = 0;
const refusedArt = () => `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/image/100x100bb.jpg`;
const ALBUM = 'Greatest Hits of the Fake Store';

let home: Home;
let server: Server;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let coverJpeg: Buffer;
/** An OpenAI-compatible chat endpoint that "translates" each line it is sent as 译(line). */
let llm: HttpServer;
/** The song the editor opens: an MP3 with a title and an artist. */
let song: { full: string; name: string; dir: string; title: string; artist: string };

/**
 * iTunes Search API answers (entity=song, shaped as Apple documents them) for the opened song: the first
 * candidate has its exact title (score 2), an artist that contains its artist (1) and another album (0).
 */
function results() {
  const base = {
    wrapperType: 'track', kind: 'song', artistId: 1, collectionId: 2, artworkUrl100: art(), releaseDate: '2011-04-05T07:00:00Z',
    discCount: 2, discNumber: 1, trackCount: 12, trackNumber: 7, trackTimeMillis: 201_000, country: 'USA', primaryGenreName: 'Pop',
  };
  return {
    resultCount: 3,
    results: [
      { ...base, trackId: 101, trackName: song.title, artistName: `${song.artist} & The Testers`, collectionName: ALBUM },
      { ...base, trackId: 102, trackName: `${song.title} (Live)`, artistName: 'Somebody Else', collectionName: 'Live', trackNumber: 3, artworkUrl100: undefined },
      // A cover on a loopback address nobody configured: the server refuses to download it.
      { ...base, trackId: 103, trackName: `${song.title} (Demo)`, artistName: 'Somebody Else', collectionName: 'Demos', artworkUrl100: refusedArt() },
    ],
  };
}

/** By the term's first word: an outage (503), nothing found, or the two candidates. */
function searchAnswer(term: string): [number, string, unknown] {
  if (term.startsWith('outage')) return [503, 'application/json', { errorMessage: 'Service Unavailable' }];
  if (term.startsWith('nothing')) return [200, 'application/json', { resultCount: 0, results: [] }];
  return [200, 'application/json', results()];
}

const fake = sourceFake('itunes', (p, query) => {
  if (p === '/search') return searchAnswer(query.get('term') ?? '');
  if (p === ART_PATH.replace('100x100bb', '3000x3000bb')) return [200, 'image/jpeg', coverJpeg];
  return [404, 'text/html', '<html>Not Found</html>'];
});
/** The cover requests the server made (the browser's carry a browser's user agent). */
const serverCoverRequests = () => fake.seen.filter((r) => r.path.startsWith('/image/') && String(r.headers['user-agent']).startsWith('Tagsonic'));

/** LRCLIB records (as its documentation shows them) for the opened song: a synced lyric with credit lines. */
const LYRIC = '[00:00.00] 作词 : 林夕\n[00:01.00] 作曲 : 陈小霞\n[00:17.12] I feel your breath upon my neck\n[00:20.41] A soft caress as cold as death\n';
const lrcRecord = () => ({ id: 3396226, trackName: song.title, artistName: song.artist, albumName: 'Lyrics Album', duration: 233, instrumental: false, plainLyrics: 'I feel your breath upon my neck\n', syncedLyrics: LYRIC });
const lrclib = sourceFake('lrclib', (p) => {
  if (p === '/api/search') return [200, 'application/json', [lrcRecord()]];
  if (p === '/api/get/3396226') return [200, 'application/json', lrcRecord()];
  return [404, 'application/json', { code: 404, name: 'TrackNotFound', message: 'Failed to find specified track' }];
});

const notice = (title: string) => page.locator(`.bp6-toast [data-notice-title="${title}"]`);
const shot = async (name: string) => {
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
};

async function signIn(p: Page) {
  await p.goto(`${server.base}/`);
  await p.waitForURL(/\/login$/);
  await p.fill('#ts-username', 'admin');
  await p.fill('#ts-password', PASSWORD);
  await p.press('#ts-password', 'Enter');
  await p.waitForURL(`${server.base}/`);
}

async function openSong(p: Page) {
  // The first listing must be in before the path is typed, or it replaces the folder asked for.
  await p.locator('[data-testid="file-tree"]:not([data-loading]) li[data-name]').first().waitFor();
  const box = p.locator('.ts-tree-toolbar input[aria-label="路径"]');
  await box.fill(song.dir);
  await box.press('Enter');
  await expect.poll(() => box.inputValue()).toBe(song.dir);
  await p.locator('[data-testid="file-tree"]:not([data-loading])').waitFor();
  await p.locator(`[data-testid="file-tree"] li[data-name="${song.name}"] .ts-tree-button`).click();
  await expect.poll(() => p.locator('#ts-field-title').inputValue()).toBe(song.title);
}

beforeAll(async () => {
  await buildDashboard();
  home = await makeHome(1);
  const file = home.library.files.find((f) => f.kind === 'audio' && f.format === 'mp3' && f.tags?.title && f.tags?.artist && !f.nonStandard?.comment);
  if (!file) throw new Error('the generated library has no MP3 with a title and an artist');
  const full = path.join(home.library.root, ...file.path.split('/'));
  song = { full, name: path.basename(full), dir: path.dirname(full), title: file.tags!.title!, artist: file.tags!.artist! };
  const picture = path.join(home.home, 'itunes-cover.jpg');
  await makePicture(picture, 600, 600, 'teal');
  coverJpeg = await readFile(picture);
  llm = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw) as { messages: Array<{ content: string }> };
      const lines = JSON.parse(body.messages.at(-1)!.content) as string[];
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: JSON.stringify(lines.map((l) => `译(${l})`)) } }] }));
    });
  });
  await new Promise<void>((resolve) => llm.listen(0, '127.0.0.1', resolve));
  elsewhere = createServer((req, res) => {
    if (String(req.headers['user-agent']).startsWith('Tagsonic')) elsewhereServerHits++;
    res.writeHead(200, { 'content-type': 'image/jpeg' }).end(coverJpeg);
  });
  await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
  // The LLM settings live in the store; written before the server opens it (one process at a time).
  const rt = await openRuntime(loadConfig({ TAGSONIC_HOME: home.home }));
  await rt.store.collection('settings').updateOne(
    { _id: 'system' },
    { $set: { llm_base_url: `http://127.0.0.1:${(llm.address() as AddressInfo).port}/v1`, llm_api_key: 'sk-local', llm_model_name: 'qwen2.5' } },
    { upsert: true },
  );
  await rt.close();
  // The server (and the workers it starts) read the source's base URL from the environment.
  process.env.TAGSONIC_SOURCE_URL_ITUNES = fake.baseUrl();
  process.env.TAGSONIC_SOURCE_URL_LRCLIB = lrclib.baseUrl();
  server = await startServer(home.home, PASSWORD);
  browser = await launchBrowser();
  context = await newContext(browser);
  page = await context.newPage();
}, 240_000);

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail' && page) await shot(`failed-${ctx.task.name.slice(0, 40).replace(/[^\w]+/g, '-')}`).catch(() => undefined);
});

afterAll(async () => {
  delete process.env.TAGSONIC_SOURCE_URL_ITUNES;
  delete process.env.TAGSONIC_SOURCE_URL_LRCLIB;
  await browser?.close();
  await server?.stop();
  await new Promise((resolve) => llm?.close(resolve));
  elsewhere?.closeAllConnections();
  await new Promise((resolve) => elsewhere?.close(resolve));
  if (home) await rm(home.home, { recursive: true, force: true });
});

describe('editor: online lookup', { timeout: 120_000 }, () => {
  it('刮削配置 lists the installed sources from the server and remembers the choice', async () => {
    await signIn(page);
    await openSong(page);
    await page.getByRole('button', { name: '刮削配置' }).click();
    const select = page.locator('#ts-resource');
    // lrclib is installed but not in the built-in fallback list: the options are the server's.
    await expect.poll(() => select.locator('option[value="lrclib"]').count()).toBe(1);
    await select.selectOption('itunes');
    await shot('settings-sources');
    await page.getByRole('button', { name: '确定' }).click();
    expect(await page.evaluate(() => localStorage.getItem('resource'))).toBe('itunes');
  });

  it('looks the title up, colours the scores, copies a cell and the row with its cover, and saves them into the file', async () => {
    await page.getByTestId('lookup-button').click();
    const table = page.getByTestId('scrape-table');
    await table.waitFor();
    // The request the source made: the editor's title and artist.
    expect(fake.seen.findLast((r) => r.path === '/search')!.query.get('term')).toBe(`${song.title} ${song.artist}`);

    const first = table.locator('tbody tr').first();
    const title = first.locator('[data-cell="title"]');
    const artist = first.locator('[data-cell="artist"]');
    const album = first.locator('[data-cell="album"]');
    expect(await title.getAttribute('class')).toContain('ts-score-exact');
    expect(await artist.getAttribute('class')).toContain('ts-score-partial');
    expect(await album.getAttribute('class')).toContain('ts-score-miss');
    const bg = (l: typeof title) => l.evaluate((e) => getComputedStyle(e).backgroundColor);
    const colours = [await bg(title), await bg(artist), await bg(album)];
    expect(new Set(colours).size).toBe(3);
    expect(colours).not.toContain('rgba(0, 0, 0, 0)');
    // The thumbnail is the full-resolution cover the source found.
    expect(await first.locator('.ts-scrape-thumb img').getAttribute('src')).toBe(art('3000x3000bb'));
    await expect.poll(() => first.locator('.ts-scrape-thumb img').evaluate((i) => (i as HTMLImageElement).naturalWidth)).toBe(600);
    await shot('results-light-desktop');

    // The thumbnail opens the full-size cover.
    await first.locator('.ts-scrape-thumb').click();
    const preview = page.getByTestId('scrape-cover-preview');
    await expect.poll(() => preview.evaluate((i) => (i as HTMLImageElement).naturalWidth)).toBe(600);
    await page.locator('.ts-scrape-preview .bp6-dialog-close-button').click();
    await expect.poll(() => preview.count()).toBe(0);

    await album.click();
    await expect.poll(() => page.locator('#ts-field-album').inputValue()).toBe(ALBUM);

    await first.getByTestId('copy-row').click();
    // The new cover is the source's URL, shown straight from it; nothing is uploaded or downloaded yet.
    const coverPreview = page.locator('[data-testid="cover-preview"] img');
    await expect.poll(() => coverPreview.getAttribute('src')).toBe(art('3000x3000bb'));
    await expect.poll(() => coverPreview.evaluate((i) => (i as HTMLImageElement).naturalWidth)).toBe(600);
    expect(serverCoverRequests()).toHaveLength(0);
    expect(await page.locator('#ts-field-artist').inputValue()).toBe(`${song.artist} & The Testers`);
    expect(await page.locator('#ts-field-year').inputValue()).toBe('2011');
    expect(await page.locator('#ts-field-tracknumber').inputValue()).toBe('7');
    expect(await page.locator('#ts-field-totaltracks').inputValue()).toBe('12');
    expect(await page.locator('#ts-field-discnumber').inputValue()).toBe('1');
    await shot('row-copied');

    await page.getByTestId('save-button').click();
    await notice('修改成功！').waitFor();
    const probe = await ffprobe(song.full);
    expect(probe.tags.title).toBe(song.title);
    expect(probe.tags.artist).toBe(`${song.artist} & The Testers`);
    expect(probe.tags.album).toBe(ALBUM);
    expect(probe.tags.date ?? probe.tags.year).toMatch(/^2011/);
    expect(coverOf(probe)).toMatchObject({ width: 600, height: 600 });
    // The server downloaded the candidate's cover from the source, once, and embedded its exact bytes.
    expect(serverCoverRequests()).toHaveLength(1);
    const embedded = await readArtwork(song.full);
    expect(embedded?.mime).toBe('image/jpeg');
    expect(Buffer.from(embedded!.data).equals(coverJpeg)).toBe(true);
  });

  it("says why the server would not download a candidate's cover, and writes nothing", async () => {
    const before = await ffprobe(song.full);
    const demo = page.getByTestId('scrape-table').locator('tbody tr').nth(2);
    await demo.getByTestId('copy-cover').click();
    // The browser shows it (its own request), but the server will not fetch from an address nobody configured.
    await expect.poll(() => page.locator('[data-testid="cover-preview"] img').evaluate((i) => (i as HTMLImageElement).naturalWidth)).toBe(600);
    await page.getByTestId('save-button').click();
    const failed = notice('修改失败！');
    await failed.waitFor();
    expect(await failed.textContent()).toContain('封面地址指向本机或内网，已拒绝');
    await shot('cover-refused');
    expect(coverOf(await ffprobe(song.full))).toEqual(coverOf(before));
    expect(elsewhereServerHits).toBe(0);
    await page.getByRole('button', { name: '重置' }).click();
  });

  it('refuses an empty title before asking, says 暂无信息 when nothing is found, and shows a source failure', async () => {
    const searches = () => fake.seen.filter((r) => r.path === '/search').length;
    const asked = searches();
    const titleBox = page.locator('#ts-field-title');
    // 重置 at the end of the case before reloads the file's tags: typing before that load lands is overwritten by it
    // (which, on a loaded CI run, made the lookup below search the file's title instead of refusing an empty one).
    await expect.poll(() => page.getByRole('button', { name: '重置' }).isDisabled()).toBe(true);
    await expect.poll(() => titleBox.inputValue()).toBe(song.title);
    await titleBox.fill('   ');
    await page.getByTestId('lookup-button').click();
    await notice('标题不能为空！').waitFor();
    expect(searches()).toBe(asked);
    // The notice sits over the editor's head for its 2 s.
    await notice('标题不能为空！').waitFor({ state: 'detached' });

    await titleBox.fill('nothing like it');
    await page.getByTestId('lookup-button').click();
    await expect.poll(() => page.getByTestId('scrape-results').getAttribute('data-status')).toBe('done');
    await page.getByTestId('scrape-results').getByText('暂无信息').waitFor();

    await titleBox.fill('outage song');
    await page.getByTestId('lookup-button').click();
    const error = page.getByTestId('scrape-error');
    await error.waitFor();
    // The source's failure names the HTTP status (TAGSONIC_ERR_PLUGIN_HTTP_*), in the interface language.
    expect(await error.textContent()).toMatch(/503/);
    await shot('results-error');
    await titleBox.fill(song.title);
  });

  it('the lyrics button says 未找到歌词！ for a source without lyrics; the translation panel translates and copies', async () => {
    await page.getByTestId('lookup-button').click();
    await page.getByTestId('scrape-table').waitFor();
    await page.getByTestId('scrape-table').locator('tbody tr').first().getByTestId('show-lyric').click();
    await notice('未找到歌词！').waitFor();
    expect(await page.getByTestId('scrape-lyric').count()).toBe(0);

    await page.locator('#ts-field-lyrics').fill('[00:01.00]Hello\n[00:03.00]World');
    await page.getByRole('button', { name: '歌词翻译' }).click();
    // The translation panel replaces the results in the resource area (one at a time, §2).
    await page.getByTestId('lyric-translation').waitFor();
    expect(await page.getByTestId('scrape-results').count()).toBe(0);
    await page.getByTestId('translate-button').click();
    const translated = page.locator('#ts-translation-text');
    await expect.poll(() => translated.inputValue()).toBe('[00:01.00]译(Hello)\n[00:03.00]译(World)');
    await shot('translation');
    await page.getByTestId('lyric-translation').getByRole('button', { name: '复制到歌词' }).click();
    await expect.poll(() => page.locator('#ts-field-lyrics').inputValue()).toBe('[00:01.00]译(Hello)\n[00:03.00]译(World)');
    await page.getByRole('button', { name: '重置' }).click();
  });

  it('shows a source lyric, and copying it fills the lyrics, composer and lyricist (extract_lyric)', async () => {
    await page.getByRole('button', { name: '刮削配置' }).click();
    await page.locator('#ts-resource').selectOption('lrclib');
    await page.getByRole('button', { name: '确定' }).click();
    await page.getByTestId('lookup-button').click();
    await page.getByTestId('scrape-table').waitFor();
    await page.getByTestId('scrape-table').locator('tbody tr').first().getByTestId('show-lyric').click();
    const shown = page.getByTestId('scrape-lyric');
    await shown.waitFor();
    expect(await shown.textContent()).toContain('I feel your breath upon my neck');
    await page.locator('.bp6-overlay-enter-done .ts-scrape-lyric, .bp6-overlay-open .ts-scrape-lyric').waitFor();
    await shot('lyric-dialog');
    await page.getByTestId('copy-lyric').click();
    await expect.poll(() => page.locator('#ts-field-lyricist').inputValue()).toBe('林夕');
    expect(await page.locator('#ts-field-composer').inputValue()).toBe('陈小霞');
    expect(await page.locator('#ts-field-lyrics').inputValue()).toContain('[00:17.12]');
    await page.getByRole('button', { name: '重置' }).click();
    await page.getByRole('button', { name: '刮削配置' }).click();
    await page.locator('#ts-resource').selectOption('itunes');
    await page.getByRole('button', { name: '确定' }).click();
  });

  it('reads in the dark theme and on a phone', async () => {
    await page.evaluate(() => localStorage.setItem('theme', 'dark'));
    await page.reload();
    await openSong(page);
    await page.getByTestId('lookup-button').click();
    await page.getByTestId('scrape-table').waitFor();
    await expect.poll(() => page.locator('.ts-scrape-thumb img').first().evaluate((i) => (i as HTMLImageElement).naturalWidth)).toBe(600);
    await shot('results-dark-desktop');

    const phone = await newContext(browser, { width: 390, height: 844 });
    const p = await phone.newPage();
    await p.goto(`${server.base}/login`);
    await p.evaluate(() => localStorage.setItem('resource', 'itunes'));
    await signIn(p);
    await openSong(p);
    await p.getByTestId('lookup-button').click();
    await p.getByTestId('scrape-table').waitFor();
    await p.screenshot({ path: path.join(SHOTS, 'results-light-phone.png') });
    await phone.close();
  });
});
