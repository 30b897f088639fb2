/**
 * The pure parts of the engine: validation and canonical form of edits, multi-value splitting, number
 * pairs, expected snapshots, the undo edit, and image headers.
 */
import { describe, expect, it } from 'vitest';
import { TagsonicError } from '../errors/index.ts';
import { diffSnapshots, editTowards, expectedSnapshot, normalizeEdit } from './edit.ts';
import { parseNumberPair, splitMultiValue } from './mapping.ts';
import { sniffImage } from './image-info.ts';
import { emptyFields, type TagSnapshot } from './model.ts';
import { makeCover, tempDir } from './test-fixtures.ts';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const snapshot = (over: Partial<TagSnapshot> = {}, fields: Partial<TagSnapshot['fields']> = {}): TagSnapshot => ({
  fields: { ...emptyFields(), ...fields },
  artists: [],
  albumartists: [],
  genres: [],
  artwork: null,
  ...over,
});

describe('normalizeEdit', () => {
  it('trims single-line fields, keeps multi-line ones, turns empty into a clear', () => {
    const e = normalizeEdit({ fields: { title: '  晴天 ', lyrics: ' line\n', comment: '', album: '   ', genre: null } });
    expect(e.fields).toEqual({ title: '晴天', lyrics: ' line\n', comment: null, album: null, genre: null });
  });

  it('canonical numbers, and "n/total" typed into a number fills the total', () => {
    expect(normalizeEdit({ fields: { tracknumber: '03/12' } }).fields).toEqual({ tracknumber: '3', totaltracks: '12' });
    expect(normalizeEdit({ fields: { discnumber: '1/2', totaldiscs: '3' } }).fields).toEqual({ discnumber: '1', totaldiscs: '3' });
    expect(normalizeEdit({ fields: { tracknumber: '0' } }).fields).toEqual({ tracknumber: null });
  });

  it('album type keeps the editor shape', () => {
    expect(normalizeEdit({ fields: { album_type: ' album ; compilation ;' } }).fields.album_type).toBe('album;compilation');
  });

  it.each([
    [{ year: '20XX' }, 'year'],
    [{ tracknumber: '-1' }, 'tracknumber'],
    [{ replaygain_album_peak: '-0.5' }, 'replaygain_album_peak'],
    [{ title: 'a\u0000' }, 'title'],
  ])('refuses %j with the field named', (fields, field) => {
    const err = (() => {
      try {
        normalizeEdit({ fields });
        return null;
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(TagsonicError);
    expect(err).toMatchObject({ kind: 'invalid', code: 'TAGSONIC_ERR_TAGS_INVALID_VALUE', details: { field } });
  });
});

describe('multi-value helpers', () => {
  it('splits artist strings on the spec separators and semicolons', () => {
    expect(splitMultiValue('周杰伦 / 费玉清')).toEqual(['周杰伦', '费玉清']);
    expect(splitMultiValue('A & B, C、D，E; F')).toEqual(['A', 'B', 'C', 'D', 'E', 'F']);
    expect(splitMultiValue('Solo')).toEqual(['Solo']);
    expect(splitMultiValue('A / A')).toEqual(['A']);
  });

  it('parses number pairs', () => {
    expect(parseNumberPair('3/12')).toEqual({ no: 3, of: 12 });
    expect(parseNumberPair(' 03 / 012 ')).toEqual({ no: 3, of: 12 });
    expect(parseNumberPair('0/12')).toEqual({ no: null, of: 12 });
    expect(parseNumberPair(7)).toEqual({ no: 7, of: null });
    expect(parseNumberPair('side A')).toEqual({ no: null, of: null });
  });
});

describe('expected snapshots and undo edits', () => {
  const before = snapshot({ artists: ['A'], genres: ['Rock', 'Pop'] }, { title: 'Old', artist: 'A', genre: 'Rock; Pop' });

  it('derives individual artists from an edited display string', () => {
    const after = expectedSnapshot(before, normalizeEdit({ fields: { artist: 'X / Y' } }));
    expect(after.artists).toEqual(['X', 'Y']);
    expect(after.genres).toEqual(['Rock', 'Pop']);
    expect(diffSnapshots(after, before).map((d) => d.what)).toEqual(['artist', 'artists']);
  });

  it('an explicit list wins over splitting ("AC/DC" stays one artist)', () => {
    expect(expectedSnapshot(before, normalizeEdit({ fields: { artist: 'AC/DC' }, artists: ['AC/DC'] })).artists).toEqual(['AC/DC']);
  });

  it('several genres are stored as several values and read back joined', () => {
    const after = expectedSnapshot(before, normalizeEdit({ fields: { genre: 'x' }, genres: ['流行', '摇滚'] }));
    expect(after.fields.genre).toBe('流行; 摇滚');
    expect(after.genres).toEqual(['流行', '摇滚']);
  });

  it('the undo edit turns the current snapshot back into the target one', () => {
    const current = expectedSnapshot(before, normalizeEdit({ fields: { title: 'New', artist: 'X / Y', genre: 'Jazz' } }));
    const undo = editTowards(current, before);
    expect(expectedSnapshot(current, normalizeEdit(undo))).toEqual(before);
    expect(undo).toEqual({ fields: { title: 'Old', artist: 'A', genre: 'Rock; Pop' }, genres: ['Rock', 'Pop'] });
  });

  it('compares ID3v2.3 slash-separated values leniently only where asked', () => {
    const v23 = snapshot({ artists: ['A', 'B'] }, { artist: 'A/B' });
    const v24 = snapshot({ artists: ['A / B'] }, { artist: 'A / B' });
    expect(diffSnapshots(v23, v24).map((d) => d.what)).toEqual(['artist', 'artists']);
    expect(diffSnapshots(v23, v24, new Set(['artist', 'artists']))).toEqual([]);
  });
});

describe('image headers', () => {
  it('reads type and size of JPEG, PNG, GIF, BMP and WebP', async () => {
    const { dir, remove } = await tempDir();
    try {
      expect(sniffImage(await makeCover(dir, 'j', 'jpeg', 124, 46))).toEqual({ mime: 'image/jpeg', width: 124, height: 46 });
      expect(sniffImage(await makeCover(dir, 'p', 'png', 64, 32))).toEqual({ mime: 'image/png', width: 64, height: 32 });
      const run = promisify(execFile);
      for (const [ext, mime] of [['gif', 'image/gif'], ['bmp', 'image/bmp'], ['webp', 'image/webp']] as const) {
        const file = path.join(dir, `i.${ext}`);
        await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=50x30:duration=1', '-frames:v', '1', file]);
        expect(sniffImage(new Uint8Array(await readFile(file)))).toEqual({ mime, width: 50, height: 30 });
      }
      expect(sniffImage(new TextEncoder().encode('plain text'))).toBeNull();
    } finally {
      await remove();
    }
  });
});
