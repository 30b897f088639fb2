/**
 * Id scheme of the library. Tracks have random ids (kept across moves); albums, artists and folders
 * have ids derived from their keys, so a rescan — or a rebuilt database — gives them the same ids:
 *   track  24 hex (newId)          album  `al-` + 20 hex          artist  `ar-` + 20 hex
 *   folder `fo-` + 20 hex           music folder (root)  1, 2, 3 … (Subsonic wants integers)
 */
import { hash } from 'node:crypto';
import { memoize } from '../memoize.ts';
import { fold } from './text.ts';

const digest = (text: string): string => hash('sha1', text).slice(0, 20);

/** Remembered: a scan asks for the same few hundred names for every track. */
export const artistIdFor: (name: string) => string = memoize((name) => `ar-${digest(fold(name))}`);

/** Album key: folded album artist + folded album name. */
export const albumIdFor = (albumArtist: string, album: string): string => `al-${digest(`${fold(albumArtist)}\u0000${fold(album)}`)}`;

/** Folder ids hash the absolute path (case kept: file systems are case-sensitive). */
export const folderIdFor: (absoluteDir: string) => string = memoize((absoluteDir) => `fo-${digest(absoluteDir)}`);

export type LibraryIdKind = 'track' | 'album' | 'artist' | 'folder' | 'musicFolder';

const TRACK_ID = /^[0-9a-f]{24}$/;
const DERIVED_ID = /^(al|ar|fo)-[0-9a-f]{20}$/;

/** What an id names, by its shape; null for anything else. */
export function idKind(id: string): LibraryIdKind | null {
  if (TRACK_ID.test(id)) return 'track';
  const m = DERIVED_ID.exec(id);
  if (m) return m[1] === 'al' ? 'album' : m[1] === 'ar' ? 'artist' : 'folder';
  if (/^[1-9][0-9]{0,2}$/.test(id)) return 'musicFolder';
  return null;
}
