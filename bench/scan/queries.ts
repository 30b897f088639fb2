/** Shared by the scan bench and its serving child: opening a library store, timing every query. */
import { createMemoryBus } from '@tagsonic/core/bus';
import { ALBUM_LIST_TYPES, openLibrary, type Library } from '@tagsonic/core/library';
import { MediaRoots } from '@tagsonic/core/media';
import { openEmbeddedStore } from '@tagsonic/core/store';
import { Tasks } from '@tagsonic/core/tasks';

export interface Latency {
  p50: number;
  p99: number;
  max: number;
}

const ms = (n: number) => Math.round(n * 10) / 10;

export async function openLibraryAt(storeDir: string, media: string): Promise<{ library: Library; roots: MediaRoots; close: () => Promise<void> }> {
  const store = await openEmbeddedStore({ dir: storeDir });
  const bus = createMemoryBus();
  const tasks = new Tasks(store, bus);
  await tasks.init();
  const roots = await MediaRoots.open({ media });
  const library = await openLibrary({ store, tasks, roots: roots.roots });
  return {
    library,
    roots,
    close: async () => {
      await bus.close();
      await store.close();
    },
  };
}

/** p50/p99/max of `fn` over `runs` calls (after 3 warm-up calls). */
export async function latency(fn: () => Promise<unknown>, runs: number): Promise<Latency> {
  for (let i = 0; i < 3; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { p50: ms(times[Math.floor(runs * 0.5)]!), p99: ms(times[Math.min(runs - 1, Math.floor(runs * 0.99))]!), max: ms(times.at(-1)!) };
}

/** Every query the Subsonic API and the dashboard make, each timed; marks some items first. */
export async function queryLatencies(library: Library, runs: number): Promise<Record<string, Latency>> {
  const q = library.queries;
  const user = 'bench-user';
  const catalog = library.catalog;
  await catalog.sync();
  const someTracks = [...catalog.tracks.keys()].slice(0, 200);
  for (const [i, id] of someTracks.entries()) {
    if (i % 2 === 0) await library.annotations.scrobble(user, id);
    if (i % 5 === 0) await library.annotations.star(user, { id: [id] });
  }
  const album = [...catalog.albums.values()][Math.floor(catalog.albums.size / 2)]!;
  const artist = [...catalog.artists.values()].sort((a, b) => b.songCount - a.songCount)[0]!;
  const track = catalog.tracks.get(someTracks[0]!)!;
  const genre = [...catalog.genres.values()][0]!.name;
  const out: Record<string, Latency> = {};
  for (const type of ALBUM_LIST_TYPES) {
    const extra =
      type === 'byYear' ? { fromYear: 1990, toYear: 2010 } : type === 'byGenre' ? { genre } : type === 'search' ? { search: 'love' } : type === 'byArtist' ? { artistId: artist._id } : {};
    out[`albumList ${type}`] = await latency(() => q.albumList({ type, size: 50, offset: 100, userId: user, ...extra }), runs);
  }
  out['search3 latin'] = await latency(() => q.search({ query: 'love', artistCount: 20, albumCount: 20, songCount: 20, userId: user }), runs);
  out['search3 CJK'] = await latency(() => q.search({ query: '青春', artistCount: 20, albumCount: 20, songCount: 20, userId: user }), runs);
  out['search3 no match'] = await latency(() => q.search({ query: 'zzzqqq', userId: user }), runs);
  out['search3 empty, offset 5000'] = await latency(() => q.search({ query: '', songCount: 50, songOffset: 5000, userId: user }), runs);
  out['artists a-z'] = await latency(() => q.artists({ size: 50, offset: 50, userId: user }), runs);
  out['artists most_albums'] = await latency(() => q.artists({ sort: 'most_albums', size: 50, userId: user }), runs);
  out['indexes'] = await latency(() => q.indexes({ userId: user }), runs);
  out['artist'] = await latency(() => q.artistDetail(artist._id, user), runs);
  out['album'] = await latency(() => q.albumDetail(album._id, user), runs);
  out['song'] = await latency(() => q.song(track._id, user), runs);
  out['directory'] = await latency(() => q.directory(track.folderId, user), runs);
  out['genres'] = await latency(() => q.genres(), runs);
  out['randomSongs 200'] = await latency(() => q.randomSongs({ size: 200, userId: user }), runs);
  out['songsByGenre'] = await latency(() => q.songsByGenre({ genre, count: 50, offset: 50, userId: user }), runs);
  out['songList recently-added'] = await latency(() => q.songList({ sort: 'recently-added', size: 50, offset: 50, userId: user }), runs);
  out['starred'] = await latency(() => q.starred({ userId: user }), runs);
  out['topSongs'] = await latency(() => q.topSongs(artist.name, { count: 50, userId: user }), runs);
  out['similarSongs'] = await latency(() => q.similarSongs(track._id, { count: 50, userId: user }), runs);
  out['artistInfo'] = await latency(() => q.artistInfo(artist._id, { userId: user }), runs);
  out['discover'] = await latency(() => q.discover({ userId: user }), runs);
  out['coverArt'] = await latency(() => q.coverArt(album._id), runs);
  return out;
}

export const worst = (lat: Record<string, { p99: number }>): [string, { p99: number }] => Object.entries(lat).sort((a, b) => b[1].p99 - a[1].p99)[0]!;
