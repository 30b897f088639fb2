import { describe, expect, it } from 'vitest';
import { formatStamp, lyricLines, normaliseLrc } from '@tagsonic/sdk';
import { extractCredits } from './credits.ts';

describe('normaliseLrc', () => {
  it.each([
    ['[1:02]line', '[01:02.00]line'],
    ['[01:02.5]line', '[01:02.50]line'],
    ['[01:02.34]line', '[01:02.34]line'],
    ['[01:02.345]line', '[01:02.35]line'],
    ['[01:02.344]line', '[01:02.34]line'],
    ['[01:02:34]line', '[01:02.34]line'],
    ['[01:59.999]line', '[02:00.00]line'],
    ['[123:04.56]long', '[123:04.56]long'],
    ['  [00:01.00] spaced  ', '[00:01.00] spaced'],
    ['[00:01.00]', '[00:01.00]'],
  ])('%s → %s', (input, out) => expect(normaliseLrc(input)).toBe(out));

  it('turns CRLF and CR into LF and drops a BOM', () => {
    expect(normaliseLrc('\uFEFF[ti:晴天]\r\n[00:01.00]a\r[00:02.00]b\r\n')).toBe('[ti:晴天]\n[00:01.00]a\n[00:02.00]b\n');
  });

  it('writes one line per stamp, in time order, keeping same-time lines in their order', () => {
    const lrc = ['[ar:周杰伦]', '[00:10.00][00:40.00]副歌', '[00:20.00]主歌', '[00:40.00]副歌翻译'].join('\n');
    expect(normaliseLrc(lrc)).toBe(['[ar:周杰伦]', '[00:10.00]副歌', '[00:20.00]主歌', '[00:40.00]副歌', '[00:40.00]副歌翻译'].join('\n'));
  });

  it('applies [offset:] (positive = sooner) to every stamp, never below zero, and removes the tag', () => {
    expect(normaliseLrc('[offset:+500]\n[00:00.20]a\n[00:10.00]b')).toBe('[00:00.00]a\n[00:09.50]b');
    expect(normaliseLrc('[00:10.00]b\n[offset:-250]')).toBe('[00:10.25]b');
    expect(normaliseLrc('[Offset: 1000]\n[00:05]x')).toBe('[00:04.00]x');
  });

  it('keeps untimed lines with the timed line they followed, and plain lyrics as they are', () => {
    expect(normaliseLrc('[00:20.00]b\nnote\n[00:10.00]a')).toBe('[00:10.00]a\n[00:20.00]b\nnote');
    expect(normaliseLrc('故事的小黄花\r\n从出生那年就飘着')).toBe('故事的小黄花\n从出生那年就飘着');
    expect(normaliseLrc('')).toBe('');
  });

  it('leaves word-level stamps and bracketed text after the line stamp alone', () => {
    expect(normaliseLrc('[00:01.00]<00:01.00>a <00:01.50>b [chorus]')).toBe('[00:01.00]<00:01.00>a <00:01.50>b [chorus]');
  });

  it('is idempotent', () => {
    for (const lrc of ['[offset:+500]\n[00:00.20]a\n[00:10.00]b', '[ar:x]\r\n[00:10][00:05.555]a\nnote\n[1:00:5]b', 'plain\r\ntext']) {
      const once = normaliseLrc(lrc);
      expect(normaliseLrc(once)).toBe(once);
    }
  });

  it('formats stamps', () => {
    expect(formatStamp(0)).toBe('[00:00.00]');
    expect(formatStamp(61_005)).toBe('[01:01.01]');
  });
});

describe('lyricLines', () => {
  it('drops stamps and header tags', () => {
    expect(lyricLines('[ti:x]\n[00:01.00][00:02.00] a\n b ')).toEqual(['a', 'b']);
  });
});

describe('extractCredits', () => {
  it.each([
    ['netease header', '[00:00.000] 作词 : 方文山\n[00:01.000] 作曲 : 周杰伦\n[00:02.000] 编曲 : 洪敬尧\n[00:12.00]故事的小黄花', '周杰伦', '方文山'],
    ['full-width colons, traditional', '作詞：方文山\n作曲：周杰倫\n\n窗外的麻雀', '周杰倫', '方文山'],
    ['short labels', '词：林夕\n曲：陈小霞\n编曲：XX\n歌词第一行', '陈小霞', '林夕'],
    ['词曲 fills both', '词曲：李宗盛\n越过山丘', '李宗盛', '李宗盛'],
    ['作词/作曲 fills both', '作词/作曲：李宗盛\n越过山丘', '李宗盛', '李宗盛'],
    ['English by-lines', 'Lyrics by Bernie Taupin\nComposed by Elton John\n\nIt\'s a little bit funny', 'Elton John', 'Bernie Taupin'],
    ['Written by fills both', '[00:00.00]Written by: Ed Sheeran\n[00:05.00]The club isn\'t the best place', 'Ed Sheeran', 'Ed Sheeran'],
    ['Words and music by', 'Words and Music by Paul Simon\nHello darkness', 'Paul Simon', 'Paul Simon'],
    ['own lines beat Written by', 'Written by A\nLyrics by B\nla la', 'A', 'B'],
    ['Composer: / Lyricist:', 'Lyricist: Tim Rice\nComposer: Andrew Lloyd Webber\nDon\'t cry for me', 'Andrew Lloyd Webber', 'Tim Rice'],
    ['credits at the end', '[00:01.00]第一句\n[00:02.00]第二句\n[03:00.00]作词：甲\n[03:01.00]作曲：乙', '乙', '甲'],
    ['LRC tags before the credits', '[ti:晴天]\n[ar:周杰伦]\n[by:someone]\n[00:00.00]作曲 : 周杰伦\n[00:10.00]歌词', '周杰伦', ''],
    ['no credits', '[00:01.00]故事的小黄花\n[00:02.00]从出生那年就飘着', '', ''],
    ['a colon inside the lyric is not a credit', '[00:01.00]你说：我们的爱情 就像一首没有写完的歌 曲：未完\n', '', ''],
    ['only the header counts', '[00:01.00]第一句\n[00:02.00]曲：不是\n[00:03.00]最后一句', '', ''],
    ['empty', '', '', ''],
  ])('%s', (_, lyric, composer, lyricist) => expect(extractCredits(lyric)).toEqual({ composer, lyricist }));
});
