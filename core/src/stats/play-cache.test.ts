import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbeddedStore, type EmbeddedStore } from '../store/index.ts';
import { LibraryStore } from '../library/library-store.ts';
import type { PlayLogDoc } from '../library/model.ts';
import { newId } from '../ids.ts';
import { FOLLOW_OVERLAP_MS, PlayCache } from './play-cache.ts';

let dir: string;
let store: EmbeddedStore;
let library: LibraryStore;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tagsonic-play-cache-'));
  store = await openEmbeddedStore({ dir });
  library = new LibraryStore(store);
  await library.init();
});

afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

const play = (userId: string, id = newId()): PlayLogDoc => ({
  _id: id,
  userId,
  trackId: 't',
  albumId: 'al',
  artistIds: ['ar'],
  genres: ['Pop'],
  duration: 5,
  playedAt: new Date(),
  client: 'c',
});
/** An id made `ms` earlier than now, as by a process whose clock is behind. */
const idBehind = (ms: number) => (Date.now() - ms).toString(16).padStart(12, '0') + 'ffff' + 'abcdef01';

describe('PlayCache', () => {
  it('loads a user once, then follows new plays (also ones a slower clock made) without counting any twice', async () => {
    const cache = new PlayCache(library.playLog);
    await library.playLog.insertMany([play('u1'), play('u1'), play('u2')]);
    expect(await cache.plays('u1')).toHaveLength(2);
    expect(await cache.plays('u1')).toHaveLength(2);
    await library.playLog.insertOne(play('u1'));
    expect(await cache.plays('u1')).toHaveLength(3);
    // Written after the last read, but by a process whose clock is 20 s behind: its id sorts before the newest.
    await library.playLog.insertOne(play('u1', idBehind(20_000)));
    const plays = await cache.plays('u1');
    expect(plays).toHaveLength(4);
    expect(new Set(plays.map((p) => p._id)).size).toBe(4);
    expect(await cache.plays('u2')).toHaveLength(1);
  });

  it('concurrent reads of one user share the order and see the same plays', async () => {
    const cache = new PlayCache(library.playLog);
    await library.playLog.insertMany([play('u3'), play('u3')]);
    const [a, b] = await Promise.all([cache.plays('u3'), cache.plays('u3')]);
    expect(a).toHaveLength(2);
    expect(b).toBe(a);
  });

  it('the follow window covers the clock allowance', () => {
    expect(FOLLOW_OVERLAP_MS).toBeGreaterThanOrEqual(20_000);
  });
});
