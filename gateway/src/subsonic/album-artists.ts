/**
 * Which albums belong to an artist in the Subsonic views, as Navidrome answers it: the albums it is an
 * album artist of, not those it only appears on (a featured artist would otherwise show, and count,
 * another artist's album). The ID3 view (getArtists, getArtist, search3…) lists an album under each of
 * its album artists; the folder view (getIndexes, getMusicDirectory) files it under its first album
 * artist only, so a client that walks every folder to download or sync sees each song exactly once.
 * Appearances stay reachable through search (the artist and its songs), and the dashboard's own artist
 * pages (core queries) keep listing them.
 */
import type { Library } from '@tagsonic/core/library';
import type { ArtistID3, IndexArtist } from './model.ts';

export interface AlbumOwners {
  /** Artist id → ids of the albums it is an album artist of (ID3 view). */
  own: ReadonlyMap<string, ReadonlySet<string>>;
  /** Artist id → ids of the albums filed under it in the folder view (first album artist). */
  filed: ReadonlyMap<string, ReadonlySet<string>>;
  /** Every album filed under some artist in the folder view. */
  filedAlbums: ReadonlySet<string>;
  /** An ID3 artist with the number of albums getArtist lists for it. */
  id3(artist: ArtistID3): ArtistID3;
  /** A folder-view artist with the number of album folders getMusicDirectory lists for it. */
  folder(artist: IndexArtist): IndexArtist;
}

const EMPTY: ReadonlySet<string> = new Set();

export class AlbumArtistIndex {
  private readonly library: Library;
  private built: { rev: number; owners: AlbumOwners } | null = null;

  constructor(library: Library) {
    this.library = library;
  }

  /** The owners at the catalogue's current revision (rebuilt once per revision: one pass over the albums). */
  async current(): Promise<AlbumOwners> {
    const catalog = this.library.catalog;
    await catalog.sync();
    if (this.built?.rev === catalog.revision) return this.built.owners;
    const own = new Map<string, Set<string>>();
    const filed = new Map<string, Set<string>>();
    const filedAlbums = new Set<string>();
    const add = (map: Map<string, Set<string>>, artistId: string, albumId: string) => {
      const set = map.get(artistId);
      if (set) set.add(albumId);
      else map.set(artistId, new Set([albumId]));
    };
    for (const album of catalog.albums.values()) {
      for (const id of album.artistIds) add(own, id, album._id);
      const first = album.artistIds[0];
      if (first !== undefined) add(filed, first, album._id), filedAlbums.add(album._id);
    }
    // The mapped items are copies: the serializer's per-document text cache stays with the originals.
    const owners: AlbumOwners = {
      own,
      filed,
      filedAlbums,
      id3: (a) => ({ ...a, albumCount: (own.get(a.id) ?? EMPTY).size }),
      folder: (a) => ({ ...a, albumCount: (filed.get(a.id) ?? EMPTY).size }),
    };
    this.built = { rev: catalog.revision, owners };
    return owners;
  }
}

const shared = new WeakMap<Library, AlbumArtistIndex>();

/** One index per library, shared by the groups that map artists (built once per revision, not once per group). */
export function albumArtistsOf(library: Library): AlbumArtistIndex {
  let index = shared.get(library);
  if (!index) shared.set(library, (index = new AlbumArtistIndex(library)));
  return index;
}
