import { describe, expect, it } from 'vitest';
import { buildUpdate, validYear } from './build-update.ts';

const options = { is_save_lyrics_file: false, is_import_lyrics_file: false, is_save_album_cover: false, is_import_album_cover: false };
const original = { title: 'Old', artist: 'A', year: '1999', lyrics: '', filename: 'x.mp3', genre: 'Rock' };

describe('single-edit payload', () => {
  it('sends only the changed fields, emptied ones as ${null}', () => {
    const entry = buildUpdate({ filePath: '/m/x.mp3', original, values: { ...original, title: 'New', genre: '  ' }, cover: undefined, options });
    expect(entry).toEqual({ file_full_path: '/m/x.mp3', title: 'New', genre: '${null}', ...options });
  });

  it('renames only to a non-empty name, and carries cover changes and options', () => {
    const keep = buildUpdate({ filePath: '/m/x.mp3', original, values: { ...original, filename: ' ' }, cover: null, options: { ...options, is_save_lyrics_file: true } });
    expect(keep).toEqual({ file_full_path: '/m/x.mp3', album_img: '${null}', ...options, is_save_lyrics_file: true });
    const renamed = buildUpdate({ filePath: '/m/x.mp3', original, values: { ...original, filename: 'y.mp3', lyrics: '[00:01.00]la' }, cover: '/apimt/uploaded_image/abc', options });
    expect(renamed).toMatchObject({ filename: 'y.mp3', lyrics: '[00:01.00]la', album_img: '/apimt/uploaded_image/abc' });
  });

  it('keeps templates as typed (the server renders them)', () => {
    expect(buildUpdate({ filePath: '/m/x.mp3', original, values: { ...original, title: '${file_song_name}' }, cover: undefined, options }).title).toBe('${file_song_name}');
  });

  it('refuses a year that is not a number', () => {
    expect(validYear('2024')).toBe(true);
    expect(validYear('')).toBe(true);
    expect(validYear('${year}')).toBe(true);
    expect(validYear('last year')).toBe(false);
    expect(() => buildUpdate({ filePath: '/m/x.mp3', original, values: { ...original, year: 'soon' }, cover: undefined, options })).toThrow(/year must be a number/);
  });
});
