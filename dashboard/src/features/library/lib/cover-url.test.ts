import { describe, expect, it } from 'vitest';
import { coverChanged, coverUrl, DEFAULT_COVER, streamUrl } from './cover-url.ts';

const cookies = 'username=admin; salt=abc; hash=0123';

describe('cover and stream URLs', () => {
  it('signs getCoverArt with the cookies’ u/t/s and asks the size', () => {
    const url = new URL(coverUrl('al-1', 300, cookies), 'http://x');
    expect(url.pathname).toBe('/rest/getCoverArt.view');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ id: 'al-1', size: '300', u: 'admin', t: '0123', s: 'abc', f: 'json' });
    expect(new URL(streamUrl('tr-1', cookies), 'http://x').searchParams.get('id')).toBe('tr-1');
  });

  it('gives the inline default cover without an id', () => {
    expect(coverUrl(undefined, 300, cookies)).toBe(DEFAULT_COVER);
    expect(coverUrl('', 300, cookies)).toBe(DEFAULT_COVER);
  });

  it('a cover changed in this session gets a URL the browser cache has not seen', () => {
    const before = coverUrl('al-2', 300, cookies);
    coverChanged('al-2', 1234);
    const after = coverUrl('al-2', 300, cookies);
    expect(after).not.toBe(before);
    expect(new URL(after, 'http://x').searchParams.get('_')).toBe('1234');
    expect(coverUrl('al-3', 300, cookies)).not.toContain('_=');
  });
});
