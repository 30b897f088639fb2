/**
 * The search answers of the built-in tag sources, for the smart_tag bench: each is the happy-path answer the
 * source's own test replays (test/plugin-<id>.test.ts — the same recorded shapes, trimmed to what a search
 * reads), including the follow-up requests a search makes (NetEase's and Kuwo's album counts). Every search
 * gets the same answer whatever it asks, so each bench request costs each source the same work.
 */
import type { FakeAnswer, ReplayAnswer, SeenRequest } from '../../test/support/replay-server.ts';

const json = (body: unknown): FakeAnswer => [200, 'application/json', body];
const notFound: FakeAnswer = [404, 'text/html', '<html>Not Found</html>'];

// ---------------------------------------------------------------- NetEase (test/plugin-netease.test.ts)
const NETEASE_PIC = 'http://p2.music.126.net/Zr3nB1qWmJvYc9b_HY0eAw==/109951163984222941.jpg';
const NETEASE_SUNNY = {
  name: '晴天', id: 186016, pst: 0, t: 0, alia: [], pop: 100, st: 0, rt: '', fee: 1, v: 75, crbt: null, cf: '',
  ar: [{ id: 6452, name: '周杰伦', tns: [], alias: [] }],
  al: { id: 18905, name: '叶惠美', picUrl: `${NETEASE_PIC}?param=130y130`, tns: [], pic_str: '109951163984222941', pic: 109951163984222941 },
  dt: 269_000, h: { br: 320000, fid: 0, size: 10_768_123, vd: -45_000 }, cd: '01', no: 3, publishTime: 1_059_580_800_000,
  mark: 8192, originCoverType: 1, single: 0, mv: 504_177, mst: 9, cp: 1_007_001, djId: 0, copyright: 1, rtype: 0,
};
const NETEASE_SUNNY_DUET = {
  ...NETEASE_SUNNY, id: 1_463_165_983, name: '晴天 (Live)', ar: [{ id: 6452, name: '周杰伦' }, { id: 12_138_269, name: '五月天' }],
  al: { id: 92_511_222, name: '地表最强演唱会', picUrl: 'https://p1.music.126.net/7Mq2vDbyNf3O1wqTuiR6rg==/109951165047210556.jpg' },
  dt: 285_410, cd: '2', no: 11, publishTime: 1_594_310_400_000,
};
const NETEASE_ALBUMS: Record<string, unknown> = {
  '18905': { code: 200, resourceState: true, album: { id: 18905, name: '叶惠美', size: 11, publishTime: 1_059_580_800_000, company: '杰威尔音乐' },
    songs: Array.from({ length: 11 }, (_, i) => ({ id: 186000 + i, name: `track ${i + 1}`, no: i + 1, cd: '01' })) },
  '92511222': { code: 200, album: { id: 92_511_222, name: '地表最强演唱会', size: null },
    songs: [{ id: 1, no: 1, cd: '1' }, { id: 2, no: 2, cd: '1' }, { id: 3, no: 1, cd: '2' }] },
};
const netease: ReplayAnswer = (path) => {
  if (path === '/api/cloudsearch/pc') return json({ result: { searchQcReminder: null, songs: [NETEASE_SUNNY, NETEASE_SUNNY_DUET], songCount: 2 }, code: 200 });
  const album = /^\/api\/v1\/album\/(\d+)$/.exec(path)?.[1];
  return album ? json(NETEASE_ALBUMS[album] ?? { code: 200, album: { id: Number(album), size: 0 }, songs: [] }) : notFound;
};

// ---------------------------------------------------------------- QQ Music (test/plugin-qmusic.test.ts)
const QQ_SUNNY = {
  id: 97773, mid: '0039MnYb0qxYhV', name: '晴天', title: '晴天', subtitle: '', interval: 269, index_album: 3, index_cd: 0,
  time_public: '2003-07-31', language: 0, genre: 1, isonly: 0,
  singer: [{ id: 4558, mid: '0025NhlN2yWrP4', name: '周杰伦', title: '周杰伦', type: 0, uin: 0 }],
  album: { id: 8220, mid: '000MkMni19ClKG', name: '叶惠美', title: '叶惠美', subtitle: '', time_public: '2003-07-31', pmid: '000MkMni19ClKG_3' },
  file: { media_mid: '0039MnYb0qxYhV', size_128mp3: 4321230, size_320mp3: 10802740, size_flac: 30286217 },
  mv: { id: 0, vid: '', name: '', title: '' },
};
const QQ_SUNNY_LIVE = {
  ...QQ_SUNNY, id: 5105986, mid: '002hXDfk0LX9KO', title: '晴天 (Live)', interval: 301, index_album: 7, index_cd: 1, time_public: '',
  singer: [{ id: 4558, mid: '0025NhlN2yWrP4', name: '周杰伦' }, { id: 6499, mid: '003Nz2So3XXYek', name: '陈奕迅' }],
  album: { id: 122000, mid: '001ZaCQY2OxVMg', name: '地表最强世界巡回演唱会', title: '地表最强世界巡回演唱会', time_public: '2019-05-01' },
};
const qmusic: ReplayAnswer = (path) => path === '/cgi-bin/musicu.fcg'
  ? json({ code: 0, ts: 1764000000000, start_ts: 1764000000000, traceid: 'f0e1d2', req: { code: 0, data: {
    code: 0, ver: 1, body: { song: { list: [QQ_SUNNY, QQ_SUNNY_LIVE], totalnum: 2, curnum: 2, curpage: 1 } }, meta: { sum: 2 } } } })
  : notFound;

// ---------------------------------------------------------------- Kugou (test/plugin-kugou.test.ts)
const KUGOU_SUNNY = {
  SongName: '<em>晴天</em>', OriSongName: '晴天', SingerName: '周杰伦', Singers: [{ name: '周杰伦', id: 3520 }], AlbumName: '叶惠美',
  AlbumID: '960399', FileHash: 'B8B4E2E5A5E56B4C3E0A1C2D3E4F5A6B', HQFileHash: 'A1', SQFileHash: 'B2', Duration: 269, PublishTime: '2003-07-31 00:00:00',
  Image: 'http://imge.kugou.com/stdmusic/{size}/20150718/20150718120613556308.jpg', EMixSongID: '2sxnhi5a', Audioid: 3230455, PayType: 3,
};
const KUGOU_SUNNY_LIVE = {
  ...KUGOU_SUNNY, SongName: '晴天 (Live)', SingerName: '周杰伦、五月天', Singers: [{ name: '周杰伦', id: 3520 }, { name: '五月天', id: '3539' }],
  AlbumName: '地表最强 &amp; 朋友', FileHash: '0f1e2d3c4b5a69788796a5b4c3d2e1f0', Duration: 301,
  PublishTime: '2017-01-01', Image: 'http://imge.kugou.com/stdmusic/{size}/20170101/20170101000000000001.jpg',
};
const kugou: ReplayAnswer = (path) => path === '/v2/search/song'
  ? json({ status: 1, error_code: 0, error_msg: '', data: { page: 1, pagesize: 2, total: 2, lists: [KUGOU_SUNNY, KUGOU_SUNNY_LIVE] } })
  : notFound;

// ---------------------------------------------------------------- Kuwo (test/plugin-kuwo.test.ts)
const KUWO_SUNNY = {
  AARTIST: '', ALBUM: '叶惠美', ALBUMID: '1293', ARTIST: '周杰伦', ARTISTID: '336', COPYRIGHT: '0', DURATION: '269',
  FORMAT: 'wma|mp3|flac', MUSICRID: 'MUSIC_228908', NAME: '晴天', SONGNAME: '晴天', PAY: '16515324', MVFLAG: '1',
  N_MINFO: 'level:ff,bitrate:2000,format:flac,size:30.12Mb;level:h,bitrate:128,format:mp3,size:4.12Mb',
  web_albumpic_short: '120/s3s94/93/211513640.jpg', web_artistpic_short: '120/s4s26/58/3409744034.jpg',
};
const KUWO_SUNNY_LIVE = {
  ...KUWO_SUNNY, MUSICRID: 'MUSIC_155061872', ALBUMID: '9999', NAME: '晴天&nbsp;(Live)', SONGNAME: '晴天&nbsp;(Live)', ARTIST: '周杰伦&五月天',
  ALBUM: 'Rock &amp; Roll 演唱会', DURATION: 285, web_albumpic_short: 'http://img2.kuwo.cn/star/albumcover/300/58/12/3046115923.jpg',
};
const KUWO_YEHUIMEI = "{'albumid':'1293','name':'叶惠美','artist':'周杰伦','pub':'2003-07-31','songnum':'11','info':'第四张专辑'," +
  "'musiclist':[{'id':'228906','name':'以父之名'},{'id':'228907','name':'懦夫'},{'id':'228908','name':'晴天'}]}";
const KUWO_LIVE_ALBUM = { albumid: '9999', name: 'Rock & Roll 演唱会', musiclist: [{ id: '1', name: 'a' }, { id: '2', name: 'b' }] };
const kuwo: ReplayAnswer = (path, query) => {
  if (path !== '/r.s') return notFound;
  if (query.get('stype') === 'albuminfo') {
    const album = query.get('albumid');
    return album === '1293' ? [200, 'text/plain', KUWO_YEHUIMEI] : json(album === '9999' ? KUWO_LIVE_ALBUM : { albumid: album, musiclist: [] });
  }
  return json({ HIT: '2', HITMODE: 'song', PN: '0', RN: '10', SHOW: '1', TOTAL: '2', abslist: [KUWO_SUNNY, KUWO_SUNNY_LIVE] });
};

// ---------------------------------------------------------------- Migu (test/plugin-migu.test.ts)
const MIGU_SUNNY = {
  resourceType: '2', contentId: '600907000009041441', copyrightId: '60054704037', songId: '1004392543', name: '晴天',
  singerList: [{ id: '112', name: '周杰伦', img: 'https://d.musicapp.migu.cn/data/oss/resource/00/1l/ra/7a9e.webp' }],
  albumId: '1003767159', album: '叶惠美', duration: 269,
  img1: 'https://d.musicapp.migu.cn/data/oss/resource/00/2q/fb/s/a1b2c3.webp',
  img2: 'https://d.musicapp.migu.cn/data/oss/resource/00/2q/fb/m/a1b2c3.webp',
  img3: 'https://d.musicapp.migu.cn/data/oss/resource/00/2q/fb/a1b2c3.webp',
  lrcUrl: 'https://d.musicapp.migu.cn/data/oss/resource/00/2k/lrc/60054704037.lrc', trcUrl: '',
};
const MIGU_REUPLOAD = { ...MIGU_SUNNY, copyrightId: '6005661F31N', songId: '1106588664', album: '晴天 (单曲)', duration: 270, img3: '', img2: '/data/oss/resource/00/3a/single/m.jpg' };
const MIGU_LIVE = {
  ...MIGU_SUNNY, copyrightId: '63273400372', songId: '1135023842', name: '晴天 (Live)', album: '地表最强世界巡回演唱会', duration: 301,
  singerList: [{ id: '112', name: '周杰伦' }, { id: '116', name: '陈奕迅' }],
};
const migu: ReplayAnswer = (path) => path === '/music_search/v3/search/searchAll'
  ? json({ code: '000000', info: '成功', songResultData: { totalCount: '4', resultList: [[MIGU_SUNNY, MIGU_REUPLOAD, MIGU_SUNNY], [MIGU_LIVE]], correct: [] } })
  : notFound;

// ---------------------------------------------------------------- iTunes (test/plugin-itunes.test.ts)
const ITUNES_ART = 'https://is1-ssl.mzstatic.com/image/thumb/Music115/v4/7a/0b/b6/7a0bb6b0-8a3f-4c1e-2c58-0a7f0d1f1f57/source/100x100bb.jpg';
const ITUNES_YESTERDAY = {
  wrapperType: 'track', kind: 'song', artistId: 136975, collectionId: 1441164426, trackId: 1441164430,
  artistName: 'The Beatles', collectionName: 'Help!', trackName: 'Yesterday', collectionCensoredName: 'Help!', trackCensoredName: 'Yesterday',
  artworkUrl30: ITUNES_ART.replace('100x100bb', '30x30bb'), artworkUrl60: ITUNES_ART.replace('100x100bb', '60x60bb'), artworkUrl100: ITUNES_ART,
  releaseDate: '1965-08-06T12:00:00Z', collectionExplicitness: 'notExplicit', trackExplicitness: 'notExplicit',
  discCount: 1, discNumber: 1, trackCount: 14, trackNumber: 13, trackTimeMillis: 125_667, country: 'USA', currency: 'USD',
  primaryGenreName: 'Rock', isStreamable: true,
};
const ITUNES_YESTERDAY_LIVE = {
  ...ITUNES_YESTERDAY, trackId: 1441164999, collectionId: 1441164990, collectionName: 'Live at the BBC', trackCount: 69, trackNumber: 58,
  discCount: 2, discNumber: 2, trackTimeMillis: 155_000, releaseDate: '1994-11-30T08:00:00Z',
};
const itunes: ReplayAnswer = (path) => path === '/search'
  ? [200, 'text/javascript; charset=utf-8', { resultCount: 2, results: [ITUNES_YESTERDAY, ITUNES_YESTERDAY_LIVE] }]
  : notFound;

// ---------------------------------------------------------------- MusicBrainz (test/plugin-musicbrainz.test.ts)
const MB_ANSWER = {
  created: '2026-11-25T15:00:00.000Z', count: 2, offset: 0,
  recordings: [
    {
      id: '8a2b1b3c-6b0e-4d5f-9a4e-0f3a3b6c7d01', score: 100, title: 'Yesterday', length: 125_666, video: null,
      'artist-credit': [{ name: 'The Beatles', joinphrase: '', artist: { id: 'b10bbbfc-cf9e-42e0-be17-e2c3e1d2600d', name: 'The Beatles' } }],
      releases: [
        { id: '1f8b7c2d-3e4a-4b5c-8d9e-0a1b2c3d4e02', title: 'Help!', status: 'Official', date: '1965-08-06', 'track-count': 14, 'medium-count': 1,
          media: [{ position: 1, format: 'CD', track: [{ id: 't1', number: '13', title: 'Yesterday', length: 125_666 }], 'track-count': 14, 'track-offset': 12 }] },
        { id: '2a9c8d3e-4f5b-4c6d-9e0f-1b2c3d4e5f03', title: 'Yesterday', status: 'Official', date: '1965',
          media: [{ position: 1, format: '7" Vinyl', track: [{ id: 't2', number: 'A', title: 'Yesterday' }], 'track-count': 2, 'track-offset': 0 }] },
        { id: '3b0d9e4f-5a6c-4d7e-8f1a-2c3d4e5f6a04', title: '1', 'track-count': 27,
          media: [{ position: 2, track: [{ id: 't3', number: '11', position: 11, title: 'Yesterday' }], 'track-count': 0 }] },
      ],
    },
    {
      id: '5d2f1a6b-7c8e-4f9a-8b3c-4e5f6a7b8c06', score: 90, title: 'Yesterday (live)', length: 181_000,
      'artist-credit': [{ name: 'Paul McCartney', joinphrase: ' & ' }, { name: 'Wings', joinphrase: '' }],
    },
  ],
};
const musicbrainz: ReplayAnswer = (path) => (path === '/ws/2/recording' ? json(MB_ANSWER) : [404, 'application/json', { error: 'Not Found' }]);

/** The replay of each source smart_tag asks by default, by plugin id. */
export const SOURCE_REPLAYS: Readonly<Record<string, ReplayAnswer>> = { netease, qmusic, kugou, kuwo, migu, itunes, musicbrainz };

/** Which of a source's requests is its song search (one per search; the others are a search's follow-ups). */
export const IS_SEARCH: Readonly<Record<string, (request: SeenRequest) => boolean>> = {
  netease: (r) => r.path === '/api/cloudsearch/pc',
  qmusic: (r) => r.path === '/cgi-bin/musicu.fcg',
  kugou: (r) => r.path === '/v2/search/song',
  kuwo: (r) => r.path === '/r.s' && r.query.get('ft') === 'music',
  migu: (r) => r.path === '/music_search/v3/search/searchAll',
  itunes: (r) => r.path === '/search',
  musicbrainz: (r) => r.path === '/ws/2/recording',
};
