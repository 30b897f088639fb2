/**
 * Browsing: music folders, folder-based indexes and directories, genres, ID3 artists/albums/songs,
 * artist and album info (local knowledge only), similar and top songs.
 */
import { IGNORED_ARTICLES, MAX_PAGE, genreCoverIdFor, idKind, type ArtistSort, type ArtistView, type GenreSort } from '@tagsonic/core/library';
import { albumArtistsOf, type AlbumOwners } from './album-artists.ts';
import { badParam } from './errors.ts';
import { albumID3, artistID3, child, indexArtist } from './mappers.ts';
import type { ArtistInfoBody, Child, IndexID3Body } from './model.ts';
import { defineGroup, type PublicCall } from './registry.ts';

const GENRE_SORTS: Record<string, GenreSort> = { 'a-z': 'a-z', 'most-albums': 'most_albums', most_albums: 'most_albums', 'most-tracks': 'most_tracks', most_tracks: 'most_tracks' };
const ARTIST_SORTS: Record<string, ArtistSort> = { 'a-z': 'a-z', 'most-albums': 'most_albums', most_albums: 'most_albums', less_cover: 'less_cover', 'less-cover': 'less_cover' };

/** Image URLs for an item's cover (getCoverArt takes the asking client's own credentials). */
function imageUrls(call: PublicCall, coverArt: string): Pick<ArtistInfoBody, 'smallImageUrl' | 'mediumImageUrl' | 'largeImageUrl'> {
  const url = (size: number) => `${call.baseUrl}/rest/getCoverArt.view?id=${encodeURIComponent(coverArt)}&size=${size}`;
  return { smallImageUrl: url(150), mediumImageUrl: url(300), largeImageUrl: url(600) };
}

/** Consecutive artists with the same index letter as one index entry (keeps any order intact). */
function indexRuns(artists: readonly ArtistView[], owners: AlbumOwners): IndexID3Body[] {
  const out: IndexID3Body[] = [];
  for (const a of artists) {
    const last = out[out.length - 1];
    const artist = owners.id3(artistID3(a));
    if (last && last.name === a.index) last.artist.push(artist);
    else out.push({ name: a.index, artist: [artist] });
  }
  return out;
}

function sortParam<T>(value: string | undefined, table: Record<string, T>, name: string): T | undefined {
  if (value === undefined || value === '') return undefined;
  const sort = table[value];
  if (sort === undefined) throw badParam(name, `one of ${Object.keys(table).join(', ')}`);
  return sort;
}

export const browsingGroup = defineGroup('browsing', (api, ctx) => {
  const q = ctx.library.queries;
  const albumArtists = albumArtistsOf(ctx.library);

  api.method('getMusicFolders', async () => ({
    musicFolders: { musicFolder: (await q.musicFolders()).map((f) => ({ id: f.id, name: f.name })) },
  }));

  api.method('getIndexes', async ({ params, user }) => {
    const since = params.int('ifModifiedSince');
    const idx = await q.indexes({ musicFolderId: params.int('musicFolderId'), userId: user._id });
    const owners = await albumArtists.current();
    const unchanged = since !== undefined && idx.lastModified <= since;
    // Only artists with album folders; loose songs only when no artist folder holds their album.
    const index = idx.index
      .map((g) => ({ name: g.name, artist: g.artists.filter((a) => owners.filed.has(a.id)).map((a) => owners.folder(indexArtist(a))) }))
      .filter((g) => g.artist.length > 0);
    return {
      indexes: {
        lastModified: idx.lastModified,
        ignoredArticles: idx.ignoredArticles,
        index: unchanged ? [] : index,
        child: unchanged ? [] : idx.songs.filter((s) => !owners.filedAlbums.has(s.albumId)).map(child),
      },
    };
  });

  api.method('getMusicDirectory', async ({ params, user }) => {
    const id = params.required('id');
    const dir = await q.directory(id, user._id);
    // An artist's folder holds the albums filed under it (first album artist), not its appearances.
    const filed = idKind(id) === 'artist' ? ((await albumArtists.current()).filed.get(id) ?? new Set<string>()) : null;
    const folders: Child[] = dir.folders.filter((f) => !filed || filed.has(f.id)).map((f) => ({
      id: f.id,
      parent: f.parent ?? undefined,
      isDir: true,
      title: f.title,
      album: f.album,
      artist: f.artist,
      year: f.year ?? undefined,
      coverArt: f.coverArt ?? undefined,
    }));
    return {
      directory: { id: dir.id, parent: dir.parent ?? undefined, name: dir.name, starred: dir.starred, child: [...folders, ...dir.songs.map(child)] },
    };
  });

  api.method('getGenres', async ({ params }) => {
    const sort = sortParam(params.str('type'), GENRE_SORTS, 'type');
    const genres = await q.genres(sort);
    // A picture set on the genre screen (entity-meta.ts) is named by its own cover id.
    const own = await ctx.library.entities.synced();
    const cover = (name: string) => {
      const id = genreCoverIdFor(name);
      return own.byCover.has(id) ? { coverArt: id } : {};
    };
    return { genres: { genre: genres.map((g) => ({ value: g.name, songCount: g.songCount, albumCount: g.albumCount, ...cover(g.name) })) } };
  });

  api.method('getArtists', async ({ params, user }) => {
    const musicFolderId = params.int('musicFolderId');
    const sort = sortParam(params.str('type'), ARTIST_SORTS, 'type');
    const paged = sort !== undefined || params.has('size') || params.has('offset') || params.has('search');
    const owners = await albumArtists.current();
    if (!paged) {
      // Album artists only, each counting the albums getArtist lists (Navidrome's rule).
      const idx = await q.indexes({ musicFolderId, userId: user._id });
      const index = idx.index
        .map((g) => ({ name: g.name, artist: g.artists.filter((a) => owners.own.has(a.id)).map((a) => owners.id3(artistID3(a))) }))
        .filter((g) => g.artist.length > 0);
      return { artists: { ignoredArticles: idx.ignoredArticles, index } };
    }
    // The spec's extension: one page of the same artists in the asked order, still grouped as index entries.
    const offset = Math.max(0, params.int('offset', 0));
    const size = Math.max(0, Math.min(MAX_PAGE, params.int('size', 50)));
    const search = params.str('search');
    let listed: ArtistView[] = [];
    for (let from = 0; ; from += MAX_PAGE) {
      const batch = await q.artists({ sort, search, offset: from, size: MAX_PAGE, musicFolderId, userId: user._id });
      listed.push(...batch.items.filter((a) => owners.own.has(a.id)));
      if (from + MAX_PAGE >= batch.total) break;
    }
    // Most albums by the albums counted here (stable: ties keep the library's order).
    if (sort === 'most_albums') listed = listed.map((a) => ({ a, n: owners.own.get(a.id)!.size })).sort((x, y) => y.n - x.n).map((x) => x.a);
    return { artists: { ignoredArticles: IGNORED_ARTICLES.join(' '), index: indexRuns(listed.slice(offset, offset + size), owners) } };
  });

  api.method('getArtist', async ({ params, user }) => {
    const id = params.required('id');
    const a = await q.artistDetail(id, user._id);
    // The albums it is an album artist of; appearances on others' albums are left to search.
    const albums = a.albums.filter((al) => al.artists.some((x) => x.id === id));
    return { artist: { ...artistID3(a), albumCount: albums.length, album: albums.map(albumID3) } };
  });

  api.method('getAlbum', async ({ params, user }) => {
    const a = await q.albumDetail(params.required('id'), user._id);
    return { album: { ...albumID3(a), song: a.songs.map(child) } };
  });

  api.method('getSong', async ({ params, user }) => ({ song: child(await q.song(params.required('id'), user._id)) }));

  const artistInfo = async (call: PublicCall & { user: { _id: string } }, id3: boolean): Promise<ArtistInfoBody> => {
    const info = await q.artistInfo(call.params.required('id'), { count: call.params.int('count', 20), userId: call.user._id });
    const owners = await albumArtists.current();
    return {
      ...(info.biography ? { biography: info.biography } : {}),
      ...imageUrls(call, info.coverArt),
      similarArtist: id3 ? info.similarArtists.map((a) => owners.id3(artistID3(a))) : info.similarArtists.map((a) => owners.folder(indexArtist(a))),
    };
  };
  api.method('getArtistInfo', async (call) => ({ artistInfo: await artistInfo(call, false) }));
  api.method('getArtistInfo2', async (call) => ({ artistInfo2: await artistInfo(call, true) }));

  const albumInfo = async (call: PublicCall) => {
    const info = await q.albumInfo(call.params.required('id'));
    return { albumInfo: { ...(info.notes ? { notes: info.notes } : {}), ...imageUrls(call, info.coverArt) } };
  };
  api.method('getAlbumInfo', albumInfo);
  api.method('getAlbumInfo2', albumInfo);

  const similar = async ({ params, user }: { params: PublicCall['params']; user: { _id: string } }) =>
    (await q.similarSongs(params.required('id'), { count: params.int('count', 50), userId: user._id })).map(child);
  api.method('getSimilarSongs', async (call) => ({ similarSongs: { song: await similar(call) } }));
  api.method('getSimilarSongs2', async (call) => ({ similarSongs2: { song: await similar(call) } }));

  api.method('getTopSongs', async ({ params, user }) => ({
    topSongs: { song: (await q.topSongs(params.required('artist'), { count: params.int('count', 50), userId: user._id })).map(child) },
  }));
});
