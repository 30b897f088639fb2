import { describe, expect, it } from 'vitest';
import { checkTemplate, renderTemplate, songNameOf, templateVariables, TEMPLATE_VARIABLES } from './template.ts';
import { indexLetter } from './letter.ts';
import { compileSafeRegex, replaceText } from './safe-regex.ts';

describe('templates', () => {
  const vars = templateVariables('/m/周杰伦/叶惠美/03. 周杰伦 - 晴天.flac', {
    title: '晴天',
    artist: '周杰伦/方文山',
    album: '叶惠美',
    tracknumber: '3',
    year: '2003',
    lyrics: null,
  });

  it('offers exactly the spec variables, from tags and path', () => {
    expect(Object.keys(vars).sort()).toEqual([...TEMPLATE_VARIABLES].sort());
    expect(vars).toMatchObject({
      first_artist: '周杰伦',
      first_artist_letter: 'Z',
      filename: '03. 周杰伦 - 晴天',
      file_song_name: '晴天',
      parent_path: '叶惠美',
      parent_parent_path: '周杰伦',
      lyrics: '',
      null: '',
    });
  });

  it('renders, keeps literal text and refuses unknown variables clearly', () => {
    expect(renderTemplate('${tracknumber}. ${title} (${year})', vars)).toBe('3. 晴天 (2003)');
    expect(renderTemplate('${ title }$5 {x}', vars)).toBe('晴天$5 {x}');
    expect(renderTemplate('${null}', vars)).toBe('');
    expect(() => renderTemplate('${albumartists}', vars)).toThrow(/Unknown variable \$\{albumartists\}; use one of/);
    expect(() => checkTemplate('${title} ${bogus}')).toThrow(expect.objectContaining({ code: 'TAGSONIC_ERR_TEMPLATE_UNKNOWN_VARIABLE' }));
  });

  it('takes the song name out of common file-name shapes', () => {
    expect(songNameOf('01 Song')).toBe('Song');
    expect(songNameOf('01-Song')).toBe('Song');
    expect(songNameOf('Artist - Song')).toBe('Song');
    expect(songNameOf('2046')).toBe('2046');
    expect(songNameOf('Song')).toBe('Song');
  });

  it('gives index letters: Latin, accented Latin, pinyin initials, # otherwise', () => {
    expect(['Beyond', 'éric', '阿杜', '周杰伦', '王菲', '林俊杰', '1983', '', 'ひだまり'].map(indexLetter)).toEqual(['B', 'E', 'A', 'Z', 'W', 'L', '#', '#', '#']);
  });
});

describe('safe regexes', () => {
  it('matches named groups in both spellings and replaces with $n and $<name>', () => {
    const re = compileSafeRegex('(?<artist>.+?) - (?P<title>.+)');
    expect(re.match('A - B')?.groups).toEqual({ artist: 'A', title: 'B' });
    expect(compileSafeRegex('(\\w+)@(?<d>\\w+)').replaceAll('x@y z@w', '$<d>:$1').text).toBe('y:x w:z');
    expect(compileSafeRegex('[(]x[)]').replaceAll('(x)', 'y')).toEqual({ text: 'y', count: 1 });
    expect(compileSafeRegex('abc', { ignoreCase: true }).match('xABC')).not.toBeNull();
  });

  it('runs catastrophic patterns in linear time and refuses what RE2 cannot do', () => {
    const t = performance.now();
    expect(compileSafeRegex('(a|aa)+$').match(`${'a'.repeat(30_000)}b`)).toBeNull();
    expect(compileSafeRegex('(x+x+)+y').match('x'.repeat(30_000))).toBeNull();
    expect(performance.now() - t).toBeLessThan(1000);
    expect(() => compileSafeRegex('(?=a)')).toThrow(expect.objectContaining({ code: 'TAGSONIC_ERR_REGEX_INVALID' }));
    expect(() => compileSafeRegex('(a)\\1')).toThrow(expect.objectContaining({ code: 'TAGSONIC_ERR_REGEX_INVALID' }));
    expect(() => compileSafeRegex('')).toThrow(expect.objectContaining({ code: 'TAGSONIC_ERR_REGEX_EMPTY' }));
    expect(() => compileSafeRegex('a'.repeat(1001))).toThrow(expect.objectContaining({ code: 'TAGSONIC_ERR_REGEX_TOO_LONG' }));
    expect(() => compileSafeRegex('a').match('a'.repeat(100_001))).toThrow(expect.objectContaining({ code: 'TAGSONIC_ERR_REGEX_INPUT_TOO_LONG' }));
  });

  it('keeps working after thousands of patterns (re2-wasm has a fixed 16 MiB heap and frees nothing by itself)', () => {
    // Before: ~4,000 distinct patterns filled the WASM heap and every later compile, valid or not, failed with
    // "not valid here (abort(Cannot enlarge memory arrays …))" until the process restarted.
    const first = compileSafeRegex('^(?<n>\\d+) first$');
    for (let i = 0; i < 6000; i++) {
      const re = compileSafeRegex(`(?<title>.+?) - ${i} (?<artist>[a-z]+)`);
      expect(re.match(`x - ${i} y`)?.groups).toEqual({ title: 'x', artist: 'y' });
    }
    // A regex compiled long before (its compiled form evicted since) still works: it is compiled again on use.
    expect(first.match('42 first')?.groups).toEqual({ n: '42' });
    expect(first.replaceAll('7 first', '$<n>!')).toEqual({ text: '7!', count: 1 });
  });

  it('refuses a pattern too large for the engine and keeps working after it', () => {
    // Before: running out of WASM memory aborted re2-wasm for good; every later pattern failed until a restart.
    const before = compileSafeRegex('(?<a>x)y');
    for (const big of ['\\p{L}{1000}', '\\p{L}{300}', '(?:[\\p{L}\\p{N}]{500}){2}']) {
      expect(() => compileSafeRegex(big)).toThrow(expect.objectContaining({ code: 'TAGSONIC_ERR_REGEX_INVALID', message: expect.stringContaining('too large to run') }));
    }
    expect(compileSafeRegex('a(b)').match('ab')?.numbered).toEqual(['b']);
    expect(before.replaceAll('xy xy', '$<a>')).toEqual({ text: 'x x', count: 2 });
    expect(compileSafeRegex('.{100}').match('a'.repeat(150))).not.toBeNull();
    // Large ones that fit one at a time but not together: the heap fills, a fresh module takes the next.
    for (let i = 0; i < 12; i++) expect(compileSafeRegex(`(?:.{1000}|x${i})`).match(`x${i}`)).not.toBeNull();
    expect(before.match('xy')?.groups).toEqual({ a: 'x' });
  });

  it('replaces plain text literally', () => {
    expect(replaceText('a.b.c', '.', '$1')).toEqual({ text: 'a$1b$1c', count: 2 });
    expect(replaceText('abc', '', 'x')).toEqual({ text: 'abc', count: 0 });
  });
});
