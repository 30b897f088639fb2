/**
 * The built-in Kuwo tag source end to end: plugins/kuwo bundled by the runtime's builtin loader, loaded through
 * loadPlugin (the real manifest check, sandbox and guarded http), pointed by TAGSONIC_SOURCE_URL_KUWO at a local
 * server that replays Kuwo's answers — shaped as search.kuwo.cn's `/r.s` returns them for song search, artist
 * search and artist info (JSON, and the single-quoted literal some of its modes answer), and as m.kuwo.cn's
 * `/newh5/singles/songinfoandlrc` returns a lyric — and records every request, so the request shape (path, query,
 * headers) is asserted as well as the mapping (1000 px covers, artists, entities), the lyric and the errors.
 */
import { describe, expect, it } from 'vitest';
import { isPluginError } from '@tagsonic/sdk';
import { builtinPlugin } from '../workers/src/plugin-runtime/builtin.ts';
import { failure, sourceFake, type FakeAnswer } from './support/source-fake.ts';

/** Songs as `r.s?ft=music&rformat=json&vermerge=1&mobi=1` lists them (strings for numbers, a 120 px cover path). */
const SUNNY = {
  AARTIST: '', ALBUM: '叶惠美', ALBUMID: '1293', ARTIST: '周杰伦', ARTISTID: '336', COPYRIGHT: '0', DURATION: '269',
  FORMAT: 'wma|mp3|flac', MUSICRID: 'MUSIC_228908', NAME: '晴天', SONGNAME: '晴天', PAY: '16515324', MVFLAG: '1',
  N_MINFO: 'level:ff,bitrate:2000,format:flac,size:30.12Mb;level:h,bitrate:128,format:mp3,size:4.12Mb',
  web_albumpic_short: '120/s3s94/93/211513640.jpg', web_artistpic_short: '120/s4s26/58/3409744034.jpg',
};
/** Several artists joined by `&`, entities in the names, a full cover URL at another size, a numeric duration. */
const SUNNY_LIVE = {
  ...SUNNY, MUSICRID: 'MUSIC_155061872', ALBUMID: '9999', NAME: '晴天&nbsp;(Live)', SONGNAME: '晴天&nbsp;(Live)', ARTIST: '周杰伦&五月天',
  ALBUM: 'Rock &amp; Roll 演唱会', DURATION: 285, web_albumpic_short: 'http://img2.kuwo.cn/star/albumcover/300/58/12/3046115923.jpg',
};
const DUO = { ...SUNNY, ALBUMID: '', MUSICRID: 'MUSIC_5', NAME: 'The Boxer', SONGNAME: 'The Boxer', ARTIST: 'Simon & Garfunkel', ALBUM: '', DURATION: '0', web_albumpic_short: '' };

/**
 * `stype=albuminfo`: the single-quoted literal with a release date (`pub`), the track count and the songs in album
 * order (晴天 third); and a JSON one without date or count whose list lacks the song.
 */
const YEHUIMEI = "{'albumid':'1293','name':'叶惠美','artist':'周杰伦','pub':'2003-07-31','songnum':'11','info':'第四张专辑'," +
  "'musiclist':[{'id':'228906','name':'以父之名'},{'id':'228907','name':'懦夫'},{'id':'228908','name':'晴天'}]}";
const LIVE_ALBUM = { albumid: '9999', name: 'Rock & Roll 演唱会', musiclist: [{ id: '1', name: 'a' }, { id: '2', name: 'b' }] };

const list = (abslist: unknown[]) => ({ HIT: String(abslist.length), HITMODE: 'song', PN: '0', RN: '10', SHOW: '1', TOTAL: String(abslist.length), abslist });

/** How many times each `all` was asked (for Kuwo's hollow first answer). */
const asked = new Map<string, number>();
/** Kuwo's hollow answer: matches counted, none shown. */
const HOLLOW = { HIT: '0', PN: '0', RN: '10', SHOW: '0', TOTAL: '37', abslist: [] };

/** What r.s answers for a song search, by the first word of `all`. */
function songAnswer(all: string): FakeAnswer | Promise<FakeAnswer> {
  asked.set(all, (asked.get(all) ?? 0) + 1);
  switch (all.split(' ')[0]) {
    case 'flaky': return [200, 'application/json', asked.get(all) === 1 ? HOLLOW : list([SUNNY])];
    case 'stuck': return [200, 'application/json', HOLLOW];
    case 'albums': return [200, 'application/json', list(Array.from({ length: 7 }, (_, i) => ({ ...SUNNY, MUSICRID: `MUSIC_${i + 1}`, ALBUMID: String(700 + i) })))];
    case 'lostalbum': return [200, 'application/json', list([{ ...SUNNY, ALBUMID: '404' }, { ...SUNNY_LIVE, ALBUMID: '405' }])];
    case 'outage': return [503, 'text/plain', 'Service Unavailable'];
    case 'cdn': return [502, 'text/html', '<html><body>502 Bad Gateway</body></html>'];
    case 'legacy': return [200, 'text/plain', "{'TOTAL':'1','SHOW':'1','abslist':[{'MUSICRID':'MUSIC_7','NAME':'It\\'s \"ok\"','ARTIST':'A&B','ALBUM':'','DURATION':'61'}]}"];
    case 'renamed': return [200, 'application/json', list([SUNNY, { ...SUNNY_LIVE, MUSICRID: undefined, rid: '155061872' }])];
    case 'rid': return [200, 'application/json', list([{ ...SUNNY, MUSICRID: 'MV_228908' }])];
    case 'typed': return [200, 'application/json', list([{ ...SUNNY, ALBUM: { name: '叶惠美' } }])];
    case 'bare': return [200, 'application/json', [SUNNY]];
    case 'noabs': return [200, 'application/json', { TOTAL: '12', SHOW: '1' }];
    case 'garbled': return [200, 'text/html', '<!DOCTYPE html><html>kuwo</html>'];
    case 'duo': return [200, 'application/json', list([DUO])];
    case 'nothing': return [200, 'application/json', { TOTAL: '0', SHOW: '0', abslist: [] }];
    case 'none': return [200, 'application/json', { TOTAL: '0', SHOW: '0' }];
    case 'slow': return new Promise((resolve) => setTimeout(() => resolve([200, 'application/json', list([])]), 1500));
    default: return [200, 'application/json', list([SUNNY, SUNNY_LIVE])];
  }
}

const ARTISTS = list([
  { ARTIST: '周杰伦乐队', AARTIST: '', ARTISTID: '101', MUSICNUM: '3' },
  { ARTIST: '周杰伦', AARTIST: 'Jay Chou', ARTISTID: '336', MUSICNUM: '1024' },
]);
/** `stype=artistinfo`, as its single-quoted literal, with HTML in the biography. */
const JAY = "{'id':'336','name':'周杰伦','aartist':'Jay Chou','pic':'120/s4s26/58/3409744034.jpg','albumnum':'36'," +
  "'info':'周杰伦（Jay Chou），1979年1月18日出生于台湾省新北市。<br>&nbsp;华语流行乐男歌手、音乐人。'}";
const BAND = { id: '101', name: '周杰伦乐队', hts_pic: 'https://img1.kuwo.cn/star/starheads/240/12/34/101.jpg', info: '' };

const LYRIC = {
  data: {
    lrclist: [
      { lineLyric: '晴天 - 周杰伦', time: '0.0' },
      { lineLyric: '故事的小黄花', time: '27.06' },
      { lineLyric: '从出生那年就飘着', time: '30.5' },
      { lineLyric: '刮风这天 我试过握着你手', time: '83.126' },
      { lineLyric: 'Rock &amp; roll', time: '125' },
    ],
    songinfo: { songName: '晴天', artist: '周杰伦', album: '叶惠美', albumId: '1293', pic: 'https://img1.kuwo.cn/star/albumcover/500/s3s94/93/211513640.jpg', duration: '269' },
  },
  msg: '成功', msgs: null, profileId: 'site', reqId: 'a1b2c3', status: 200,
};

function lyricAnswer(id: string): FakeAnswer {
  switch (id) {
    case '228908': return [200, 'application/json', LYRIC];
    case '1': return [200, 'application/json', { ...LYRIC, data: { lrclist: null, songinfo: LYRIC.data.songinfo } }];
    case '2': return [200, 'application/json', { data: null, msg: '成功', status: 200 }];
    case '3': return [200, 'application/json', { data: null, msg: '参数错误', status: 400 }];
    case '4': return [200, 'application/json', { ...LYRIC, data: { lrclist: [{ lineLyric: 'x', time: 'soon' }] } }];
    default: return [500, 'text/html', '<html>error</html>'];
  }
}

const fake = sourceFake('kuwo', (path, query) => {
  if (path === '/newh5/singles/songinfoandlrc') return lyricAnswer(query.get('musicId') ?? '');
  if (path !== '/r.s') return [404, 'text/html', '<html>Not Found</html>'];
  if (query.get('stype') === 'albuminfo') {
    const album = query.get('albumid');
    if (album === '404') return [500, 'text/html', '<html>error</html>'];
    if (album === '405') return [200, 'application/json', { albumid: '405', musiclist: null }];
    return album === '1293' ? [200, 'text/plain', YEHUIMEI] : [200, 'application/json', album === '9999' ? LIVE_ALBUM : { albumid: album, musiclist: [] }];
  }
  if (query.get('stype') === 'artistinfo') return query.get('artistid') === '336' ? [200, 'text/plain', JAY] : [200, 'application/json', BAND];
  if (query.get('ft') === 'artist') return query.get('all') === 'nobody' ? [200, 'application/json', { TOTAL: '0', abslist: [] }] : [200, 'application/json', ARTISTS];
  return songAnswer(query.get('all') ?? '');
});
const { seen } = fake;
/** The last song search the fake saw (album reads follow it). */
const lastSearch = () => seen.filter((r) => r.query.get('ft') === 'music').at(-1)!;
const search = (title: string, extra: Record<string, unknown> = {}) => ({ title, artist: '', album: '', limit: 10, ...extra });
const SEARCH_QUERY = {
  client: 'kt', pn: '0', rformat: 'json', encoding: 'utf8', vipver: '1', newver: '1', show_copyright_off: '1', cluster: '0', strategy: '2012', vermerge: '1', mobi: '1',
};

describe('kuwo: the built-in plugin', () => {
  it('bundles plugins/kuwo and passes loadPlugin with its two hosts (search.kuwo.cn, m.kuwo.cn)', async () => {
    const { manifest, code } = await builtinPlugin('kuwo');
    expect(manifest).toMatchObject({ id: 'kuwo', kind: 'tag-source', permissions: { http: { hosts: [{ host: 'search.kuwo.cn' }, { host: 'm.kuwo.cn' }] } } });
    expect(code).not.toMatch(/require\(["']@tagsonic\/sdk["']\)/);
    const plugin = await fake.load();
    expect(plugin.baseUrl).toBe(fake.baseUrl());
  });
});

describe('kuwo: search', () => {
  it('asks /r.s with all=<title artist>, ft=music, rn=<limit> and the JSON flags, reads each album\'s track list, and maps the songs with 1000 px covers', async () => {
    const plugin = await fake.load();
    const before = seen.length;
    const songs = await plugin.invoke('search', search(' 晴天 ', { artist: '周杰伦', album: '叶惠美', limit: 15 }));
    const request = seen[before]!;
    const albums = seen.slice(before + 1).map((r) => Object.fromEntries(r.query)).sort((a, b) => a.albumid!.localeCompare(b.albumid!));
    expect(albums).toEqual(['1293', '9999'].map((albumid) => ({ stype: 'albuminfo', albumid, pn: '0', rn: '300', show_copyright_off: '1', rformat: 'json', encoding: 'utf8' })));
    expect(request.path).toBe('/r.s');
    expect(Object.fromEntries(request.query)).toEqual({ all: '晴天 周杰伦', ft: 'music', rn: '15', ...SEARCH_QUERY });
    expect(request.headers['user-agent']).toMatch(/^Mozilla\/5\.0 /);
    expect(request.headers.referer).toBe('https://www.kuwo.cn/');
    expect(songs).toEqual([
      { id: '228908', name: '晴天', artist: '周杰伦', album: '叶惠美', album_img: 'https://img1.kuwo.cn/star/albumcover/1000/s3s94/93/211513640.jpg',
        year: '2003-07-31', tracknumber: 3, totaltracks: 11, discnumber: null, totaldiscs: null, duration: 269, resource: 'kuwo' },
      { id: '155061872', name: '晴天 (Live)', artist: '周杰伦/五月天', album: 'Rock & Roll 演唱会', album_img: 'https://img2.kuwo.cn/star/albumcover/1000/58/12/3046115923.jpg',
        year: null, tracknumber: null, totaltracks: 2, discnumber: null, totaldiscs: null, duration: 285, resource: 'kuwo' },
    ]);
  });

  it('reads the first 5 distinct albums only, and an album Kuwo will not describe leaves its numbers null', async () => {
    const plugin = await fake.load();
    let before = seen.length;
    await expect(plugin.invoke('search', search('albums'))).resolves.toHaveLength(7);
    expect(seen.slice(before + 1).map((r) => r.query.get('albumid')).sort()).toEqual(['700', '701', '702', '703', '704']);
    before = seen.length;
    const lost = (await plugin.invoke('search', search('lostalbum'))) as { id: string; tracknumber: number | null; totaltracks: number | null }[];
    expect(seen.length).toBe(before + 3);
    expect(lost.map((s) => [s.id, s.tracknumber, s.totaltracks])).toEqual([['228908', null, null], ['155061872', null, null]]);
  });

  it('reads the single-quoted literal too, keeps a spaced " & " inside a name, gives null for what Kuwo does not know, and [] for no match', async () => {
    const plugin = await fake.load();
    await expect(plugin.invoke('search', search('legacy'))).resolves.toEqual([
      { id: '7', name: 'It\'s "ok"', artist: 'A/B', album: null, album_img: null, year: null, tracknumber: null, totaltracks: null,
        discnumber: null, totaldiscs: null, duration: 61, resource: 'kuwo' },
    ]);
    await expect(plugin.invoke('search', search('duo'))).resolves.toMatchObject([{ id: '5', artist: 'Simon & Garfunkel', album: null, album_img: null, duration: null }]);
    await expect(plugin.invoke('search', search('nothing'))).resolves.toEqual([]);
    await expect(plugin.invoke('search', search('none'))).resolves.toEqual([]);
  });

  it('asks again when Kuwo answers an empty page for a non-zero total, and says so when it does twice', async () => {
    const plugin = await fake.load();
    const searches = () => seen.filter((r) => r.query.get('ft') === 'music').length;
    const before = searches();
    await expect(plugin.invoke('search', search('flaky'))).resolves.toMatchObject([{ id: '228908' }]);
    expect(searches()).toBe(before + 2);
    const error = await failure(plugin.invoke('search', search('stuck')));
    expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message: 'Kuwo answered an empty page for 37 matches 2 times to /r.s; try again later.' });
    expect(searches()).toBe(before + 4);
  });

  it('caps rn at 100, returns at most the limit, and asks nothing without a title', async () => {
    const plugin = await fake.load();
    await plugin.invoke('search', search('晴天', { limit: 500 }));
    expect(lastSearch().query.get('rn')).toBe('100');
    await expect(plugin.invoke('search', search('晴天', { limit: 1 }))).resolves.toHaveLength(1);
    const before = seen.length;
    await expect(plugin.invoke('search', search(' ', { artist: '周杰伦' }))).resolves.toEqual([]);
    expect(seen.length).toBe(before);
  });

  it('reports an HTTP error by its status, also for an HTML page', async () => {
    const plugin = await fake.load();
    let error = await failure(plugin.invoke('search', search('outage')));
    expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message: 'Kuwo answered HTTP 503 to /r.s.', details: { status: 503 } });
    expect(isPluginError(error)).toBe(true);
    error = await failure(plugin.invoke('search', search('cdn')));
    expect(error.message).toBe('Kuwo answered HTTP 502 to /r.s.');
    expect(plugin.sandbox.stats().lastError).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message: 'Kuwo answered HTTP 502 to /r.s.' });
  });

  it('names the field when the answer changed shape', async () => {
    const cases: [string, string][] = [
      ['renamed', 'abslist[1].MUSICRID'], ['rid', 'abslist[0].MUSICRID'], ['typed', 'abslist[0].ALBUM'],
      ['bare', '(root object)'], ['noabs', 'abslist'], ['garbled', '(not JSON)'],
    ];
    for (const [title, field] of cases) {
      // A fresh plugin per case: the sandbox pauses a plugin after several failures in a row.
      const plugin = await fake.load();
      const error = await failure(plugin.invoke('search', search(title)));
      expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message: `response shape changed: ${field}`, details: { field } });
    }
  });

  it('gives up on a silent server with the runtime\'s timeout error', async () => {
    const plugin = await fake.load(undefined, { httpLimits: { timeoutMs: 300 } });
    expect((await failure(plugin.invoke('search', search('slow')))).code).toBe('TAGSONIC_ERR_PLUGIN_HTTP_TIMEOUT');
  });
});

describe('kuwo: lyrics', () => {
  it('asks songinfoandlrc by musicId and writes the timed lines as LRC [mm:ss.xx], entities decoded', async () => {
    const plugin = await fake.load();
    const lyric = await plugin.invoke('lyrics', { id: '228908' });
    expect(seen.at(-1)!.path).toBe('/newh5/singles/songinfoandlrc');
    expect(Object.fromEntries(seen.at(-1)!.query)).toEqual({ musicId: '228908', httpsStatus: '1' });
    expect(lyric).toBe(['[00:00.00]晴天 - 周杰伦', '[00:27.06]故事的小黄花', '[00:30.50]从出生那年就飘着', '[01:23.13]刮风这天 我试过握着你手', '[02:05.00]Rock & roll'].join('\n'));
  });

  it('is null when Kuwo has no lyric, reports its refusal and a changed field, and refuses an id that is not Kuwo\'s before any request', async () => {
    const plugin = await fake.load();
    await expect(plugin.invoke('lyrics', { id: '1' })).resolves.toBeNull();
    await expect(plugin.invoke('lyrics', { id: '2' })).resolves.toBeNull();
    expect(await failure(plugin.invoke('lyrics', { id: '3' }))).toMatchObject({
      code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message: 'Kuwo answered status 400 to /newh5/singles/songinfoandlrc (参数错误).', details: { apiCode: 400 },
    });
    expect(await failure(plugin.invoke('lyrics', { id: '4' }))).toMatchObject({ message: 'response shape changed: data.lrclist[0].time' });
    const fresh = await fake.load();
    expect(await failure(fresh.invoke('lyrics', { id: '9' }))).toMatchObject({ message: 'Kuwo answered HTTP 500 to /newh5/singles/songinfoandlrc.', details: { status: 500 } });
    const before = seen.length;
    expect(await failure(fresh.invoke('lyrics', { id: 'MUSIC_228908' }))).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID' });
    expect(seen.length).toBe(before);
  });
});

describe('kuwo: artist', () => {
  it('finds the artist id with ft=artist (exact name or its other-script name first), then reads artistinfo: name, 500 px picture, plain-text biography', async () => {
    const plugin = await fake.load();
    const artist = await plugin.invoke('artist', { keyword: ' jay chou ' });
    const [lookup, info] = seen.slice(-2);
    expect(lookup!.path).toBe('/r.s');
    expect(Object.fromEntries(lookup!.query)).toEqual({ all: 'jay chou', ft: 'artist', rn: '10', ...SEARCH_QUERY });
    expect(info!.path).toBe('/r.s');
    expect(Object.fromEntries(info!.query)).toEqual({ stype: 'artistinfo', artistid: '336', rformat: 'json', encoding: 'utf8' });
    expect(artist).toEqual({
      name: '周杰伦',
      image: 'https://img1.kuwo.cn/star/starheads/500/s4s26/58/3409744034.jpg',
      description: '周杰伦（Jay Chou），1979年1月18日出生于台湾省新北市。\n华语流行乐男歌手、音乐人。',
    });
  });

  it('takes the first hit without an exact match (its picture URL resized), and is null when nobody matches', async () => {
    const plugin = await fake.load();
    await expect(plugin.invoke('artist', { keyword: '周杰' })).resolves.toEqual({
      name: '周杰伦乐队', image: 'https://img1.kuwo.cn/star/starheads/500/12/34/101.jpg', description: null,
    });
    const before = seen.length;
    await expect(plugin.invoke('artist', { keyword: 'nobody' })).resolves.toBeNull();
    expect(seen.length).toBe(before + 1);
  });
});
