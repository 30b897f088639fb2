/**
 * getSongList (Tagsonic extension, the dashboard's /tracks/:sort): the whole library's songs in the four
 * orders of the tracks screen, paged by offset/size, the play orders per user, optional search.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderKey } from '@tagsonic/core/library';
import { asAdmin, asAlice, fails, ok, startSubsonic, type SubsonicHarness } from './subsonic-harness.ts';

interface Song {
  id: string;
  title: string;
  created: string;
  playCount?: number;
}

let h: SubsonicHarness;
let all: Song[];

const list = async (params: Record<string, string | number>, auth = asAlice): Promise<Song[]> => (await ok(h.app, 'getSongList', params, { auth })).songList.song ?? [];

beforeAll(async () => {
  h = await startSubsonic();
  all = (await ok(h.app, 'search3', { query: '', songCount: 500, artistCount: 0, albumCount: 0 })).searchResult3.song;
}, 120_000);

afterAll(async () => {
  await h?.close();
});

describe('getSongList', () => {
  it('recently-added: every song, newest first, and the pages add up to the whole list', async () => {
    const whole = await list({ type: 'recently-added', size: 500 });
    expect(whole).toHaveLength(all.length);
    const created = whole.map((s) => new Date(s.created).getTime());
    expect(created).toEqual([...created].sort((a, b) => b - a));
    const first = await list({ type: 'recently-added', size: 5, offset: 0 });
    const second = await list({ type: 'recently-added', size: 5, offset: 5 });
    expect([...first, ...second].map((s) => s.id)).toEqual(whole.slice(0, 10).map((s) => s.id));
    expect(await list({ type: 'recently-added', size: 50, offset: all.length })).toEqual([]);
  });

  it('a-z: every song once, ordered by title as the albums are (Chinese titles under their pinyin initial)', async () => {
    const whole = await list({ type: 'a-z', size: 500 });
    expect(new Set(whole.map((s) => s.id)).size).toBe(all.length);
    const keys = whole.map((s) => orderKey(s.title));
    expect(keys).toEqual([...keys].sort());
    // Not code-point order: a Chinese title sits among the Latin ones under its initial, not after all of them.
    const titles = whole.map((s) => s.title);
    const firstCjk = titles.findIndex((t) => /\p{Script=Han}/u.test(t));
    const lastLatin = titles.findLastIndex((t) => /^[A-Za-z]/.test(t));
    expect(firstCjk).toBeGreaterThanOrEqual(0);
    expect(firstCjk).toBeLessThan(lastLatin);
    // Pages are slices of the same order.
    const second = await list({ type: 'a-z', size: 5, offset: 5 });
    expect(second.map((s) => s.id)).toEqual(whole.slice(5, 10).map((s) => s.id));
  });

  it('recently-played and most-played follow the calling user’s scrobbles only', async () => {
    const [a, b, c] = all;
    const t0 = Date.UTC(2025, 5, 1, 8, 0, 0);
    // a: 3 plays (last at t0+2m), b: 2 plays (last at t0+5m), c: 1 play (t0+4m).
    await ok(h.app, 'scrobble', { id: [a!.id, a!.id, b!.id, a!.id, c!.id, b!.id], time: [t0, t0 + 60_000, t0 + 90_000, t0 + 120_000, t0 + 240_000, t0 + 300_000], submission: true }, { auth: asAlice });
    expect((await list({ type: 'most-played', size: 10 })).map((s) => s.id)).toEqual([a!.id, b!.id, c!.id]);
    expect((await list({ type: 'recently-played', size: 10 })).map((s) => s.id)).toEqual([b!.id, c!.id, a!.id]);
    expect((await list({ type: 'most-played', size: 10 }))[0]!.playCount).toBe(3);
    expect((await list({ type: 'most-played', size: 1, offset: 1 })).map((s) => s.id)).toEqual([b!.id]);
    expect(await list({ type: 'most-played', size: 10 }, asAdmin)).toEqual([]);
  });

  it('search narrows any order to matching songs; an unknown type is refused', async () => {
    const word = all[0]!.title.split(/\s+/)[0]!;
    const found = await list({ type: 'a-z', search: word, size: 500 });
    expect(found.length).toBeGreaterThan(0);
    expect(found.length).toBeLessThanOrEqual(all.length);
    expect(found.map((s) => s.id)).toContain(all[0]!.id);
    const error = await fails(h.app, 'getSongList', { type: 'loudest' }, 0, { auth: asAlice });
    expect(error.message).toMatch(/recently-added/);
  });
});
