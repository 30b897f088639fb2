/**
 * Search: search2 (folder-style results) and search3 (ID3). Every word must occur, case-, width- and
 * accent-insensitively (CJK works); an empty, absent or `""` query pages the whole library.
 */
import type { SearchOptions } from '@tagsonic/core/library';
import { albumArtistsOf } from './album-artists.ts';
import { albumChild, albumID3, artistID3, child, indexArtist } from './mappers.ts';
import type { Params } from './params.ts';
import { defineGroup } from './registry.ts';

const searchOptions = (params: Params, userId: string): SearchOptions => ({
  query: params.str('query') ?? '',
  artistCount: params.int('artistCount'),
  artistOffset: params.int('artistOffset'),
  albumCount: params.int('albumCount'),
  albumOffset: params.int('albumOffset'),
  songCount: params.int('songCount'),
  songOffset: params.int('songOffset'),
  musicFolderId: params.int('musicFolderId'),
  userId,
});

export const searchingGroup = defineGroup('searching', (api, ctx) => {
  const q = ctx.library.queries;
  const albumArtists = albumArtistsOf(ctx.library);

  api.method('search2', async ({ params, user }) => {
    const r = await q.search(searchOptions(params, user._id));
    const owners = await albumArtists.current();
    return { searchResult2: { artist: r.artists.map((a) => owners.folder(indexArtist(a))), album: r.albums.map(albumChild), song: r.songs.map(child) } };
  });

  api.method('search3', async ({ params, user }) => {
    const r = await q.search(searchOptions(params, user._id));
    const owners = await albumArtists.current();
    return { searchResult3: { artist: r.artists.map((a) => owners.id3(artistID3(a))), album: r.albums.map(albumID3), song: r.songs.map(child) } };
  });
});
