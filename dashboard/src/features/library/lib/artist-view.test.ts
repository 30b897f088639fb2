import { describe, expect, it } from 'vitest';
import { applySuggestion, artistChanges, artistGenres, artistTrackCount, latestAlbums, readAll } from './artist-view.ts';

describe('latestAlbums', () => {
  it('orders by year descending, yearless albums last, ties as sent, at most 12', () => {
    const albums = [{ id: 'a', year: 2001 }, { id: 'b' }, { id: 'c', year: 2020 }, { id: 'd', year: 2001 }, ...Array.from({ length: 12 }, (_, i) => ({ id: `x${i}`, year: 1990 }))];
    const out = latestAlbums(albums);
    expect(out).toHaveLength(12);
    expect(out.slice(0, 3).map((a) => a.id)).toEqual(['c', 'a', 'd']);
    expect(out.map((a) => a.id)).not.toContain('b');
    expect(latestAlbums([{ id: 'b' }, { id: 'e', year: 1999 }]).map((a) => a.id)).toEqual(['e', 'b']);
  });
});

describe('artistGenres', () => {
  it('lists each genre once, most frequent first, from genres[] or genre', () => {
    expect(artistGenres([{ genre: 'Rock' }, { genres: [{ name: 'Pop' }, { name: 'Rock' }] }, { genres: [{ name: 'Pop' }, { name: 'Pop' }] }, { genre: ' ' }, {}])).toEqual(['Rock', 'Pop']);
  });
});

describe('artistTrackCount', () => {
  it('adds the albums’ song counts', () => {
    expect(artistTrackCount([{ songCount: 3 }, {}, { songCount: 10 }])).toBe(13);
  });
});

describe('applySuggestion', () => {
  const form = { name: '周杰伦', description: '旧的', image: undefined };
  const c = { artist: 'Jay Chou', artist_img: 'https://img.example/jay.jpg', desc: '华语歌手', resource: 'kuwo' };
  it('copies the clicked part only', () => {
    expect(applySuggestion(form, c, 'image')).toEqual({ ...form, image: 'https://img.example/jay.jpg' });
    expect(applySuggestion(form, c, 'name')).toEqual({ ...form, name: 'Jay Chou' });
    expect(applySuggestion(form, c, 'description')).toEqual({ ...form, description: '华语歌手' });
  });
  it('leaves the form when the part is empty', () => {
    expect(applySuggestion(form, { ...c, desc: '' }, 'description')).toBe(form);
  });
});

describe('artistChanges', () => {
  const before = { name: 'A', description: 'd' };
  it('sends only what changed; an untouched picture is not sent', () => {
    expect(artistChanges(before, { name: 'A', description: 'd' })).toBeNull();
    expect(artistChanges(before, { name: ' B ', description: 'd' })).toEqual({ name: 'B' });
    expect(artistChanges(before, { name: 'A', description: 'd', image: '' })).toEqual({ artist_img: '' });
  });
});

describe('readAll', () => {
  it('reads pages until a short one and stops at max', async () => {
    const data = Array.from({ length: 1234 }, (_, i) => i);
    const calls: number[] = [];
    const load = async (offset: number, size: number) => {
      calls.push(offset);
      return data.slice(offset, offset + size);
    };
    expect(await readAll(load, 500)).toHaveLength(1234);
    expect(calls).toEqual([0, 500, 1000]);
    expect(await readAll(load, 500, 600)).toHaveLength(600);
  });
});
