import { describe, expect, it } from 'vitest';
import { ConverterFactory } from 'opencc-js/core';
import TS_CHARACTERS from 'opencc-js/dict/TSCharacters';
import { fold, indexLetter, matchesTerms, renameArtistIn, searchFold, searchTerms, sortKey, splitArtists, splitGenres, toSimplified } from './text.ts';
import { albumIdFor, artistIdFor, folderIdFor, idKind } from './ids.ts';
import { orderKey } from './catalog.ts';

describe('fold', () => {
  it('ignores case, width and Latin accents', () => {
    expect(fold('ＰＡＰＥＲ Ｓｉｇｎａｌ')).toBe('paper signal');
    expect(fold('Björk Guðmundsdóttir')).toBe('bjork gudmundsdottir');
    expect(fold('Łukasz Żółć')).toBe('lukasz zolc');
    expect(fold('Café NOIR')).toBe('cafe noir');
  });

  it('keeps CJK as it is, and kana marks (が is not か)', () => {
    expect(fold('周杰倫')).toBe('周杰倫');
    expect(fold('が')).not.toBe(fold('か'));
    expect(fold('ｶﾞ')).toBe('ガ');
  });
});

describe('splitArtists', () => {
  it('splits on every separator of the spec and keeps order', () => {
    expect(splitArtists('A/B')).toEqual(['A', 'B']);
    expect(splitArtists('A & B')).toEqual(['A', 'B']);
    expect(splitArtists('城市漫遊者、李曉東')).toEqual(['城市漫遊者', '李曉東']);
    expect(splitArtists('A,B')).toEqual(['A', 'B']);
    expect(splitArtists('ミドリノソラ，月影バンド')).toEqual(['ミドリノソラ', '月影バンド']);
    expect(splitArtists('赵长青 feat. 张国华')).toEqual(['赵长青', '张国华']);
    expect(splitArtists('A ft. B')).toEqual(['A', 'B']);
    expect(splitArtists('A Feat B')).toEqual(['A', 'B']);
    expect(splitArtists('A (feat. B, C)')).toEqual(['A', 'B', 'C']);
    expect(splitArtists('A, feat. B')).toEqual(['A', 'B']);
  });

  it('drops empties and duplicates, and leaves words containing "feat" alone', () => {
    expect(splitArtists(' A / / a ')).toEqual(['A']);
    expect(splitArtists('Defeated Sanity')).toEqual(['Defeated Sanity']);
    expect(splitArtists('Featherweight')).toEqual(['Featherweight']);
    expect(splitArtists('')).toEqual([]);
  });
});

describe('renameArtistIn', () => {
  it('renames the whole string or only the matching name, keeping the others and the separators as written', () => {
    expect(renameArtistIn('Alpha', 'alpha', 'Alef')).toBe('Alef');
    expect(renameArtistIn('Alpha/Beta', 'Alpha', 'Alef')).toBe('Alef/Beta');
    expect(renameArtistIn('Beta; Alpha', 'Alpha', 'Alef')).toBe('Beta; Alef');
    expect(renameArtistIn('Alpha feat. Beta', 'Beta', 'Bet')).toBe('Alpha feat. Bet');
    expect(renameArtistIn('周杰伦、五月天', '五月天', 'Mayday')).toBe('周杰伦、Mayday');
    expect(renameArtistIn('Simon & Garfunkel', 'Simon & Garfunkel', 'S&G')).toBe('S&G');
    expect(renameArtistIn('Alpha/Beta', 'Alpha', '$& cash')).toBe('$& cash/Beta');
  });

  it('is null when no name is the artist (a longer name that contains it is another artist)', () => {
    expect(renameArtistIn('Alphabet/Beta', 'Alpha', 'Alef')).toBeNull();
    expect(renameArtistIn('Gamma', 'Alpha', 'Alef')).toBeNull();
  });
});

describe('splitGenres', () => {
  it('splits ; , / and keeps &', () => {
    expect(splitGenres(['Indie;Electronic'])).toEqual(['Indie', 'Electronic']);
    expect(splitGenres(['Pop; Hip-Hop', 'pop'])).toEqual(['Pop', 'Hip-Hop']);
    expect(splitGenres(['民謠, Indie'])).toEqual(['民謠', 'Indie']);
    expect(splitGenres(['R&B', 'Drum & Bass'])).toEqual(['R&B', 'Drum & Bass']);
  });
});

describe('index letters and order', () => {
  it('ignores articles and accents', () => {
    expect(indexLetter('The Beatles')).toBe('B');
    expect(indexLetter('Les Étoiles Perdues')).toBe('E');
    expect(indexLetter('Die Ärzte')).toBe('A');
    expect(indexLetter('A-ha')).toBe('A');
    expect(indexLetter('Édith Piaf')).toBe('E');
    expect(sortKey('The The')).toBe('the');
  });

  it('puts Chinese names under their pinyin initial', () => {
    const cases: Record<string, string> = { 周杰伦: 'Z', 王菲: 'W', 林俊杰: 'L', 陈奕迅: 'C', 張學友: 'Z', 劉德華: 'L', 蔡依林: 'C', 五月天: 'W', 阿杜: 'A', 八三夭: 'B', 邓紫棋: 'D', 郭听风: 'G' };
    for (const [name, letter] of Object.entries(cases)) expect(indexLetter(name), name).toBe(letter);
  });

  it('groups digits, kana and hangul under #', () => {
    expect(indexLetter('2Cellos')).toBe('#');
    expect(indexLetter('ミドリノソラ')).toBe('#');
    expect(indexLetter('별빛소년')).toBe('#');
  });

  it('orders naturally (Vol. 2 before Vol. 10) and Chinese among Latin by initial', () => {
    const names = ['Vol. 10', 'Vol. 2', '周杰伦', 'Zoe', 'Adele', '阿杜', 'Bob'];
    expect([...names].sort((a, b) => (orderKey(a) < orderKey(b) ? -1 : 1))).toEqual(['Adele', '阿杜', 'Bob', 'Vol. 2', 'Vol. 10', 'Zoe', '周杰伦']);
  });
});

describe('search terms', () => {
  it('folds words and drops quotes and wildcards', () => {
    expect(searchTerms('"Café"  Noir*')).toEqual(['cafe', 'noir']);
    expect(searchTerms('*')).toEqual([]);
    expect(searchTerms(undefined)).toEqual([]);
    expect(matchesTerms(fold('Café Noir à Paris'), searchTerms('paris CAFE'))).toBe(true);
    expect(matchesTerms(fold('Café Noir'), searchTerms('paris'))).toBe(false);
  });
});

describe('ids', () => {
  it('derives stable album, artist and folder ids and tells kinds apart', () => {
    expect(albumIdFor('The Band', 'Album')).toBe(albumIdFor('the band', 'ALBUM'));
    expect(albumIdFor('A', 'B')).not.toBe(albumIdFor('B', 'A'));
    expect(artistIdFor('Björk')).toBe(artistIdFor('bjork'));
    expect(idKind(albumIdFor('a', 'b'))).toBe('album');
    expect(idKind(artistIdFor('a'))).toBe('artist');
    expect(idKind(folderIdFor('/music'))).toBe('folder');
    expect(idKind('0192a3b4c5d6e7f8a9b0c1d2')).toBe('track');
    expect(idKind('2')).toBe('musicFolder');
    expect(idKind('al-xyz')).toBeNull();
    expect(idKind('../etc/passwd')).toBeNull();
  });
});

describe('text index', () => {
  it('finds entries holding every term, in order, never across entries', async () => {
    const { buildTextIndex, matchingEntries } = await import('./text-index.ts');
    const index = buildTextIndex(['paper signal', 'signal paper', 'paperback', '青春之歌', 'nothing', 'pa', 'per']);
    const find = (...terms: string[]) => [...matchingEntries(index, terms)];
    expect(find('paper')).toEqual([0, 1, 2]);
    expect(find('signal', 'paper')).toEqual([0, 1]);
    expect(find('青春')).toEqual([3]);
    expect(find('paper', 'zzz')).toEqual([]);
    // "pa" + "per" are separate entries: no match spanning them.
    expect(find('paper', 'nothing')).toEqual([]);
    expect(find('aper')).toEqual([0, 1, 2]);
    expect(find()).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect([...matchingEntries(buildTextIndex([]), ['x'])]).toEqual([]);
  });

  it('matches what a plain filter finds, for ASCII, Latin, CJK, Hangul and kana terms alike', async () => {
    const { buildTextIndex, matchingEntries } = await import('./text-index.ts');
    // Deterministic pseudo-random entries over a mixed alphabet: every signature bit, including the
    // sign bits of both words, is exercised, and CJK terms take the signature path.
    const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789 青春之歌爱情与海洋愛情與飛鳥그리운너에게さくら色の空éñ\u0001';
    let seed = 7;
    const rnd = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const word = (len: number) => Array.from({ length: len }, () => alphabet[rnd(alphabet.length)]).join('');
    const entries = Array.from({ length: 2000 }, () => word(5 + rnd(40)));
    const index = buildTextIndex(entries);
    for (let q = 0; q < 300; q++) {
      const terms = Array.from({ length: 1 + rnd(2) }, () => {
        const e = entries[rnd(entries.length)]!;
        const at = rnd(e.length);
        return e.slice(at, at + 1 + rnd(3)).replace(/[ \u0001]/g, '') || 'a';
      });
      const expected = entries.flatMap((e, i) => (terms.every((t) => e.includes(t)) ? [i] : []));
      expect([...matchingEntries(index, terms)], JSON.stringify(terms)).toEqual(expected);
    }
  });
});

describe('searchFold', () => {
  it('folds traditional Chinese into simplified, character by character, on top of fold', () => {
    expect(searchFold('許麗佳')).toBe('许丽佳');
    expect(searchFold('劉靜佳')).toBe(searchFold('刘静佳'));
    expect(searchFold('裡面 裏面')).toBe('里面 里面');
    // Character by character: a word the phrase tables keep (乾隆) still matches its single characters.
    expect(searchFold('乾隆')).toContain(searchFold('乾'));
    expect(searchFold('ＰＡＰＥＲ Björk')).toBe(fold('ＰＡＰＥＲ Björk'));
    expect(searchFold('ひだまり 여름')).toBe('ひだまり 여름');
  });

  it('converts exactly as opencc-js does with the same table, for every entry and in mixed text', () => {
    const opencc = ConverterFactory([TS_CHARACTERS]);
    const keys = TS_CHARACTERS.split('|').map((e) => e.split(' ')[0]!);
    expect(keys.length).toBeGreaterThan(3000);
    for (const k of keys) expect(toSimplified(k), k).toBe(opencc(k));
    const mixed = keys.map((k, i) => (i % 7 === 0 ? ` ${k}Ab1 ` : k)).join('');
    expect(toSimplified(mixed)).toBe(opencc(mixed));
    for (const text of ['周杰倫 feat. 林俊傑', 'Björk ひだまり 여름 😀 許', '𠵾 㗲 許', '', 'plain ascii']) expect(toSimplified(text), text).toBe(opencc(text));
  });

  it('gives search terms in the same form as the index', () => {
    expect(searchTerms('許麗佳 長夜')).toEqual(['许丽佳', '长夜']);
    expect(matchesTerms(searchFold('許麗佳\u0001長夜'), searchTerms('许丽佳 长夜'))).toBe(true);
  });
});
