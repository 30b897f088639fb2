/**
 * The built-in Kugou tag source end to end: plugins/kugou bundled by the runtime's builtin loader, loaded through
 * loadPlugin (manifest and settings check, sandbox, guarded http), pointed by TAGSONIC_SOURCE_URL_KUGOU at a local
 * server that replays Kugou's answers as its web player and PC client receive them — complexsearch's signed song
 * search, and lyrics.kugou.com's candidate search and base64 LRC download — and records every request, so the
 * request shape (path, query, headers, and the MD5 signature recomputed here with node:crypto) is asserted too.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isPluginError } from '@tagsonic/sdk';
import { builtinPlugin } from '../workers/src/plugin-runtime/builtin.ts';
import { failure, sourceFake, type FakeAnswer } from './support/source-fake.ts';

const KEY = 'NVPh5oo715z5DIWAeQlhMDsWXXQV4hwt';
const HASH = 'B8B4E2E5A5E56B4C3E0A1C2D3E4F5A6B';
const LIVE_HASH = '0f1e2d3c4b5a69788796a5b4c3d2e1f0';

/** complexsearch results as the web player receives them (tag=em highlights, `{size}` cover templates, seconds). */
const SUNNY = {
  SongName: '<em>晴天</em>', OriSongName: '晴天', SingerName: '周杰伦', Singers: [{ name: '周杰伦', id: 3520 }], AlbumName: '叶惠美',
  AlbumID: '960399', FileHash: HASH, HQFileHash: 'A1', SQFileHash: 'B2', Duration: 269, PublishTime: '2003-07-31 00:00:00',
  Image: 'http://imge.kugou.com/stdmusic/{size}/20150718/20150718120613556308.jpg', EMixSongID: '2sxnhi5a', Audioid: 3230455, PayType: 3,
};
const SUNNY_LIVE = {
  ...SUNNY, SongName: '晴天 (Live)', SingerName: '周杰伦、五月天', Singers: [{ name: '周杰伦', id: 3520 }, { name: '五月天', id: '3539' }], AlbumName: '地表最强 &amp; 朋友', FileHash: LIVE_HASH, Duration: 301,
  PublishTime: '2017-01-01', Image: 'http://imge.kugou.com/stdmusic/{size}/20170101/20170101000000000001.jpg',
};
/** A result with little known: no album, no cover, an unknown date, no duration. */
const SPARSE = { SongName: '晴天', SingerName: '', FileHash: 'CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC', AlbumName: '', Image: '', PublishTime: '0000-00-00 00:00:00' };

const found = (lists: unknown[]) => ({ status: 1, error_code: 0, error_msg: '', data: { page: 1, pagesize: lists.length, total: lists.length, lists } });

/** The LRC Kugou stores, with its own header tags, base64-encoded as /download returns it. */
const KUGOU_LRC = [
  '[id:$00000000]', '[ar:周杰伦]', '[ti:晴天]', '[by:]', '[hash:b8b4e2e5a5e56b4c3e0a1c2d3e4f5a6b]', '[al:]', '[sign:]', '[qq:]',
  '[total:269000]', '[offset:0]', '[language:eyJjb250ZW50IjpbXSwidmVyc2lvbiI6MX0=]',
  '[00:00.00]周杰伦 - 晴天', '[00:01.43]词：周杰伦', '[00:02.8]曲：周杰伦', '[0:29.125]故事的小黄花', '[00:32]从出生那年就飘着', '',
].join('\r\n');
const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

function searchAnswer(keyword: string): FakeAnswer {
  switch (keyword.split(' ')[0]) {
    case 'outage': return [502, 'text/html', '<html><body>502 Bad Gateway</body></html>'];
    case 'refused': return [200, 'application/json', { status: 0, error_code: 20028, error_msg: 'signature error', data: [] }];
    case 'renamed': return [200, 'application/json', found([SUNNY, { ...SUNNY_LIVE, SongName: undefined, songname: '晴天' }])];
    case 'moved': return [200, 'application/json', { status: 1, error_code: 0, data: { info: [SUNNY] } }];
    case 'typed': return [200, 'application/json', found([{ ...SUNNY, Duration: '269' }])];
    case 'jsonp': return [200, 'text/javascript', `callback123(${JSON.stringify(found([SUNNY]))})`];
    case 'sparse': return [200, 'application/json', found([SPARSE])];
    case 'nothing': return [200, 'application/json', found([])];
    // Artist lookups: the keyword is the singer's name.
    case '五月天': return [200, 'application/json', found([SUNNY, SUNNY_LIVE])];
    case 'Unknown': return [200, 'application/json', found([{ ...SPARSE, Singers: [{ name: 'Unknown', id: 0 }] }])];
    case 'singerless': return [200, 'application/json', found([{ ...SUNNY, Singers: undefined }])];
    case 'deleted': return [200, 'application/json', found([{ ...SUNNY, Singers: [{ name: 'deleted', id: 404 }] }])];
    case 'slow': return new Promise((resolve) => setTimeout(() => resolve([200, 'application/json', found([SUNNY])]), 3_000)) as never;
    default: return [200, 'application/json', found([SUNNY, SUNNY_LIVE])];
  }
}

function lyricAnswer(path: string, query: URLSearchParams): FakeAnswer {
  if (path === '/search') {
    const hash = query.get('hash');
    if (hash === HASH) return [200, 'application/json', { status: 200, info: 'OK', errcode: 200, errmsg: 'OK', proposal: '22361470', candidates: [{ id: '22361470', accesskey: 'A1B2C3D4E5F6', duration: 269000, song: '晴天', singer: '周杰伦', score: 60 }] }];
    if (hash === LIVE_HASH.toUpperCase()) return [200, 'application/json', { status: 200, info: 'OK', candidates: [] }];
    if (hash === 'DDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDD') return [200, 'application/json', { status: 200, info: 'OK', candidates: [{ id: '9', accesskey: 'BROKEN' }] }];
    if (hash === 'EEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEE') return [200, 'application/json', { status: 200, info: 'OK', candidates: [{ id: '9' }] }];
    return [503, 'application/json', { status: 503 }];
  }
  if (query.get('accesskey') === 'BROKEN') return [200, 'application/json', { status: 200, info: 'OK', fmt: 'lrc', content: '***' }];
  return [200, 'application/json', { status: 200, info: 'OK', charset: 'utf8', fmt: 'lrc', contenttype: 0, content: base64(KUGOU_LRC) }];
}

/** /api/v5/singer/info as the mobile client receives it (picture template, biography). */
function singerAnswer(query: URLSearchParams): FakeAnswer {
  switch (query.get('singerid')) {
    case '3520': return [200, 'application/json', { status: 1, error_code: 0, errcode: 0, error: '', data: {
      singerid: 3520, singername: '周杰伦', intro: '  华语流行乐男歌手、音乐人。  ', imgurl: 'http://singerimg.kugou.com/uploadpic/softhead/{size}/20230510/20230510171543683.jpg',
      songcount: 1013, albumcount: 83, mvcount: 379 } }];
    case '3539': return [200, 'application/json', { status: 1, error_code: 0, data: { singerid: 3539, singername: '五月天', intro: '', imgurl: null } }];
    default: return [200, 'application/json', { status: 0, error_code: 20014, error: '歌手不存在', data: null }];
  }
}

const fake = sourceFake('kugou', (path, query) => {
  if (path === '/v2/search/song') return searchAnswer(query.get('keyword') ?? '');
  if (path === '/api/v5/singer/info') return singerAnswer(query);
  if (path === '/search' || path === '/download') return lyricAnswer(path, query);
  return [404, 'text/html', '<html>Not Found</html>'];
});
const { seen } = fake;
const search = (title: string, more: { artist?: string; duration?: number; limit?: number } = {}) => ({ title, artist: '', album: '', limit: 15, ...more });

describe('kugou: the built-in plugin', () => {
  it('bundles plugins/kugou with the search and lyrics hosts granted', async () => {
    const { manifest } = await builtinPlugin('kugou');
    expect(manifest).toMatchObject({
      id: 'kugou', kind: 'tag-source',
      permissions: { http: { hosts: [{ host: 'complexsearch.kugou.com' }, { host: 'lyrics.kugou.com' }, { host: 'mobiles.kugou.com' }] } },
    });
    const plugin = await fake.load();
    expect(plugin.baseUrl).toBe(fake.baseUrl());
  });
});

describe('kugou: search', () => {
  it('signs the web player\'s complexsearch query (MD5 of key + sorted k=v + key), sends browser headers, and maps the songs with original-size covers', async () => {
    const plugin = await fake.load();
    const before = Date.now();
    const songs = await plugin.invoke('search', search(' 晴天 ', { artist: '周杰伦', limit: 10 }));
    const request = seen.at(-1)!;
    expect(request.path).toBe('/v2/search/song');
    expect(request.headers.referer).toBe('https://www.kugou.com/');
    expect(request.headers['user-agent']).toMatch(/^Mozilla\/5\.0/);
    const query = Object.fromEntries(request.query);
    const { signature, ...unsigned } = query;
    expect(unsigned).toEqual({
      bitrate: '0', clienttime: expect.stringMatching(/^\d{13}$/), clientver: '2000', dfid: '-', inputtype: '0', iscorrection: '1', isfuzzy: '0',
      keyword: '晴天 周杰伦', mid: query.clienttime, page: '1', pagesize: '10', platform: 'WebFilter', privilege_filter: '0', srcappid: '2919',
      tag: 'em', userid: '-1', uuid: query.clienttime,
    });
    expect(Number(query.clienttime)).toBeGreaterThanOrEqual(before);
    const pairs = Object.keys(unsigned).sort().map((k) => `${k}=${unsigned[k]}`).join('');
    expect(signature).toBe(createHash('md5').update(`${KEY}${pairs}${KEY}`, 'utf8').digest('hex').toUpperCase());
    expect(songs).toEqual([
      { id: HASH, name: '晴天', artist: '周杰伦', album: '叶惠美', album_img: 'http://imge.kugou.com/stdmusic/20150718/20150718120613556308.jpg',
        year: '2003-07-31', tracknumber: null, totaltracks: null, discnumber: null, totaldiscs: null, duration: 269, resource: 'kugou' },
      { id: LIVE_HASH.toUpperCase(), name: '晴天 (Live)', artist: '周杰伦、五月天', album: '地表最强 & 朋友',
        album_img: 'http://imge.kugou.com/stdmusic/20170101/20170101000000000001.jpg', year: '2017-01-01',
        tracknumber: null, totaltracks: null, discnumber: null, totaldiscs: null, duration: 301, resource: 'kugou' },
    ]);
  });

  it('caps the page at 30, keeps to the limit with the closest duration first, and answers [] for no results or no title (no request)', async () => {
    const plugin = await fake.load();
    const songs = (await plugin.invoke('search', search('晴天', { duration: 300, limit: 100 }))) as { id: string }[];
    expect(seen.at(-1)!.query.get('pagesize')).toBe('30');
    expect(seen.at(-1)!.query.get('keyword')).toBe('晴天');
    expect(songs.map((s) => s.id)).toEqual([LIVE_HASH.toUpperCase(), HASH]);
    const one = (await plugin.invoke('search', search('晴天', { duration: 300, limit: 1 }))) as { id: string }[];
    expect(one.map((s) => s.id)).toEqual([LIVE_HASH.toUpperCase()]);
    await expect(plugin.invoke('search', search('nothing'))).resolves.toEqual([]);
    const before = seen.length;
    await expect(plugin.invoke('search', search('  ', { artist: '周杰伦' }))).resolves.toEqual([]);
    expect(seen.length).toBe(before);
  });

  it('gives null for what Kugou does not know (no album, cover, date or duration)', async () => {
    const plugin = await fake.load();
    await expect(plugin.invoke('search', search('sparse'))).resolves.toEqual([
      { id: 'CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC', name: '晴天', artist: null, album: null, album_img: null, year: null,
        tracknumber: null, totaltracks: null, discnumber: null, totaldiscs: null, duration: null, resource: 'kugou' },
    ]);
  });

  it('reports an HTTP error by its status, and Kugou\'s own refusal (status 0) with its message and code', async () => {
    const plugin = await fake.load();
    let error = await failure(plugin.invoke('search', search('outage')));
    expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message: 'Kugou answered HTTP 502 to /v2/search/song.', details: { status: 502 } });
    expect(isPluginError(error)).toBe(true);
    error = await failure(plugin.invoke('search', search('refused')));
    expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message: 'Kugou refused /v2/search/song: signature error (error 20028).', details: { error_code: 20028 } });
    expect(plugin.sandbox.stats().lastError).toMatchObject({ message: 'Kugou refused /v2/search/song: signature error (error 20028).' });
  });

  it('names the field when the answer changed shape', async () => {
    const plugin = await fake.load();
    const cases: [string, string][] = [
      ['renamed', 'data.lists[1].SongName'], ['moved', 'data.lists'], ['typed', 'data.lists[0].Duration'], ['jsonp', '(not JSON)'],
    ];
    for (const [title, field] of cases) {
      const error = await failure(plugin.invoke('search', search(title)));
      expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message: `response shape changed: ${field}`, details: { field } });
    }
  });

  it('fails a search Kugou does not answer in time with the http timeout, and the next one works', async () => {
    const plugin = await fake.load(undefined, { httpLimits: { timeoutMs: 400 } });
    const error = await failure(plugin.invoke('search', search('slow')));
    expect(error.code).toBe('TAGSONIC_ERR_PLUGIN_HTTP_TIMEOUT');
    await expect(plugin.invoke('search', search('晴天', { limit: 1 }))).resolves.toHaveLength(1);
  });
});

describe('kugou: lyrics', () => {
  it('finds the lyric by file hash, downloads it as base64 LRC, decodes its UTF-8 and normalises it to [mm:ss.xx] without Kugou\'s own tags', async () => {
    const plugin = await fake.load();
    const lyric = await plugin.invoke('lyrics', { id: HASH.toLowerCase() });
    const [lookup, download] = seen.slice(-2);
    expect(lookup!.path).toBe('/search');
    expect(Object.fromEntries(lookup!.query)).toEqual({ ver: '1', man: 'yes', client: 'pc', keyword: '', duration: '', hash: HASH });
    expect(download!.path).toBe('/download');
    expect(Object.fromEntries(download!.query)).toEqual({ ver: '1', client: 'pc', id: '22361470', accesskey: 'A1B2C3D4E5F6', fmt: 'lrc', charset: 'utf8' });
    expect(download!.headers.referer).toBe('https://www.kugou.com/');
    // 29.125 s is rounded to the nearest centisecond, by the same SDK rules the host applies (Kugou’s old copy truncated).
    expect(lyric).toBe(['[ar:周杰伦]', '[ti:晴天]', '[00:00.00]周杰伦 - 晴天', '[00:01.43]词：周杰伦', '[00:02.80]曲：周杰伦', '[00:29.13]故事的小黄花', '[00:32.00]从出生那年就飘着'].join('\n'));
  });

  it('returns null when Kugou has no lyric for the file, and refuses an id that is not a file hash before any request', async () => {
    const plugin = await fake.load();
    await expect(plugin.invoke('lyrics', { id: LIVE_HASH })).resolves.toBeNull();
    const before = seen.length;
    const error = await failure(plugin.invoke('lyrics', { id: '../etc/passwd' }));
    expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID' });
    expect(seen.length).toBe(before);
  });

  it('reports HTTP errors and changed fields of the lyric services', async () => {
    const plugin = await fake.load();
    let error = await failure(plugin.invoke('lyrics', { id: 'ABABABABABABABABABABABABABABABAB' }));
    expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message: 'Kugou answered HTTP 503 to /search.' });
    error = await failure(plugin.invoke('lyrics', { id: 'EEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEE' }));
    expect(error).toMatchObject({ message: 'response shape changed: candidates[0].accesskey' });
    error = await failure(plugin.invoke('lyrics', { id: 'DDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDD' }));
    expect(error).toMatchObject({ message: 'response shape changed: content (not base64)' });
  });
});

describe('kugou: artist', () => {
  it('finds the singer by name among the song search\'s singers and reads its original-size picture and biography from /api/v5/singer/info', async () => {
    const plugin = await fake.load();
    await expect(plugin.invoke('artist', { keyword: '周杰伦' })).resolves.toEqual({
      name: '周杰伦', image: 'http://singerimg.kugou.com/uploadpic/softhead/20230510/20230510171543683.jpg', description: '华语流行乐男歌手、音乐人。',
    });
    const [lookup, info] = seen.slice(-2);
    expect(lookup!.path).toBe('/v2/search/song');
    expect(lookup!.query.get('keyword')).toBe('周杰伦');
    expect(lookup!.query.get('signature')).toMatch(/^[0-9A-F]{32}$/);
    expect(info!.path).toBe('/api/v5/singer/info');
    expect(Object.fromEntries(info!.query)).toEqual({ singerid: '3520' });
    // The exact name wins over the first song's first singer (周杰伦 sings first on both results).
    await expect(plugin.invoke('artist', { keyword: ' 五月天 ' })).resolves.toEqual({ name: '五月天', image: null, description: null });
    expect(seen.at(-1)!.query.get('singerid')).toBe('3539');
  });

  it('returns null without songs, without a singer Kugou has a page for (id 0), or without a keyword', async () => {
    const plugin = await fake.load();
    await expect(plugin.invoke('artist', { keyword: 'nothing' })).resolves.toBeNull();
    const before = seen.length;
    await expect(plugin.invoke('artist', { keyword: 'Unknown' })).resolves.toBeNull();
    expect(seen.slice(before).map((r) => r.path)).toEqual(['/v2/search/song']);
    await expect(plugin.invoke('artist', { keyword: ' ' })).resolves.toBeNull();
  });

  it('reports Kugou\'s refusal of the singer and a search result without its singers', async () => {
    const plugin = await fake.load();
    let error = await failure(plugin.invoke('artist', { keyword: 'deleted' }));
    expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message: 'Kugou refused /api/v5/singer/info: 歌手不存在 (error 20014).' });
    error = await failure(plugin.invoke('artist', { keyword: 'singerless' }));
    expect(error).toMatchObject({ message: 'response shape changed: data.lists[0].Singers', details: { field: 'data.lists[0].Singers' } });
  });
});
