import { describe, expect, it } from 'vitest';
import { containsWords, normalise, normaliseArtists, normaliseTitle } from './normalise.ts';
import type { SearchResultSong } from '@tagsonic/sdk';
import { accepts, artistScore, albumScore, distance, rank, scoreCandidate, titleScore, type CandidateSong, type FileTags, type MatchMode } from './score.ts';

describe('normalise', () => {
  it.each([
    ['ＨＥＬＬＯ，  World!', 'hello world'],
    ['許嵩', '许嵩'],
    ['周杰倫', '周杰伦'],
    ["Don't Stop Me Now", 'dont stop me now'],
    ['Don’t  Stop', 'dont stop'],
    ['Björk', 'bjork'],
    ['七里香。', '七里香'],
    ['《夜曲》', '夜曲'],
    ['  A -- B  ', 'a b'],
    ['ｶﾞｰﾃﾞﾝ', 'ガーデン'],
  ])('%s → %s', (input, out) => expect(normalise(input)).toBe(out));
});

describe('normaliseTitle', () => {
  it.each([
    ['晴天', { name: '晴天', versions: [], guests: [] }],
    ['晴天 (Live)', { name: '晴天', versions: ['live'], guests: [] }],
    ['晴天（伴奏）', { name: '晴天', versions: ['伴奏'], guests: [] }],
    ['晴天【現場版】', { name: '晴天', versions: ['现场版'], guests: [] }],
    ['Song (Live) [Remastered 2011]', { name: 'song', versions: ['live', 'remastered 2011'], guests: [] }],
    ['Yesterday - Remastered 2009', { name: 'yesterday', versions: ['remastered 2009'], guests: [] }],
    ['Song - Live at Wembley', { name: 'song', versions: ['live at wembley'], guests: [] }],
    ['Love - Hate', { name: 'love hate', versions: [], guests: [] }],
    ['Song (feat. A & B)', { name: 'song', versions: [], guests: ['a', 'b'] }],
    ['Song [ft. A]', { name: 'song', versions: [], guests: ['a'] }],
    ['Song feat. A', { name: 'song', versions: [], guests: ['a'] }],
    ['Song (feat. A) (Remix)', { name: 'song', versions: ['remix'], guests: ['a'] }],
    ['(Intro)', { name: 'intro', versions: [], guests: [] }],
    ["All Too Well - Taylor's Version", { name: 'all too well', versions: ['taylors version'], guests: [] }],
    ['Featherweight', { name: 'featherweight', versions: [], guests: [] }],
  ])('%s', (input, out) => expect(normaliseTitle(input)).toEqual(out));
});

describe('normaliseArtists', () => {
  it.each([
    ['周杰倫 feat. 五月天', ['周杰伦', '五月天']],
    ['A ft. B', ['a', 'b']],
    ['A featuring B', ['a', 'b']],
    ['A (feat. B)', ['a', 'b']],
    ['A with B', ['a', 'b']],
    ['A、B', ['a', 'b']],
    ['A & B', ['a', 'b']],
    ['A/B/a', ['a', 'b']],
    ['A，B', ['a', 'b']],
    ['A x B', ['a', 'b']],
    ['A, feat. B', ['a', 'b']],
    ['A（feat. B）', ['a', 'b']],
    ['A vs. B', ['a', 'b']],
    ['Beatles, The', ['the beatles']],
    ['Simon & Garfunkel', ['simon', 'garfunkel']],
    ['Defeated Sanity', ['defeated sanity']],
    ['Ｓ．Ｈ．Ｅ', ['s h e']],
    ['', []],
  ])('%s', (input, out) => expect(normaliseArtists(input)).toEqual(out));
});

describe('containsWords', () => {
  it.each([
    ['let it be naked', 'let it be', true],
    ['believe', 'be', false],
    ['晴天娃娃', '晴天', true],
    ['周杰伦 jay chou', '周杰伦', true],
    ['abc', '', false],
    ['', 'a', false],
    ['the be sharps', 'be', true],
  ])('%s ⊇ %s: %s', (outer, inner, out) => expect(containsWords(outer, inner)).toBe(out));
});

describe('scores', () => {
  it.each([
    ['晴天', '晴天', 2],
    ['晴天', '晴天 (Live)', 1],
    ['晴天 (Live)', '晴天（live）', 2],
    ['晴天', '晴天娃娃', 1],
    ['晴天', '七里香', 0],
    ['後來', '后来', 2],
    ['Let It Be', 'let it be', 2],
    ['Let It Be', 'Let It Be (Remastered 2009)', 1],
    ['Be', 'Believe', 0],
    ['Hello', 'Hello (feat. X)', 2],
    ['', '晴天', 0],
    ['Ｈｅｌｌｏ', 'hello', 2],
  ] as const)('title %s vs %s → %d', (file, cand, score) => expect(titleScore(file, cand)).toBe(score));

  it.each([
    ['周杰倫', '周杰伦', 2],
    ['S.H.E', 'SHE', 2],
    ['Ｓ．Ｈ．Ｅ', 's.h.e', 2],
    ['Jay Chou', 'JayChou', 2],
    ['A & B', 'B/A', 2],
    ['A feat. B', 'A、B', 2],
    ['A', 'A feat. B', 1],
    ['A & B', 'B', 1],
    ['周杰伦', '周杰伦 Jay Chou', 1],
    ['周杰伦', '林俊杰', -2],
    ['Taylor Swift', 'Taylor Swift Tribute Band', 1],
    ['Taylor Swift', 'Ed Sheeran', -2],
    ['', '林俊杰', 0],
    ['周杰伦', '', 0],
  ] as const)('artist %s vs %s → %d', (file, cand, score) => expect(artistScore(file, cand)).toBe(score));

  it.each([
    ['叶惠美', '葉惠美', 2],
    ['1989', '1989 (Deluxe Edition)', 1],
    ['1989', 'Red', 0],
    ['', 'Red', 0],
  ] as const)('album %s vs %s → %d', (file, cand, score) => expect(albumScore(file, cand)).toBe(score));

  it('counts guests named in the title as artists', () => {
    expect(scoreCandidate({ title: 'Song (feat. B)', artist: 'A' }, { name: 'Song', artist: 'A feat. B' })).toEqual({
      title_score: 2,
      artist_score: 2,
      album_score: 0,
    });
  });
});

const file: FileTags = { title: '晴天', artist: '周杰倫', album: '葉惠美', duration: 269, track: 3, year: 2003, trackCount: 11 };
const studio: CandidateSong = { name: '晴天', artist: '周杰伦', album: '叶惠美', duration: 269.5, tracknumber: '3', year: '2003', totaltracks: 11 };

describe('accepts', () => {
  const cases: Array<[string, CandidateSong, Record<MatchMode, boolean>]> = [
    ['the same song', studio, { simple: true, normal: true, hard: true }],
    ['the live version', { ...studio, name: '晴天 (Live)' }, { simple: true, normal: true, hard: false }],
    ['another artist', { ...studio, artist: '林俊杰' }, { simple: true, normal: false, hard: false }],
    ['a compilation', { ...studio, album: '叶惠美 (Deluxe)' }, { simple: true, normal: true, hard: false }],
    ['no album', { ...studio, album: '' }, { simple: true, normal: false, hard: false }],
    ['another title', { ...studio, name: '七里香' }, { simple: false, normal: false, hard: false }],
    ['a 40 s longer edit', { ...studio, duration: 309 }, { simple: true, normal: true, hard: false }],
    ['4 s longer', { ...studio, duration: 273 }, { simple: true, normal: true, hard: false }],
    ['3 s longer', { ...studio, duration: 272 }, { simple: true, normal: true, hard: true }],
    ['no duration', { ...studio, duration: undefined }, { simple: true, normal: true, hard: true }],
  ];
  it.each(cases)('%s', (_, cand, expected) => {
    for (const mode of ['simple', 'normal', 'hard'] as const) {
      const diff = cand.duration && file.duration ? Math.abs(cand.duration - file.duration) : null;
      expect([mode, accepts(mode, scoreCandidate(file, cand), diff)]).toEqual([mode, expected[mode]]);
    }
  });
});

describe('distance', () => {
  it('is 0 for the same recording and grows with each difference', () => {
    expect(distance(file, studio)).toBe(0);
    const d1 = distance(file, { ...studio, tracknumber: 4 });
    const d2 = distance(file, { ...studio, tracknumber: 4, year: 2010 });
    expect(d1).toBeGreaterThan(0);
    expect(d2).toBeGreaterThan(d1);
    expect(distance(file, { ...studio, duration: 300 })).toBeGreaterThan(distance(file, { ...studio, duration: 275 }));
  });

  it('puts an unknown value between agreeing and contradicting, and ignores what the file does not know', () => {
    const unknown = distance(file, { ...studio, tracknumber: null });
    expect(unknown).toBeGreaterThan(0);
    expect(unknown).toBeLessThan(distance(file, { ...studio, tracknumber: 9 }));
    expect(distance({ title: '晴天' }, { ...studio, tracknumber: 9, year: 1990 })).toBe(0);
  });

  it('reads track "3/11" and year "2003-07-31"', () => {
    expect(distance(file, { ...studio, tracknumber: '3/11', year: '2003-07-31' })).toBe(0);
  });
});

describe('rank', () => {
  it('prefers the exact title in simple mode and keeps misses out of best', () => {
    const { best, ranked } = rank({ title: '晴天' }, [{ name: '晴天 (Live)' }, { name: '晴天' }, { name: '七里香' }], 'simple');
    expect(best?.name).toBe('晴天');
    expect(ranked.map((c) => [c.name, c.accepted])).toEqual([
      ['晴天', true],
      ['晴天 (Live)', true],
      ['七里香', false],
    ]);
  });

  it('breaks equal scores by distance: duration, then track, year and track count', () => {
    const cands = [
      { ...studio, album: '叶惠美', duration: 290, tracknumber: 1, year: 2010, id: 'remaster' },
      { ...studio, id: 'original' },
      { ...studio, duration: 271, tracknumber: 1, id: 'best-of' },
    ];
    expect(rank(file, cands, 'normal').ranked.map((c) => c.id)).toEqual(['original', 'best-of', 'remaster']);
  });

  it('hard mode never picks a candidate whose duration differs by more than a few seconds', () => {
    const edit = { ...studio, duration: 230, id: 'radio edit' };
    expect(rank(file, [edit], 'hard').best).toBeNull();
    expect(rank(file, [edit, { ...studio, duration: 268, id: 'album' }], 'hard').best?.id).toBe('album');
    expect(rank(file, [edit], 'normal').best?.id).toBe('radio edit');
  });

  it('hard mode holds the duration guard over many candidate sets', () => {
    let seed = 11;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let round = 0; round < 300; round++) {
      const cands = Array.from({ length: 1 + Math.floor(random() * 6) }, (_, i) => ({
        ...studio,
        id: String(i),
        duration: 200 + random() * 140,
        tracknumber: 1 + Math.floor(random() * 4),
      }));
      const { best } = rank(file, cands, 'hard');
      if (best) expect(Math.abs(best.duration! - file.duration!)).toBeLessThanOrEqual(3);
      else expect(cands.every((c) => Math.abs(c.duration - file.duration!) > 3)).toBe(true);
    }
  });

  it('hard mode takes a candidate without a duration, but one with a matching duration first', () => {
    const unknown = { ...studio, duration: null, id: 'unknown' };
    expect(rank(file, [unknown], 'hard').best?.id).toBe('unknown');
    expect(rank(file, [unknown, { ...studio, duration: 270, id: 'known' }], 'hard').best?.id).toBe('known');
  });

  it('ranks a disagreeing artist below an agreeing one and keeps source order for full ties', () => {
    const { ranked } = rank(file, [{ ...studio, artist: '林俊杰', id: 'cover' }, { ...studio, id: 'a' }, { ...studio, id: 'b' }], 'simple');
    expect(ranked.map((c) => [c.id, c.artist_score])).toEqual([
      ['a', 2],
      ['b', 2],
      ['cover', -2],
    ]);
  });

  it('returns no best for no candidates', () => {
    expect(rank(file, [], 'simple')).toEqual({ best: null, ranked: [] });
  });
});

describe('plugin results', () => {
  it('ranks the SDK\'s SearchResultSong as the sources return it', () => {
    const song = (id: string, duration: number | null): SearchResultSong => ({
      id, name: 'Yesterday', artist: 'The Beatles', album: 'Help!', album_img: null, year: '1965',
      tracknumber: 13, totaltracks: 14, discnumber: 1, totaldiscs: 1, duration, resource: 'musicbrainz',
    });
    const tags = { title: 'Yesterday', artist: 'Beatles, The', album: 'Help!', duration: 125 };
    const { best } = rank({ ...tags, artist: 'The Beatles' }, [song('live', 150), song('album', 126)], 'hard');
    expect(best).toMatchObject({ id: 'album', resource: 'musicbrainz', title_score: 2, artist_score: 2, album_score: 2, accepted: true });
    expect(rank(tags, [song('album', 126)], 'normal').best?.artist_score).toBe(2);
  });
});
