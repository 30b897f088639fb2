/**
 * The built-in Migu Music tag source end to end: plugins/migu bundled by the runtime's builtin loader, loaded through
 * loadPlugin (the real manifest check, sandbox and guarded http), pointed by TAGSONIC_SOURCE_URL_MIGU at a local
 * server that replays answers shaped as Migu's signed v3 searchAll, resourceinfo.do and LRC files return them (as
 * public clients such as lx-music record them), and that records every request, so the request shape — path,
 * query, the app headers and the MD5 signature (recomputed here with node:crypto) — is asserted with the mapping
 * (largest cover, grouped versions listed once, LRC normalised) and the errors.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { builtinPlugin } from '../workers/src/plugin-runtime/builtin.ts';
import { failure, sourceFake, type FakeAnswer } from './support/source-fake.ts';

/** One song as searchAll lists it (trimmed of the audio formats and tags a tagger does not use). */
const QING_TIAN = {
  resourceType: '2', contentId: '600907000009041441', copyrightId: '60054704037', songId: '1004392543', name: '晴天',
  singerList: [{ id: '112', name: '周杰伦', img: 'https://d.musicapp.migu.cn/data/oss/resource/00/1l/ra/7a9e.webp' }],
  albumId: '1003767159', album: '叶惠美', duration: 269,
  img1: 'https://d.musicapp.migu.cn/data/oss/resource/00/2q/fb/s/a1b2c3.webp',
  img2: 'https://d.musicapp.migu.cn/data/oss/resource/00/2q/fb/m/a1b2c3.webp',
  img3: 'https://d.musicapp.migu.cn/data/oss/resource/00/2q/fb/a1b2c3.webp',
  lrcUrl: 'https://d.musicapp.migu.cn/data/oss/resource/00/2k/lrc/60054704037.lrc', trcUrl: '',
};
/** The same recording uploaded again under another copyright id, grouped with it; and the same id listed twice. */
const QING_TIAN_REUPLOAD = { ...QING_TIAN, copyrightId: '6005661F31N', songId: '1106588664', album: '晴天 (单曲)', duration: 270, img3: '', img2: '/data/oss/resource/00/3a/single/m.jpg' };
const LIVE = {
  ...QING_TIAN, copyrightId: '63273400372', songId: '1135023842', name: '晴天 (Live)', album: '地表最强世界巡回演唱会', duration: 301,
  singerList: [{ id: '112', name: '周杰伦' }, { id: '116', name: '陈奕迅' }],
};
const SPARSE = { copyrightId: '69999999999', name: 'Demo', singerList: [], album: '' };

const searchAnswer = (resultList: unknown[][]) => ({ code: '000000', info: '成功', songResultData: { totalCount: String(resultList.flat().length), resultList, correct: [] } });

function search(text: string): FakeAnswer {
  switch (text.split(' ')[0]) {
    case 'outage': return [503, 'text/html', '<html><body>503 Service Temporarily Unavailable</body></html>'];
    case 'unsigned': return [200, 'application/json', { code: '100001', info: '签名校验失败' }];
    case 'renamed': return [200, 'application/json', searchAnswer([[QING_TIAN], [{ ...LIVE, copyrightId: undefined, copyright_id: '63273400372' }]])];
    case 'nameless': return [200, 'application/json', searchAnswer([[{ ...QING_TIAN, name: undefined }]])];
    case 'songname': return [200, 'application/json', searchAnswer([[{ ...LIVE, name: undefined, songName: '晴天 (Live)' }]])];
    case 'flat': return [200, 'application/json', searchAnswer([QING_TIAN] as never)];
    case 'typed': return [200, 'application/json', searchAnswer([[{ ...QING_TIAN, duration: '269' }]])];
    case 'garbled': return [200, 'text/html', '<!DOCTYPE html><html>'];
    case 'sparse': return [200, 'application/json', searchAnswer([[SPARSE]])];
    case 'nothing': return [200, 'application/json', { code: '000000', info: '成功' }];
    default: return [200, 'application/json', searchAnswer([[QING_TIAN, QING_TIAN_REUPLOAD, QING_TIAN], [LIVE]])];
  }
}

const LRC = '[ti:晴天]\r\n[ar:周杰伦]\r\n[00:00.00]晴天 - 周杰伦\r\n[00:29.580]故事的小黄花\r\n[0:36.27][01:47.5]从出生那年就飘着\r\n';

function resource(copyrightId: string): FakeAnswer {
  const resourceOf = (extra: Record<string, unknown>) => ({ code: '000000', info: '成功', resource: [{ resourceType: '2', copyrightId, songName: '晴天', ...extra }] });
  switch (copyrightId) {
    case '60054704037': return [200, 'application/json', resourceOf({ lrcUrl: QING_TIAN.lrcUrl })];
    case '63273400372': return [200, 'application/json', resourceOf({ lrcUrl: 'http://d.musicapp.migu.cn/prod/file-service/file-down/b1/live.lrc?k=1' })];
    case '60000nolrc0': return [200, 'application/json', resourceOf({ lrcUrl: '' })];
    case '60000gone00': return [200, 'application/json', resourceOf({ lrcUrl: '/data/oss/resource/00/gone.lrc' })];
    case '60000nosong': return [200, 'application/json', { code: '000000', info: '成功', resource: [] }];
    case '60000moved0': return [200, 'application/json', resourceOf({ lrcUrl: 42 })];
    case '60000slow00': return new Promise(() => {}) as never;
    default: return [200, 'application/json', { code: '200004', info: '资源不存在' }];
  }
}

const fake = sourceFake('migu', (path, query) => {
  if (path === '/music_search/v3/search/searchAll') return search(query.get('text') ?? '');
  if (path === '/MIGUM2.0/v1.0/content/resourceinfo.do') return resource(query.get('copyrightId') ?? '');
  if (path === '/data/oss/resource/00/2k/lrc/60054704037.lrc') return [200, 'text/plain; charset=utf-8', LRC];
  if (path === '/prod/file-service/file-down/b1/live.lrc') return [200, 'application/octet-stream', '[00:01.00]Live'];
  return [404, 'text/html', '<html>Not Found</html>'];
});
const { seen } = fake;
const load = () => fake.load();
const options = (title: string, extra: Record<string, unknown> = {}) => ({ title, artist: '', album: '', limit: 10, ...extra });

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

describe('migu: the built-in plugin', () => {
  it('bundles plugins/migu with its three Migu hosts, and has no artist export', async () => {
    const { manifest, code } = await builtinPlugin('migu');
    expect(manifest).toMatchObject({
      id: 'migu', kind: 'tag-source',
      permissions: { http: { hosts: [{ host: 'jadeite.migu.cn' }, { host: 'c.musicapp.migu.cn' }, { host: 'd.musicapp.migu.cn' }] } },
    });
    expect(code).not.toMatch(/require\(["']@tagsonic\/sdk["']\)/);
    const plugin = await load();
    expect(plugin.baseUrl).toBe(fake.baseUrl());
    await expect(plugin.invoke('artist', { keyword: '周杰伦' })).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_NO_EXPORT' });
  });
});

describe('migu: search', () => {
  it('signs the v3 searchAll like the app (md5 of text, certificate, app id, device id, timestamp) and maps songs with the largest cover', async () => {
    const plugin = await load();
    const before = Date.now();
    const result = await plugin.invoke('search', options(' 晴天 ', { artist: '周杰伦', album: '叶惠美', limit: 15 }));
    const request = seen.at(-1)!;
    expect(request.path).toBe('/music_search/v3/search/searchAll');
    expect(Object.fromEntries(request.query)).toEqual({
      isCorrect: '0', isCopyright: '1', pageSize: '15', text: '晴天 周杰伦', pageNo: '1', sort: '0', sid: 'USS',
      searchSwitch: '{"song":1,"album":0,"singer":0,"tagSong":1,"mvSong":0,"bestShow":1,"songlist":0,"lyricSong":0}',
    });
    const { timestamp, deviceid, sign, uiversion, channel } = request.headers as Record<string, string>;
    expect(Number(timestamp)).toBeGreaterThanOrEqual(before);
    expect(Number(timestamp)).toBeLessThanOrEqual(Date.now());
    expect(deviceid).toMatch(/^[0-9A-F]{32}$/);
    expect(sign).toBe(md5(`晴天 周杰伦6cdc72a439cef99a3418d2a78aa28c73yyapp2d16148780a1dcc7408e06336b98cfd50${deviceid}${timestamp}`));
    expect({ uiversion, channel }).toEqual({ uiversion: 'A_music_3.6.1', channel: '0146921' });
    expect(request.headers['user-agent']).toMatch(/Android/);
    expect(result).toEqual([
      { id: '60054704037', name: '晴天', artist: '周杰伦', album: '叶惠美', album_img: QING_TIAN.img3, year: null,
        tracknumber: null, totaltracks: null, discnumber: null, totaldiscs: null, duration: 269, resource: 'migu' },
      { id: '6005661F31N', name: '晴天', artist: '周杰伦', album: '晴天 (单曲)', album_img: 'https://d.musicapp.migu.cn/data/oss/resource/00/3a/single/m.jpg', year: null,
        tracknumber: null, totaltracks: null, discnumber: null, totaldiscs: null, duration: 270, resource: 'migu' },
      { id: '63273400372', name: '晴天 (Live)', artist: '周杰伦/陈奕迅', album: '地表最强世界巡回演唱会', album_img: QING_TIAN.img3, year: null,
        tracknumber: null, totaltracks: null, discnumber: null, totaldiscs: null, duration: 301, resource: 'migu' },
    ]);
  });

  it('caps the page at 50, puts the closest duration first, and answers [] when Migu has nothing or no title is given', async () => {
    const plugin = await load();
    const result = (await plugin.invoke('search', options('晴天', { duration: 300, limit: 500 }))) as { id: string }[];
    expect(seen.at(-1)!.query.get('pageSize')).toBe('50');
    expect(result.map((s) => s.id)).toEqual(['63273400372', '6005661F31N', '60054704037']);
    await expect(plugin.invoke('search', options('nothing'))).resolves.toEqual([]);
    const before = seen.length;
    await expect(plugin.invoke('search', options(' ', { artist: '周杰伦' }))).resolves.toEqual([]);
    expect(seen.length).toBe(before);
  });

  it('gives null for what Migu does not list (no singers, album, cover or duration), and takes songName for name', async () => {
    const plugin = await load();
    await expect(plugin.invoke('search', options('songname'))).resolves.toMatchObject([{ id: '63273400372', name: '晴天 (Live)' }]);
    await expect(plugin.invoke('search', options('sparse'))).resolves.toEqual([
      { id: '69999999999', name: 'Demo', artist: null, album: null, album_img: null, year: null,
        tracknumber: null, totaltracks: null, discnumber: null, totaldiscs: null, duration: null, resource: 'migu' },
    ]);
  });

  it('reports an HTTP error by its status and a refusal by Migu\'s code and message', async () => {
    const plugin = await load();
    let error = await failure(plugin.invoke('search', options('outage')));
    expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message: 'Migu answered HTTP 503 to /music_search/v3/search/searchAll.', details: { status: 503 } });
    error = await failure(plugin.invoke('search', options('unsigned')));
    expect(error).toMatchObject({ message: 'Migu answered code 100001 (签名校验失败) to /music_search/v3/search/searchAll.', details: { code: '100001' } });
    expect(plugin.sandbox.stats().lastError).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message: error.message });
  });

  it('names the field when the answer changed shape', async () => {
    const plugin = await load();
    const cases: [string, string][] = [
      ['renamed', 'songResultData.resultList[1][0].copyrightId'], ['nameless', 'songResultData.resultList[0][0].name'], ['flat', 'songResultData.resultList[0]'],
      ['typed', 'songResultData.resultList[0][0].duration'], ['garbled', '(not JSON)'],
    ];
    for (const [title, field] of cases) {
      const error = await failure(plugin.invoke('search', options(title)));
      expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message: `response shape changed: ${field}`, details: { field } });
    }
  });
});

describe('migu: lyrics', () => {
  it('looks the LRC file up by copyright id on resourceinfo.do, downloads it with the app headers and normalises it to [mm:ss.xx]', async () => {
    const plugin = await load();
    const lyric = await plugin.invoke('lyrics', { id: '60054704037' });
    const [info, file] = seen.slice(-2);
    expect(info!.path).toBe('/MIGUM2.0/v1.0/content/resourceinfo.do');
    expect(Object.fromEntries(info!.query)).toEqual({ copyrightId: '60054704037', resourceType: '2' });
    expect(file!.path).toBe('/data/oss/resource/00/2k/lrc/60054704037.lrc');
    expect(file!.headers).toMatchObject({ referer: 'https://app.c.nf.migu.cn/', channel: '0146921' });
    expect(lyric).toBe('[ti:晴天]\n[ar:周杰伦]\n[00:00.00]晴天 - 周杰伦\n[00:29.58]故事的小黄花\n[00:36.27]从出生那年就飘着\n[01:47.50]从出生那年就飘着');
    // An http:// file URL with its own query keeps both under the administrator's base URL.
    await expect(plugin.invoke('lyrics', { id: '63273400372' })).resolves.toBe('[00:01.00]Live');
    expect(seen.at(-1)!.path).toBe('/prod/file-service/file-down/b1/live.lrc');
    expect(seen.at(-1)!.query.get('k')).toBe('1');
  });

  it('is null without a lyric file, for a gone file or song, refuses a bad id, and reports codes, shape changes and a timeout', async () => {
    const plugin = await load();
    await expect(plugin.invoke('lyrics', { id: '60000nolrc0' })).resolves.toBeNull();
    await expect(plugin.invoke('lyrics', { id: '60000gone00' })).resolves.toBeNull();
    await expect(plugin.invoke('lyrics', { id: '60000nosong' })).resolves.toBeNull();
    const before = seen.length;
    await expect(plugin.invoke('lyrics', { id: '../../etc' })).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID' });
    expect(seen.length).toBe(before);
    await expect(plugin.invoke('lyrics', { id: '60000unknwn' })).rejects.toMatchObject({
      message: 'Migu answered code 200004 (资源不存在) to /MIGUM2.0/v1.0/content/resourceinfo.do.',
    });
    await expect(plugin.invoke('lyrics', { id: '60000moved0' })).rejects.toMatchObject({ message: 'response shape changed: resource[0].lrcUrl' });
    const slow = await fake.load(undefined, { httpLimits: { timeoutMs: 300 } });
    await expect(slow.invoke('lyrics', { id: '60000slow00' })).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_HTTP_TIMEOUT' });
  });
});
