/**
 * The last playlist the user opened, kept in local storage (spec §2 Playlist detail) so the playlists page
 * can point back to it after a reload. A value that does not parse (a hand edit) counts as none.
 */

const KEY = 'playlist';

export interface LastPlaylist {
  id: string;
  name: string;
}

const storage = (): Storage | undefined => (typeof localStorage === 'undefined' ? undefined : localStorage);

export function saveLastPlaylist(p: LastPlaylist): void {
  storage()?.setItem(KEY, JSON.stringify({ id: p.id, name: p.name }));
}

export function loadLastPlaylist(): LastPlaylist | null {
  try {
    const v = JSON.parse(storage()?.getItem(KEY) ?? 'null') as Partial<LastPlaylist> | null;
    return v && typeof v.id === 'string' && typeof v.name === 'string' ? { id: v.id, name: v.name } : null;
  } catch {
    return null;
  }
}

/** A deleted playlist is no longer the last one. */
export function forgetLastPlaylist(id: string): void {
  if (loadLastPlaylist()?.id === id) storage()?.removeItem(KEY);
}
