/**
 * JSON responses written with the item cache (serialize.ts) hold exactly what JSON.stringify writes
 * (an item's own marks come last in its object), whoever asks; an item's cached text follows its
 * document's revision and is kept apart per item shape.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { itemCacheBytes, markCached, toJson } from './serialize.ts';
import type { SubsonicResponse } from './model.ts';

const envelope = (body: Record<string, unknown>) => ({ status: 'ok', version: '1.16.1', type: 'tagsonic', serverVersion: '2.4.3', openSubsonic: true, ...body }) as unknown as SubsonicResponse;

function song(doc: { rev: number; title: string }, marks: { userRating?: number; playCount?: number; starred?: Date; played?: Date }) {
  const c = {
    id: 'tr_1',
    title: doc.title,
    artist: '周杰伦 / "Quoted" & \\ back\u2028slash',
    duration: 232,
    userRating: marks.userRating,
    playCount: marks.playCount,
    created: new Date(1_700_000_000_000),
    starred: marks.starred,
    optional: undefined,
    played: marks.played,
    genres: [{ name: '流行' }],
    replayGain: { trackGain: -6.5 },
  };
  return markCached(c, 'song', doc);
}

/** Valid JSON, and the same value as JSON.stringify gives. */
function expectSameJson(response: SubsonicResponse): void {
  const text = toJson(response).toString();
  expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify({ 'subsonic-response': response })));
}

describe('JSON item cache', () => {
  it('writes what JSON.stringify writes, with each caller’s own marks', () => {
    const doc = { rev: 1, title: '夜曲' };
    for (const marks of [{}, { userRating: 4, playCount: 7, starred: new Date(5), played: new Date(6) }, { playCount: 0 }]) {
      const response = envelope({ randomSongs: { song: [song(doc, marks), song(doc, marks)] }, other: [{ a: 1, b: undefined }], empty: [] });
      expectSameJson(response);
    }
  });

  it('songs inside other objects, mixed arrays and copies', () => {
    const doc = { rev: 1, title: 'x' };
    const s = song(doc, { starred: new Date(9) });
    const response = envelope({
      album: { id: 'al', song: [s] },
      directory: { child: [{ id: 'dir', isDir: true }, s] },
      nowPlaying: { entry: [{ ...s, username: 'alice', minutesAgo: 3 }] },
    });
    expectSameJson(response);
    // Copies are not marked: written in full, in their own order.
    expect(toJson(response).toString()).toContain(JSON.stringify({ ...s, username: 'alice', minutesAgo: 3 }));
  });

  it('a new revision of the document is written anew', () => {
    const doc = { rev: 1, title: 'before' };
    expect(toJson(envelope({ song: song(doc, {}) })).toString()).toContain('"title":"before"');
    doc.title = 'after';
    doc.rev = 2;
    const response = envelope({ song: song(doc, {}) });
    expectSameJson(response);
    expect(toJson(response).toString()).toContain('"title":"after"');
  });

  it('one document in two shapes keeps two texts; an item of user fields only is still valid', () => {
    const doc = { rev: 1, name: 'Album' };
    const asId3 = () => markCached({ id: 'al_1', name: doc.name, songCount: 3, starred: new Date(4) }, 'albumID3', doc);
    const asChild = () => markCached({ id: 'al_1', title: doc.name, isDir: true, userRating: 2 }, 'albumChild', doc);
    for (let round = 0; round < 2; round++) {
      const response = envelope({ albumList2: { album: [asId3()] }, albumList: { album: [asChild()] } });
      expectSameJson(response);
      expect(toJson(response).toString()).toContain('"title":"Album"');
    }
    const marksOnly = () => markCached({ starred: new Date(1), userRating: 5 }, 'artistID3', { rev: 1 });
    expectSameJson(envelope({ artist: [marksOnly(), marksOnly()], bare: markCached({}, 'indexArtist', { rev: 3 }) }));
  });

  it('mixed arrays keep JSON.stringify rules (undefined → null), and JSONP wraps the same bytes', () => {
    const doc = { rev: 1, title: 'ĳ 夜曲 \ud83c\udfb5' };
    const response = envelope({ list: [song(doc, {}), undefined, null, 3, 'x', new Date(0), [song(doc, { playCount: 2 })]], skip: undefined });
    expectSameJson(response);
    const json = toJson(response).toString();
    expect(toJson(response, 'cb(', ');').toString()).toBe(`cb(${json});`);
  });

  it('the caches stay within their budget and answer the same after starting over', () => {
    const docs = Array.from({ length: 40_000 }, (_, i) => ({ rev: 1, title: `${i} ${'x'.repeat(1000)}` }));
    let peak = 0;
    for (let i = 0; i < docs.length; i += 2_000) {
      const response = envelope({ randomSongs: { song: docs.slice(i, i + 2_000).map((d) => song(d, { playCount: i })) } });
      if (i % 10_000 === 0) expectSameJson(response);
      else toJson(response);
      peak = Math.max(peak, itemCacheBytes());
    }
    expect(peak).toBeLessThanOrEqual(32 * 1024 * 1024);
    expect(peak).toBeGreaterThan(16 * 1024 * 1024);
    expectSameJson(envelope({ song: [song(docs[0]!, {}), song(docs[39_999]!, { starred: new Date(1) })] }));
  });

  it('the cached texts hold about the bytes they count (no shared buffer slab kept alive per item)', () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const buffers = () => {
      gc();
      gc();
      return process.memoryUsage().arrayBuffers;
    };
    // Start from nearly empty caches: fill them until they start over.
    const filler = Array.from({ length: 40_000 }, (_, i) => ({ rev: 0, title: `filler ${i} ${'f'.repeat(900)}` }));
    for (let i = 0, last = -1; itemCacheBytes() > last; i += 100) {
      last = itemCacheBytes();
      toJson(envelope({ song: filler.slice(i, i + 100).map((d) => song(d, {})) }));
    }
    // Then a client pages through 12 000 songs, 50 a response, as getRandomSongs does.
    const docs = Array.from({ length: 12_000 }, (_, i) => ({ rev: 1, title: `song ${i} ${'s'.repeat(i % 400)}` }));
    const before = buffers();
    const counted = itemCacheBytes();
    for (let i = 0; i < docs.length; i += 50) toJson(envelope({ randomSongs: { song: docs.slice(i, i + 50).map((d, j) => song(d, { playCount: j, starred: j % 3 ? undefined : new Date(j) })) } }));
    const held = buffers() - before;
    const added = itemCacheBytes() - counted;
    expect(added).toBeGreaterThan(2 * 1024 * 1024);
    expect(held).toBeLessThan(added * 1.5);
    expect(docs.length + filler.length).toBeGreaterThan(0);
  });
});
