/**
 * The artist and genre screens' rules that need no browser (spec §2 Artist detail / Genres): which albums
 * are the "latest 12", the genres and track count an artist page shows (getArtist gives neither directly),
 * what a clicked cover suggestion copies into the edit form, and how an artist's whole song list is read.
 */
import type { ArtistCandidate } from '../api/artist-types.ts';
import type { SubsonicAlbum } from '../api/types.ts';

/** The spec's counts: 5 top tracks, 12 latest albums, 50 per batch, 100 tracks for a genre's play. */
export const TOP_TRACKS_SHOWN = 5;
export const LATEST_ALBUMS_SHOWN = 12;
export const ARTIST_PAGE_SIZE = 50;
export const GENRE_PLAY_COUNT = 100;
/** §9: the artist and genre search terms wait 500 ms after the last key. */
export const ARTIST_SEARCH_DEBOUNCE_MS = 500;

/**
 * The artist's latest albums: year descending, albums without a year last, ties in the order /rest sent
 * (the sort is stable), at most `count`.
 */
export function latestAlbums<A extends Pick<SubsonicAlbum, 'year'>>(albums: readonly A[], count = LATEST_ALBUMS_SHOWN): A[] {
  const yearOf = (a: A) => (typeof a.year === 'number' && a.year > 0 ? a.year : -Infinity);
  return [...albums].sort((x, y) => yearOf(y) - yearOf(x)).slice(0, count);
}

/** The genres of an artist's albums, most frequent first (ties by first appearance), each once. */
export function artistGenres(albums: readonly Pick<SubsonicAlbum, 'genre' | 'genres'>[]): string[] {
  const counts = new Map<string, number>();
  for (const album of albums) {
    const names = album.genres?.length ? album.genres.map((g) => g.name) : album.genre ? [album.genre] : [];
    for (const name of new Set(names.map((n) => n.trim()).filter(Boolean))) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([name]) => name);
}

/** The artist's track count: the songs of the albums its page lists. */
export const artistTrackCount = (albums: readonly Pick<SubsonicAlbum, 'songCount'>[]): number => albums.reduce((n, a) => n + (Number(a.songCount) || 0), 0);

/** The artist edit form (spec §2: name, cover, description). `image` undefined keeps the current picture. */
export interface ArtistForm {
  name: string;
  description: string;
  image?: string;
}

/** Which part of a suggestion a click copies. */
export type SuggestionPart = 'image' | 'name' | 'description';

/** The form after a click on one part of a cover suggestion; an empty part leaves the form as it was. */
export function applySuggestion(form: ArtistForm, candidate: ArtistCandidate, part: SuggestionPart): ArtistForm {
  const value = (part === 'image' ? candidate.artist_img : part === 'name' ? candidate.artist : candidate.desc)?.trim() ?? '';
  if (!value) return form;
  return part === 'image' ? { ...form, image: value } : part === 'name' ? { ...form, name: value } : { ...form, description: value };
}

/**
 * The fields an artist save sends: only what changed (an untouched picture is not sent, so saving a name
 * never clears it). Null when nothing changed.
 */
export function artistChanges(before: { name: string; description: string }, form: ArtistForm): { name?: string; description?: string; artist_img?: string } | null {
  const out: { name?: string; description?: string; artist_img?: string } = {};
  if (form.name.trim() !== before.name) out.name = form.name.trim();
  if (form.description !== before.description) out.description = form.description;
  if (form.image !== undefined) out.artist_img = form.image;
  return Object.keys(out).length ? out : null;
}

/**
 * Every song of a list read page by page until a short page (the artist's "play all"); `max` bounds the
 * queue so a huge artist cannot stall the page.
 */
export async function readAll<T>(load: (offset: number, size: number) => Promise<T[]>, pageSize = 500, max = 5000): Promise<T[]> {
  const out: T[] = [];
  for (;;) {
    const batch = await load(out.length, pageSize);
    out.push(...batch);
    if (batch.length < pageSize || out.length >= max) return out.slice(0, max);
  }
}
