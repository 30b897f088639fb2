/** What the album page derives from getAlbum, and how it follows an edit that a task writes into the files. */
import { getAlbum } from '../api/get-album.ts';
import type { SubsonicAlbumDetail } from '../api/types.ts';

/**
 * Artists who appear on the album's tracks but are not its album artist (guests, "A feat. B"), in order of
 * first appearance, each once.
 */
export function otherArtists(album: Pick<SubsonicAlbumDetail, 'artistId' | 'artists' | 'song'>): { id: string; name: string }[] {
  const own = new Set<string>([album.artistId ?? '', ...(album.artists ?? []).map((a) => a.id)]);
  const seen = new Map<string, string>();
  for (const song of album.song ?? []) {
    const refs = Array.isArray(song.artists) ? (song.artists as { id?: string; name?: string }[]) : song.artistId ? [{ id: song.artistId, name: song.artist }] : [];
    for (const r of refs) if (r.id && r.name && !own.has(r.id) && !seen.has(r.id)) seen.set(r.id, r.name);
  }
  return [...seen].map(([id, name]) => ({ id, name }));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * After a 修改专辑 task: waits until /rest shows the album under `id` (the id its new name gives) and, for a
 * rename, with that name — the library follows the written files within about a second, a long album
 * takes longer. Gives up after `timeoutMs` (the task report still tells what happened).
 */
export async function followAlbum(id: string, name: string | undefined, { timeoutMs = 30_000, everyMs = 1000 } = {}): Promise<SubsonicAlbumDetail | null> {
  const until = Date.now() + timeoutMs;
  // Without a rename nothing visible tells the write is done: one look after the usual follow time.
  if (name === undefined) {
    await sleep(2 * everyMs);
    return getAlbum(id).catch(() => null);
  }
  while (Date.now() < until) {
    await sleep(everyMs);
    const album = await getAlbum(id).catch(() => null);
    if (album && album.name === name) return album;
  }
  return null;
}
