import { describe, expect, it } from 'vitest';
import { FADE_MS, SEEK_FADE_MS, documentTitle, fadeSteps, needsTranscode, trackToPreload } from './playback.ts';
import { restoreTrack, toPlayerTrack, type PlayerTrack } from './track.ts';

const track = (id: string, more: Partial<PlayerTrack> = {}): PlayerTrack => ({ id, title: `T${id}`, artist: `A${id}`, album: `L${id}`, duration: 10, ...more });

describe('playback helpers', () => {
  it('fades over 200 ms in 10 ms steps (seek: half), ending exactly at the target', () => {
    const out = fadeSteps(1, 0, FADE_MS);
    expect(out).toHaveLength(20);
    expect(out[0]).toBeCloseTo(0.95);
    expect(out.at(-1)).toBe(0);
    expect(fadeSteps(0, 0.8, SEEK_FADE_MS)).toHaveLength(10);
    expect(fadeSteps(0, 0.8, SEEK_FADE_MS).at(-1)).toBe(0.8);
  });

  it('preloads the track a track end goes to', () => {
    const q = [track('a'), track('b'), track('c')];
    expect(trackToPreload(q, 0, false)?.id).toBe('b');
    expect(trackToPreload(q, 2, true)?.id).toBe('a');
    expect(trackToPreload(q, 2, false)).toBeUndefined();
    expect(trackToPreload([track('a')], 0, true)).toBeUndefined();
  });

  it('titles the tab after the track, its artist or else album, or the product', () => {
    expect(documentTitle(track('1'))).toBe('T1 - A1');
    expect(documentTitle(track('1', { artist: '' }))).toBe('T1 - L1');
    expect(documentTitle(undefined)).toBe('Tagsonic');
  });

  it('streams transcoded only what the browser says it cannot play: ALAC in m4a, APE; AAC, FLAC and unknown types as they are', () => {
    // What chromium answers (it plays AAC but not ALAC).
    const chromium = (type: string) => (/alac|ape|wma/.test(type) ? '' : 'maybe');
    const song = (fields: Record<string, unknown>) => toPlayerTrack({ id: 's', title: 'T', ...fields });
    expect(song({ suffix: 'm4a', contentType: 'audio/mp4', bitDepth: 16 }).mime).toBe('audio/mp4; codecs="alac"');
    expect(needsTranscode(song({ suffix: 'm4a', contentType: 'audio/mp4', bitDepth: 16 }), chromium)).toBe(true);
    expect(needsTranscode(song({ suffix: 'm4a', contentType: 'audio/mp4' }), chromium)).toBe(false);
    expect(needsTranscode(song({ suffix: 'ape', contentType: 'audio/x-ape' }), chromium)).toBe(true);
    expect(needsTranscode(song({ suffix: 'flac', contentType: 'audio/flac' }), chromium)).toBe(false);
    expect(needsTranscode(song({}), chromium)).toBe(false);
    // A radio station plays its own URL; a stored queue entry keeps its type.
    expect(needsTranscode({ ...song({ contentType: 'audio/x-ape' }), isStream: true, url: 'http://radio/x' }, chromium)).toBe(false);
    expect(restoreTrack(JSON.parse(JSON.stringify(song({ suffix: 'm4a', bitDepth: 24 }))))?.mime).toBe('audio/mp4; codecs="alac"');
  });
});
