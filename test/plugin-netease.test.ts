/**
 * The built-in NetEase Cloud Music tag source end to end: plugins/netease bundled by the runtime's builtin loader,
 * loaded through loadPlugin (the real manifest check, sandbox and guarded http), pointed by
 * TAGSONIC_SOURCE_URL_NETEASE at a local server that replays NetEase's answers — shaped as music.163.com returns
 * them for the cloud search (`/api/cloudsearch/pc`, songs and artists), the lyric (`/api/song/lyric`) and the
 * artist head (`/api/artist/head/info/get`) — and records every request, so the request shape (path, query,
 * Referer and User-Agent) is asserted as well as the mapping (full-size cover, Beijing release date, numbers),
 * the lyric normalisation and the errors.
 */
import { describe, expect, it } from 'vitest';
import { isPluginError } from '@tagsonic/sdk';
import { builtinPlugin } from '../workers/src/plugin-runtime/builtin.ts';
import { failure, sourceFake, type FakeAnswer } from './support/source-fake.ts';

/** NetEase's image CDN: the URL without a query is the original; `?param=130y130` is what its lists show. */
const PIC = 'http://p2.music.126.net/Zr3nB1qWmJvYc9b_HY0eAw==/109951163984222941.jpg';
const ARTIST_PIC = 'http://p1.music.126.net/Kp5dG_u0dCMZ1qkEkxNNBw==/109951165793871057.jpg';

/** Songs in the cloud search's compact shape (`ar`, `al`, `dt`, `no`, `cd`, `publishTime`). */
const SUNNY = {
  name: '晴天', id: 186016, pst: 0, t: 0, alia: [], pop: 100, st: 0, rt: '', fee: 1, v: 75, crbt: null, cf: '',
  ar: [{ id: 6452, name: '周杰伦', tns: [], alias: [] }],
  al: { id: 18905, name: '叶惠美', picUrl: `${PIC}?param=130y130`, tns: [], pic_str: '109951163984222941', pic: 109951163984222941 },
  dt: 269_000, h: { br: 320000, fid: 0, size: 10_768_123, vd: -45_000 }, cd: '01', no: 3, publishTime: 1_059_580_800_000,
  mark: 8192, originCoverType: 1, single: 0, mv: 504_177, mst: 9, cp: 1_007_001, djId: 0, copyright: 1, rtype: 0,
};
const SUNNY_DUET = {
  ...SUNNY, id: 1_463_165_983, name: '晴天 (Live)', ar: [{ id: 6452, name: '周杰伦' }, { id: 12_138_269, name: '五月天' }],
  al: { id: 92_511_222, name: '地表最强演唱会', picUrl: 'https://p1.music.126.net/7Mq2vDbyNf3O1wqTuiR6rg==/109951165047210556.jpg' },
  dt: 285_410, cd: '2', no: 11, publishTime: 1_594_310_400_000,
};
/** What NetEase knows of an obscure upload: no album, no numbers, no date (0), an artist without a name. */
const SPARSE = { name: '晴天', id: 99, ar: [{ id: 0, name: null }], al: { id: 0, name: '', picUrl: null }, dt: 0, cd: '', no: 0, publishTime: 0 };

/** `/api/v1/album/<id>`: the album (its `size` is the track count) and its songs with their discs. */
const ALBUMS: Record<string, unknown> = {
  '18905': { code: 200, resourceState: true, album: { id: 18905, name: '叶惠美', size: 11, publishTime: 1_059_580_800_000, company: '杰威尔音乐' },
    songs: Array.from({ length: 11 }, (_, i) => ({ id: 186000 + i, name: `track ${i + 1}`, no: i + 1, cd: '01' })) },
  // No size: the songs listed count, and the highest disc is the disc count.
  '92511222': { code: 200, album: { id: 92_511_222, name: '地表最强演唱会', size: null },
    songs: [{ id: 1, no: 1, cd: '1' }, { id: 2, no: 2, cd: '1' }, { id: 3, no: 1, cd: '2' }] },
};

const songs = (list: unknown[]) => ({ result: { searchQcReminder: null, songs: list, songCount: list.length }, code: 200 });

/** A lyric as NetEase stores it: JSON credit lines first, millisecond stamps, one line with two stamps, a 1-digit fraction. */
const LYRIC = [
  '{"t":0,"c":[{"tx":"作词: "},{"tx":"方文山","li":"http://p1.music.126.net/x.jpg"}]}',
  '{"t":1000,"c":[{"tx":"作曲: "},{"tx":"周杰伦"}]}',
  '[00:27.060]故事的小黄花',
  '[00:30.5]从出生那年就飘着',
  '[02:01.230][01:20.115]刮风这天 我试过握着你手',
  '[01:05]',
  '',
].join('\n');

const ARTISTS = {
  result: {
    artists: [
      { id: 999, name: 'Jay Chou Fans', picUrl: null, img1v1Url: 'http://p1.music.126.net/fan.jpg?param=180y180', alias: [] },
      { id: 6452, name: '周杰伦', picUrl: ARTIST_PIC, img1v1Url: `${ARTIST_PIC}?param=180y180`, alias: ['Jay Chou'], albumSize: 36 },
    ],
    artistCount: 2,
  },
  code: 200,
};
const HEAD = {
  code: 200,
  message: 'success',
  data: { artist: { id: 6452, name: '周杰伦', briefDesc: ' 周杰伦（Jay Chou），1979年1月18日出生于台湾省新北市，华语流行乐男歌手、音乐人。 ', avatar: ARTIST_PIC }, user: null },
};

/** The cloud search's answer by `s` (its first word picks a special case) and `type`. */
function searchAnswer(query: URLSearchParams): FakeAnswer | Promise<FakeAnswer> {
  const s = query.get('s') ?? '';
  if (query.get('type') === '100') {
    if (s.startsWith('nobody')) return [200, 'application/json', { result: { artistCount: 0 }, code: 200 }];
    return [200, 'application/json', ARTISTS];
  }
  switch (s.split(' ')[0]) {
    case 'outage': return [503, 'application/json', { code: 503, message: 'busy' }];
    case 'cdn': return [502, 'text/html', '<html><body>502 Bad Gateway</body></html>'];
    case 'cheating': return [200, 'application/json', { code: -460, message: 'Cheating' }];
    case 'renamed': return [200, 'application/json', songs([SUNNY, { ...SUNNY_DUET, name: undefined, songName: '晴天' }])];
    case 'artists': return [200, 'application/json', songs([{ ...SUNNY, ar: { name: '周杰伦' } }])];
    case 'typed': return [200, 'application/json', songs([{ ...SUNNY, publishTime: '2003-07-31' }])];
    case 'bare': return [200, 'application/json', [SUNNY]];
    case 'noresult': return [200, 'application/json', { code: 200 }];
    case 'garbled': return [200, 'text/html', '<!DOCTYPE html><html>music.163.com</html>'];
    case 'sparse': return [200, 'application/json', songs([SPARSE])];
    case 'albums': return [200, 'application/json', songs(Array.from({ length: 8 }, (_, i) => ({ ...SUNNY, id: i + 1, al: { id: 500 + i, name: `album ${i}`, picUrl: null } })))];
    case 'lostalbum': return [200, 'application/json', songs([{ ...SUNNY, al: { ...SUNNY.al, id: 404 } }, { ...SUNNY_DUET, al: { ...SUNNY_DUET.al, id: 405 } }])];
    case 'nothing': return [200, 'application/json', { result: { songCount: 0 }, code: 200 }];
    case 'slow': return new Promise<FakeAnswer>((resolve) => setTimeout(() => resolve([200, 'application/json', songs([])]), 1500));
    default: return [200, 'application/json', songs([SUNNY, SUNNY_DUET])];
  }
}

function lyricAnswer(id: string): FakeAnswer {
  switch (id) {
    case '186016': return [200, 'application/json', { sgc: false, sfy: false, qfy: false, lrc: { version: 18, lyric: LYRIC }, klyric: { version: 0, lyric: '' }, tlyric: { version: 0, lyric: '' }, code: 200 }];
    case '1': return [200, 'application/json', { sgc: true, sfy: false, qfy: false, nolyric: true, code: 200 }];
    case '2': return [200, 'application/json', { sgc: true, sfy: false, qfy: false, uncollected: true, code: 200 }];
    case '3': return [200, 'application/json', { lrc: { version: 1, lyric: ['纯文本歌词', '第二行'] }, code: 200 }];
    case '4': return [500, 'application/json', { code: 500 }];
    default: return [200, 'application/json', { lrc: { version: 1, lyric: '' }, code: 200 }];
  }
}

const fake = sourceFake('netease', (path, query) => {
  switch (path) {
    case '/api/cloudsearch/pc': return searchAnswer(query);
    case '/api/song/lyric': return lyricAnswer(query.get('id') ?? '');
    case '/api/v1/album/404': return [500, 'text/html', '<html>error</html>'];
    case '/api/v1/album/405': return [200, 'application/json', { code: 200, album: { size: '3' }, songs: [] }];
    case '/api/artist/head/info/get': return [200, 'application/json', query.get('id') === '6452' ? HEAD : { code: 200, data: { artist: null } }];
    default: {
      const album = /^\/api\/v1\/album\/(\d+)$/.exec(path)?.[1];
      if (album) return [200, 'application/json', ALBUMS[album] ?? { code: 200, album: { id: Number(album), size: 0 }, songs: [] }];
      return [404, 'text/html', '<html>Not Found</html>'];
    }
  }
});
const { seen } = fake;
const search = (title: string, extra: Record<string, unknown> = {}) => ({ title, artist: '', album: '', limit: 10, ...extra });

describe('netease: the built-in plugin', () => {
  it('bundles plugins/netease and passes loadPlugin with its single grant (music.163.com)', async () => {
    const { manifest, code } = await builtinPlugin('netease');
    expect(manifest).toMatchObject({ id: 'netease', kind: 'tag-source', permissions: { http: { hosts: [{ host: 'music.163.com' }] } } });
    expect(code).not.toMatch(/require\(["']@tagsonic\/sdk["']\)/);
    const plugin = await fake.load();
    expect(plugin.baseUrl).toBe(fake.baseUrl());
  });
});

describe('netease: search', () => {
  it('asks the cloud search with s=<title artist>, type=1, the limit and a browser Referer, reads each album\'s counts, and maps the songs with full-size covers', async () => {
    const plugin = await fake.load();
    const before = seen.length;
    const found = await plugin.invoke('search', search(' 晴天 ', { artist: '周杰伦', album: '叶惠美', limit: 15 }));
    const request = seen[before]!;
    expect(seen.slice(before + 1).map((r) => r.path).sort()).toEqual(['/api/v1/album/18905', '/api/v1/album/92511222']);
    expect(seen.at(-1)!.headers.referer).toBe('https://music.163.com/');
    expect(request.path).toBe('/api/cloudsearch/pc');
    expect(Object.fromEntries(request.query)).toEqual({ s: '晴天 周杰伦', type: '1', limit: '15', offset: '0' });
    expect(request.headers.referer).toBe('https://music.163.com/');
    expect(request.headers['user-agent']).toMatch(/^Mozilla\/5\.0 /);
    expect(found).toEqual([
      { id: '186016', name: '晴天', artist: '周杰伦', album: '叶惠美', album_img: PIC.replace('http://', 'https://'), year: '2003-07-31',
        tracknumber: 3, totaltracks: 11, discnumber: 1, totaldiscs: 1, duration: 269, resource: 'netease' },
      { id: '1463165983', name: '晴天 (Live)', artist: '周杰伦/五月天', album: '地表最强演唱会',
        album_img: 'https://p1.music.126.net/7Mq2vDbyNf3O1wqTuiR6rg==/109951165047210556.jpg', year: '2020-07-10',
        tracknumber: 11, totaltracks: 3, discnumber: 2, totaldiscs: 2, duration: 285, resource: 'netease' },
    ]);
  });

  it('reads the counts of the first 5 distinct albums only, and an album NetEase will not describe leaves its counts null', async () => {
    const plugin = await fake.load();
    let before = seen.length;
    const many = (await plugin.invoke('search', search('albums'))) as { totaltracks: number | null }[];
    expect(seen.slice(before + 1).map((r) => r.path).sort()).toEqual([500, 501, 502, 503, 504].map((id) => `/api/v1/album/${id}`));
    expect(many).toHaveLength(8);
    expect(many.every((s) => s.totaltracks === null)).toBe(true);
    before = seen.length;
    const lost = (await plugin.invoke('search', search('lostalbum'))) as { id: string; totaltracks: number | null; totaldiscs: number | null }[];
    expect(seen.length).toBe(before + 3);
    expect(lost.map((s) => [s.id, s.totaltracks, s.totaldiscs])).toEqual([['186016', null, null], ['1463165983', null, null]]);
  });

  it('gives null for what NetEase does not know, [] when nothing matches, caps the limit at 100, and asks nothing without a title', async () => {
    const plugin = await fake.load();
    const start = seen.length;
    await expect(plugin.invoke('search', search('sparse'))).resolves.toEqual([
      { id: '99', name: '晴天', artist: null, album: null, album_img: null, year: null, tracknumber: null, totaltracks: null,
        discnumber: null, totaldiscs: null, duration: null, resource: 'netease' },
    ]);
    expect(seen.length).toBe(start + 1); // no album to read
    await expect(plugin.invoke('search', search('nothing'))).resolves.toEqual([]);
    const from = seen.length;
    const one = (await plugin.invoke('search', search('晴天', { limit: 500 }))) as unknown[];
    expect(seen[from]!.query.get('limit')).toBe('100');
    expect(one).toHaveLength(2);
    await expect(plugin.invoke('search', search('晴天', { limit: 1 }))).resolves.toHaveLength(1);
    const before = seen.length;
    await expect(plugin.invoke('search', search('  ', { artist: '周杰伦' }))).resolves.toEqual([]);
    expect(seen.length).toBe(before);
  });

  it('reports an HTTP error by its status (also for an HTML page), and NetEase refusing the client by its code', async () => {
    const plugin = await fake.load();
    let error = await failure(plugin.invoke('search', search('outage')));
    expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message: 'NetEase answered HTTP 503 to /api/cloudsearch/pc.', details: { status: 503 } });
    expect(isPluginError(error)).toBe(true);
    error = await failure(plugin.invoke('search', search('cdn')));
    expect(error.message).toBe('NetEase answered HTTP 502 to /api/cloudsearch/pc.');
    error = await failure(plugin.invoke('search', search('cheating')));
    expect(error).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message: 'NetEase answered code -460 to /api/cloudsearch/pc (Cheating).', details: { apiCode: -460 } });
    expect(plugin.sandbox.stats().lastError).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message: error.message });
  });

  it('names the field when the answer changed shape', async () => {
    const cases: [string, string][] = [
      ['renamed', 'result.songs[1].name'], ['artists', 'result.songs[0].ar'], ['typed', 'result.songs[0].publishTime'],
      ['bare', '(root object)'], ['noresult', 'result'], ['garbled', '(not JSON)'],
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
    const error = await failure(plugin.invoke('search', search('slow')));
    expect(error.code).toBe('TAGSONIC_ERR_PLUGIN_HTTP_TIMEOUT');
  });
});

describe('netease: lyrics', () => {
  it('asks /api/song/lyric by id and normalises the LRC to [mm:ss.xx], credits included, one stamp per line, in time order', async () => {
    const plugin = await fake.load();
    const lyric = await plugin.invoke('lyrics', { id: '186016' });
    expect(seen.at(-1)!.path).toBe('/api/song/lyric');
    expect(Object.fromEntries(seen.at(-1)!.query)).toEqual({ id: '186016', lv: '-1', kv: '-1', tv: '-1' });
    expect(seen.at(-1)!.headers.referer).toBe('https://music.163.com/');
    expect(lyric).toBe([
      '[00:00.00]作词: 方文山',
      '[00:01.00]作曲: 周杰伦',
      '[00:27.06]故事的小黄花',
      '[00:30.50]从出生那年就飘着',
      '[01:05.00]',
      '[01:20.12]刮风这天 我试过握着你手',
      '[02:01.23]刮风这天 我试过握着你手',
    ].join('\n'));
  });

  it('is null for an instrumental, an uncollected or an empty lyric, refuses an id that is not NetEase\'s, and names a changed field', async () => {
    const plugin = await fake.load();
    await expect(plugin.invoke('lyrics', { id: '1' })).resolves.toBeNull();
    await expect(plugin.invoke('lyrics', { id: '2' })).resolves.toBeNull();
    await expect(plugin.invoke('lyrics', { id: '5' })).resolves.toBeNull();
    const before = seen.length;
    expect(await failure(plugin.invoke('lyrics', { id: '../1' }))).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID' });
    expect(seen.length).toBe(before);
    expect(await failure(plugin.invoke('lyrics', { id: '3' }))).toMatchObject({ message: 'response shape changed: lrc.lyric' });
    expect(await failure(plugin.invoke('lyrics', { id: '4' }))).toMatchObject({ message: 'NetEase answered HTTP 500 to /api/song/lyric.', details: { status: 500 } });
  });
});

describe('netease: artist', () => {
  it('searches artists (type=100), prefers the exact name or alias, and reads the biography of that artist', async () => {
    const plugin = await fake.load();
    const artist = await plugin.invoke('artist', { keyword: 'jay chou' });
    const [lookup, head] = seen.slice(-2);
    expect(lookup!.path).toBe('/api/cloudsearch/pc');
    expect(Object.fromEntries(lookup!.query)).toEqual({ s: 'jay chou', type: '100', limit: '10', offset: '0' });
    expect(head!.path).toBe('/api/artist/head/info/get');
    expect(Object.fromEntries(head!.query)).toEqual({ id: '6452' });
    expect(artist).toEqual({
      name: '周杰伦',
      image: ARTIST_PIC.replace('http://', 'https://'),
      description: '周杰伦（Jay Chou），1979年1月18日出生于台湾省新北市，华语流行乐男歌手、音乐人。',
    });
  });

  it('takes the first hit without an exact match (its small picture made full-size), and is null when nobody matches', async () => {
    const plugin = await fake.load();
    await expect(plugin.invoke('artist', { keyword: 'jay' })).resolves.toEqual({ name: 'Jay Chou Fans', image: 'https://p1.music.126.net/fan.jpg', description: null });
    const before = seen.length;
    await expect(plugin.invoke('artist', { keyword: 'nobody at all' })).resolves.toBeNull();
    expect(seen.length).toBe(before + 1);
  });
});
