/**
 * Lists: album lists (every standard type + the spec's less_cover, search, byArtist), random songs,
 * songs by genre (+ the spec's artist_id and search), now playing, starred items (+ the spec's
 * type, size, offset), and Tagsonic's sorted song list (getSongList, the dashboard's /tracks screen).
 */
import { ALBUM_LIST_TYPES, type AlbumListOptions, type AlbumListType, type ItemType } from '@tagsonic/core/library';
import { badParam, missingParam } from './errors.ts';
import { albumArtistsOf } from './album-artists.ts';
import { albumChild, albumID3, artistID3, child, indexArtist } from './mappers.ts';
import type { NowPlayingEntryBody } from './model.ts';
import type { Params } from './params.ts';
import { defineGroup } from './registry.ts';

/** The spec's default size for random songs, and the largest page the library serves. */
const RANDOM_DEFAULT = 200;
const RANDOM_MAX = 500;

const STAR_TYPES: Record<string, ItemType> = { artist: 'artist', album: 'album', track: 'track', song: 'track' };

/** getSongList orders (the /tracks tabs); the play-based ones are the calling user's plays. */
const SONG_LIST_TYPES = ['recently-added', 'recently-played', 'most-played', 'a-z'] as const;
type SongListType = (typeof SONG_LIST_TYPES)[number];

function albumListOptions(params: Params, userId: string): AlbumListOptions {
  const type = params.required('type');
  if (!(ALBUM_LIST_TYPES as readonly string[]).includes(type)) throw badParam('type', `one of ${ALBUM_LIST_TYPES.join(', ')}`);
  if (type === 'byYear') {
    if (!params.has('fromYear')) throw missingParam('fromYear');
    if (!params.has('toYear')) throw missingParam('toYear');
  }
  if (type === 'byGenre' && !params.str('genre')) throw missingParam('genre');
  if (type === 'byArtist' && !params.str('artist_id') && !params.str('artistId')) throw missingParam('artist_id');
  return {
    type: type as AlbumListType,
    size: params.int('size'),
    offset: params.int('offset'),
    fromYear: params.int('fromYear'),
    toYear: params.int('toYear'),
    genre: params.str('genre'),
    artistId: params.str('artist_id') ?? params.str('artistId'),
    search: params.str('search') ?? params.str('query'),
    musicFolderId: params.int('musicFolderId'),
    userId,
  };
}

function starType(params: Params): ItemType | undefined {
  const t = params.str('type');
  if (t === undefined || t === '') return undefined;
  const type = STAR_TYPES[t];
  if (!type) throw badParam('type', 'artist, album or track');
  return type;
}

export const albumListsGroup = defineGroup('album-lists', (api, ctx) => {
  const q = ctx.library.queries;

  api.method('getAlbumList', async ({ params, user }) => ({
    albumList: { album: (await q.albumList(albumListOptions(params, user._id))).map(albumChild) },
  }));

  api.method('getAlbumList2', async ({ params, user }) => ({
    albumList2: { album: (await q.albumList(albumListOptions(params, user._id))).map(albumID3) },
  }));

  // Songs of the user's filter lists (updatePlaylistProps props=exclude) never come up at random.
  api.method('getRandomSongs', async ({ params, user }) => {
    const size = Math.max(0, Math.min(RANDOM_MAX, params.int('size') ?? RANDOM_DEFAULT));
    const excluded = await ctx.playlists.excludedTrackIds(user._id);
    const songs = await q.randomSongs({
      size: Math.min(RANDOM_MAX, size + excluded.size),
      genre: params.str('genre') || undefined,
      fromYear: params.int('fromYear'),
      toYear: params.int('toYear'),
      musicFolderId: params.int('musicFolderId'),
      userId: user._id,
    });
    return { randomSongs: { song: songs.filter((s) => !excluded.has(s.id)).slice(0, size).map(child) } };
  });

  // Subsonic has no sorted song list; the dashboard's /tracks/:sort pages this one (50 a batch, offset on).
  api.method('getSongList', async ({ params, user }) => {
    const type = params.str('type') || 'recently-added';
    if (!(SONG_LIST_TYPES as readonly string[]).includes(type)) throw badParam('type', SONG_LIST_TYPES.join(', '));
    const songs = await q.songList({
      sort: type as SongListType,
      search: params.str('search') ?? params.str('query'),
      offset: params.int('offset'),
      size: params.int('size'),
      userId: user._id,
    });
    return { songList: { song: songs.map(child) } };
  });

  api.method('getSongsByGenre', async ({ params, user }) => {
    const genre = params.str('genre') || undefined;
    const artistId = params.str('artist_id') || params.str('artistId') || undefined;
    if (!genre && !artistId) throw missingParam('genre');
    const songs = await q.songsByGenre({
      genre,
      artistId,
      search: params.str('search'),
      count: params.int('count'),
      offset: params.int('offset'),
      musicFolderId: params.int('musicFolderId'),
      userId: user._id,
    });
    return { songsByGenre: { song: songs.map(child) } };
  });

  api.method('getNowPlaying', async ({ user }) => {
    const entries = await ctx.library.annotations.nowPlaying();
    const songs = new Map((await q.songsByIds(entries.map((e) => e.trackId), user._id)).map((s) => [s.id, s]));
    const names = new Map<string, string>();
    const out: NowPlayingEntryBody[] = [];
    for (const [i, e] of entries.entries()) {
      const song = songs.get(e.trackId);
      if (!song) continue;
      if (!names.has(e.userId)) names.set(e.userId, (await ctx.users.findById(e.userId))?.username ?? '');
      const username = names.get(e.userId)!;
      if (!username) continue;
      out.push({ ...child(song), username, minutesAgo: e.minutesAgo, playerId: i + 1, ...(e.client ? { playerName: e.client } : {}) });
    }
    return { nowPlaying: { entry: out } };
  });

  const starred = ({ params, user }: { params: Params; user: { _id: string } }) =>
    q.starred({ userId: user._id, type: starType(params), offset: params.int('offset'), size: params.int('size'), musicFolderId: params.int('musicFolderId') });

  const albumArtists = albumArtistsOf(ctx.library);

  api.method('getStarred', async (call) => {
    const s = await starred(call);
    const owners = await albumArtists.current();
    return { starred: { artist: s.artists.map((a) => owners.folder(indexArtist(a))), album: s.albums.map(albumChild), song: s.songs.map(child) } };
  });

  api.method('getStarred2', async (call) => {
    const s = await starred(call);
    const owners = await albumArtists.current();
    return { starred2: { artist: s.artists.map((a) => owners.id3(artistID3(a))), album: s.albums.map(albumID3), song: s.songs.map(child) } };
  });
});
