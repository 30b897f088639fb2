/**
 * The built-in QQ Music tag source end to end: plugins/qmusic bundled by the runtime's builtin loader, loaded through
 * loadPlugin (the real manifest check, sandbox and guarded http), pointed by TAGSONIC_SOURCE_URL_QMUSIC at a local
 * server that replays answers shaped as QQ's musicu.fcg song/singer search, fcg_query_lyric_new and
 * fcg_get_singer_desc return them (as the web player and public clients such as QQMusicApi record them), and that
 * records every request, so the request shape — path, the musicu `data` JSON, Referer — is asserted with the mapping
 * (800×800 cover, 0-based disc index, base64 lyric) and the errors.
 */
import { describe, expect, it } from 'vitest';
import type { PluginSettings } from '@tagsonic/workers/plugin-runtime';
import { builtinPlugin } from '../workers/src/plugin-runtime/builtin.ts';
import { failure, sourceFake } from './support/source-fake.ts';

/** One song as DoSearchForQQMusicDesktop lists it (the fields a client sees, trimmed of the file sizes). */
const QING_TIAN = {
  id: 97773, mid: '0039MnYb0qxYhV', name: '晴天', title: '晴天', subtitle: '', interval: 269, index_album: 3, index_cd: 0,
  time_public: '2003-07-31', language: 0, genre: 1, isonly: 0,
  singer: [{ id: 4558, mid: '0025NhlN2yWrP4', name: '周杰伦', title: '周杰伦', type: 0, uin: 0 }],
  album: { id: 8220, mid: '000MkMni19ClKG', name: '叶惠美', title: '叶惠美', subtitle: '', time_public: '2003-07-31', pmid: '000MkMni19ClKG_3' },
  file: { media_mid: '0039MnYb0qxYhV', size_128mp3: 4321230, size_320mp3: 10802740, size_flac: 30286217 },
  mv: { id: 0, vid: '', name: '', title: '' },
};
/** A live version on a two-disc album, with two singers. */
const QING_TIAN_LIVE = {
  ...QING_TIAN, id: 5105986, mid: '002hXDfk0LX9KO', title: '晴天 (Live)', interval: 301, index_album: 7, index_cd: 1, time_public: '',
  singer: [{ id: 4558, mid: '0025NhlN2yWrP4', name: '周杰伦' }, { id: 6499, mid: '003Nz2So3XXYek', name: '陈奕迅' }],
  album: { id: 122000, mid: '001ZaCQY2OxVMg', name: '地表最强世界巡回演唱会', title: '地表最强世界巡回演唱会', time_public: '2019-05-01' },
};
/** What QQ knows little about: no album, 0 for unknown numbers, a placeholder date. */
const SPARSE = { id: 1, mid: '000aaaaaaaaaaa', name: 'Demo', singer: [], album: { id: 0, mid: '', name: '', time_public: '0000-00-00' }, interval: 0, index_album: 0, index_cd: 0, time_public: '' };

const musicu = (data: unknown, code = 0) => ({ code: 0, ts: 1764000000000, start_ts: 1764000000000, traceid: 'f0e1d2', req: { code, data } });
const songs = (list: unknown[]) => musicu({ code: 0, ver: 1, body: { song: { list, totalnum: list.length, curnum: list.length, curpage: 1 } }, meta: { sum: list.length } });

/** 周杰伦 as the singer search lists him, and the biography XML QQ serves for his mid (with its comment wrapper). */
const JAY = { singerID: 4558, singerMID: '0025NhlN2yWrP4', singerName: '周杰伦', singerPic: 'http://y.gtimg.cn/music/photo_new/T001R150x150M0000025NhlN2yWrP4.webp', songNum: 1000, albumNum: 39 };
const JAY_DESC = `<?xml version="1.0" encoding="utf-8" ?>\n<!--<result><code>0</code><data><info><desc><![CDATA[周杰伦（Jay Chou），1979年1月18日出生于台湾省新北市，华语流行乐男歌手、音乐人。]]></desc><basic><item><key><![CDATA[中文名]]></key><value><![CDATA[周杰伦]]></value></item></basic></info></data></result>-->`;

const LRC = '[ti:晴天]\n[ar:周杰伦]\n[al:叶惠美]\n[by:]\n[offset:0]\n[00:00.00]晴天 - 周杰伦 (Jay Chou)\n[00:01.5]词：周杰伦\n[00:02.38]曲：周杰伦\n[00:29.58][01:40.00]故事的小黄花\n[00:36.270]从出生那年就飘着';
const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** The musicu call the plugin made: `data` parsed. */
const call = (query: URLSearchParams) => JSON.parse(query.get('data') ?? 'null') as { comm: unknown; req: { module: string; method: string; param: Record<string, unknown> } };

function musicuAnswer(query: URLSearchParams): [number, string, unknown] {
  const { param } = call(query).req;
  const word = String(param.query).split(' ')[0];
  if (param.search_type === 1) {
    if (word === 'nobody') return [200, 'application/json', musicu({ code: 0, body: { singer: { list: [] } } })];
    if (word === 'faceless') return [200, 'application/json', musicu({ code: 0, body: { singer: { list: [{ ...JAY, singerMID: 'unknownmid0001' }] } } })];
    return [200, 'application/json', musicu({ code: 0, body: { singer: { list: [JAY] } } })];
  }
  switch (word) {
    case 'outage': return [502, 'text/html', '<html><body>502 Bad Gateway</body></html>'];
    case 'throttled': return [200, 'application/json', musicu(null, 2001)];
    case 'renamed': return [200, 'application/json', songs([QING_TIAN, { ...QING_TIAN_LIVE, mid: undefined, songmid: '002hXDfk0LX9KO' }])];
    case 'typed': return [200, 'application/json', songs([{ ...QING_TIAN, index_album: '3' }])];
    case 'moved': return [200, 'application/json', musicu({ code: 0, body: { song: { items: [], totalnum: 0 } } })];
    case 'garbled': return [200, 'text/html', 'callback({"code":0'];
    case 'sparse': return [200, 'application/json', songs([SPARSE])];
    case 'nothing': return [200, 'application/json', musicu({ code: 0, body: {} })];
    default: return [200, 'application/json', songs([QING_TIAN, QING_TIAN_LIVE])];
  }
}

function lyricAnswer(mid: string): [number, string, unknown] {
  switch (mid) {
    case '0039MnYb0qxYhV': return [200, 'application/json', { retcode: 0, code: 0, subcode: 0, lyric: base64(LRC), trans: '' }];
    case '000wrapped0000': return [200, 'application/javascript', `MusicJsonCallback(${JSON.stringify({ retcode: 0, code: 0, subcode: 0, lyric: base64('[0:01]纯音乐，请欣赏') })})`];
    case '000nolyric0000': return [200, 'application/json', { retcode: -1901, code: -1901, subcode: -1901, lyric: '', trans: '' }];
    case '000error000000': return [200, 'application/json', { retcode: -1310, code: -1310, subcode: -1310 }];
    case '000mangled0000': return [200, 'application/json', { retcode: 0, code: 0, lyric: '%%% not base64 %%%' }];
    case '000slow0000000': return new Promise(() => {}) as never;
    default: return [500, 'text/html', 'Internal Server Error'];
  }
}

const fake = sourceFake('qmusic', (path, query) => {
  if (path === '/cgi-bin/musicu.fcg') return musicuAnswer(query);
  if (path === '/lyric/fcgi-bin/fcg_query_lyric_new.fcg') return lyricAnswer(query.get('songmid') ?? '');
  if (path === '/splcloud/fcgi-bin/fcg_get_singer_desc.fcg') {
    return query.get('singermid') === JAY.singerMID
      ? [200, 'text/xml', JAY_DESC]
      : [200, 'text/xml', '<?xml version="1.0" encoding="utf-8" ?>\n<!--<result><code>-1</code><data></data></result>-->'];
  }
  return [404, 'text/html', '<html>Not Found</html>'];
});
const { seen } = fake;
const load = (settings?: PluginSettings) => fake.load(settings);
const search = (title: string, extra: Record<string, unknown> = {}) => ({ title, artist: '', album: '', limit: 10, ...extra });

describe('qmusic: the built-in plugin', () => {
  it('bundles plugins/qmusic with its two QQ hosts and lyrics and artist exports', async () => {
    const { manifest, code } = await builtinPlugin('qmusic');
    expect(manifest).toMatchObject({ id: 'qmusic', kind: 'tag-source', permissions: { http: { hosts: [{ host: 'u.y.qq.com' }, { host: 'c.y.qq.com' }] } } });
    expect(code).not.toMatch(/require\(["']@tagsonic\/sdk["']\)/);
    const plugin = await load();
    expect(plugin.baseUrl).toBe(fake.baseUrl());
  });
});

describe('qmusic: search', () => {
  it('asks musicu.fcg for DoSearchForQQMusicDesktop with "<title> <artist>", sends the web Referer, and maps the songs with 800×800 covers', async () => {
    const plugin = await load();
    const result = await plugin.invoke('search', search(' 晴天 ', { artist: '周杰伦', album: '叶惠美', limit: 15 }));
    const request = seen.at(-1)!;
    expect(request.path).toBe('/cgi-bin/musicu.fcg');
    expect(request.query.get('format')).toBe('json');
    expect(call(request.query)).toEqual({
      comm: { ct: 19, cv: 1859, uin: 0 },
      req: { module: 'music.search.SearchCgiService', method: 'DoSearchForQQMusicDesktop', param: { query: '晴天 周杰伦', search_type: 0, num_per_page: 15, page_num: 1 } },
    });
    expect(request.headers.referer).toBe('https://y.qq.com/');
    expect(request.headers['user-agent']).toMatch(/^Mozilla\/5\.0/);
    expect(result).toEqual([
      { id: '0039MnYb0qxYhV', name: '晴天', artist: '周杰伦', album: '叶惠美', album_img: 'https://y.gtimg.cn/music/photo_new/T002R800x800M000000MkMni19ClKG.jpg',
        year: '2003-07-31', tracknumber: 3, totaltracks: null, discnumber: 1, totaldiscs: null, duration: 269, resource: 'qmusic' },
      { id: '002hXDfk0LX9KO', name: '晴天 (Live)', artist: '周杰伦/陈奕迅', album: '地表最强世界巡回演唱会', album_img: 'https://y.gtimg.cn/music/photo_new/T002R800x800M000001ZaCQY2OxVMg.jpg',
        year: '2019-05-01', tracknumber: 7, totaltracks: null, discnumber: 2, totaldiscs: null, duration: 301, resource: 'qmusic' },
    ]);
  });

  it('caps the page at 50, puts the closest duration first, and answers [] when QQ has nothing or no title is given', async () => {
    const plugin = await load();
    const result = (await plugin.invoke('search', search('晴天', { duration: 300, limit: 500 }))) as { id: string }[];
    expect(call(seen.at(-1)!.query).req.param).toMatchObject({ query: '晴天', num_per_page: 50 });
    expect(result.map((s) => s.id)).toEqual(['002hXDfk0LX9KO', '0039MnYb0qxYhV']);
    await expect(plugin.invoke('search', search('nothing'))).resolves.toEqual([]);
    const before = seen.length;
    await expect(plugin.invoke('search', search('  ', { artist: '周杰伦' }))).resolves.toEqual([]);
    expect(seen.length).toBe(before);
  });

  it('gives null for what QQ does not know (no album, 0 numbers, 0000-00-00) instead of a cover of nothing', async () => {
    const plugin = await load();
    await expect(plugin.invoke('search', search('sparse'))).resolves.toEqual([
      { id: '000aaaaaaaaaaa', name: 'Demo', artist: null, album: null, album_img: null, year: null,
        tracknumber: null, totaltracks: null, discnumber: null, totaldiscs: null, duration: null, resource: 'qmusic' },
    ]);
  });

  it('reports an HTTP error by its status and a QQ error code by its number', async () => {
    const plugin = await load();
    let error = await failure(plugin.invoke('search', search('outage')));
    expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message: 'QQ Music answered HTTP 502 to /cgi-bin/musicu.fcg.', details: { status: 502 } });
    error = await failure(plugin.invoke('search', search('throttled')));
    expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message: 'QQ Music answered code 2001 to DoSearchForQQMusicDesktop.', details: { code: 2001 } });
    expect(plugin.sandbox.stats().lastError).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message: 'QQ Music answered code 2001 to DoSearchForQQMusicDesktop.' });
  });

  it('names the field when the answer changed shape', async () => {
    const plugin = await load();
    const cases: [string, string][] = [
      ['renamed', 'req.data.body.song.list[1].mid'], ['typed', 'req.data.body.song.list[0].index_album'],
      ['moved', 'req.data.body.song.list'], ['garbled', '(not JSON)'],
    ];
    for (const [title, field] of cases) {
      const error = await failure(plugin.invoke('search', search(title)));
      expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message: `response shape changed: ${field}`, details: { field } });
    }
  });
});

describe('qmusic: lyrics', () => {
  it('asks fcg_query_lyric_new by songmid with the y.qq.com Referer, decodes the base64 lyric and normalises its stamps to [mm:ss.xx]', async () => {
    const plugin = await load();
    const lyric = await plugin.invoke('lyrics', { id: '0039MnYb0qxYhV' });
    const request = seen.at(-1)!;
    expect(request.path).toBe('/lyric/fcgi-bin/fcg_query_lyric_new.fcg');
    expect(Object.fromEntries(request.query)).toMatchObject({ songmid: '0039MnYb0qxYhV', format: 'json', g_tk: '5381' });
    expect(request.headers.referer).toBe('https://y.qq.com/');
    expect(lyric).toBe([
      '[ti:晴天]', '[ar:周杰伦]', '[al:叶惠美]', '[by:]',
      '[00:00.00]晴天 - 周杰伦 (Jay Chou)', '[00:01.50]词：周杰伦', '[00:02.38]曲：周杰伦',
      '[00:29.58]故事的小黄花', '[00:36.27]从出生那年就飘着', '[01:40.00]故事的小黄花',
    ].join('\n'));
  });

  it('is null when QQ has no lyric (-1901), unwraps a JSONP answer, refuses an id that is not a mid, and reports other codes, bad base64, 5xx and a timeout', async () => {
    const plugin = await load();
    await expect(plugin.invoke('lyrics', { id: '000nolyric0000' })).resolves.toBeNull();
    // The web callback wrapper some fcg answers still carry is unwrapped.
    await expect(plugin.invoke('lyrics', { id: '000wrapped0000' })).resolves.toBe('[00:01.00]纯音乐，请欣赏');
    const before = seen.length;
    await expect(plugin.invoke('lyrics', { id: '../etc/passwd' })).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID' });
    expect(seen.length).toBe(before);
    await expect(plugin.invoke('lyrics', { id: '000error000000' })).rejects.toMatchObject({ message: 'QQ Music answered code -1310 to fcg_query_lyric_new.' });
    await expect(plugin.invoke('lyrics', { id: '000mangled0000' })).rejects.toMatchObject({ message: 'response shape changed: lyric (not base64 UTF-8)' });
    await expect(plugin.invoke('lyrics', { id: '000servererror' })).rejects.toMatchObject({ message: 'QQ Music answered HTTP 500 to /lyric/fcgi-bin/fcg_query_lyric_new.fcg.', details: { status: 500 } });
    const slow = await fake.load(undefined, { httpLimits: { timeoutMs: 300 } });
    await expect(slow.invoke('lyrics', { id: '000slow0000000' })).rejects.toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_HTTP_TIMEOUT' });
  });
});

describe('qmusic: artist', () => {
  it('finds the singer with search_type 1, then reads the biography XML; the picture is the 800×800 one', async () => {
    const plugin = await load();
    await expect(plugin.invoke('artist', { keyword: '周杰伦' })).resolves.toEqual({
      name: '周杰伦',
      image: 'https://y.gtimg.cn/music/photo_new/T001R800x800M0000025NhlN2yWrP4.jpg',
      description: '周杰伦（Jay Chou），1979年1月18日出生于台湾省新北市，华语流行乐男歌手、音乐人。',
    });
    const [singerSearch, desc] = seen.slice(-2);
    expect(call(singerSearch!.query).req.param).toMatchObject({ query: '周杰伦', search_type: 1 });
    expect(desc!.path).toBe('/splcloud/fcgi-bin/fcg_get_singer_desc.fcg');
    expect(Object.fromEntries(desc!.query)).toMatchObject({ singermid: '0025NhlN2yWrP4', format: 'xml', utf8: '1' });
    expect(desc!.headers.referer).toBe('https://c.y.qq.com/xhr_proxy_utf8.html');
  });

  it('is null for no match, and gives the picture without a description when QQ has no biography', async () => {
    const plugin = await load();
    await expect(plugin.invoke('artist', { keyword: 'nobody' })).resolves.toBeNull();
    await expect(plugin.invoke('artist', { keyword: 'faceless' })).resolves.toEqual({
      name: '周杰伦', image: 'https://y.gtimg.cn/music/photo_new/T001R800x800M000unknownmid0001.jpg', description: null,
    });
  });
});
