/**
 * getDiscover — the spec's non-standard discover payload (hot artists and track, random songs,
 * recommended, new and featured albums, similar artists, recent plays), snake_case as the
 * dashboard reads it, under the `discover` element. Songs and albums keep their Subsonic shapes.
 */
import { albumID3, artistID3, child } from './mappers.ts';
import type { DiscoverBody } from './model.ts';
import { defineGroup } from './registry.ts';

export const discoverGroup = defineGroup('discover', (api, ctx) => {
  api.method('getDiscover', async ({ params, user }) => {
    const d = await ctx.library.queries.discover({ userId: user._id, randomCount: params.int('randomCount', 8) });
    const discover: DiscoverBody = {
      hot_artists: d.hotArtists.map((a) => ({
        id: a.id,
        name: a.name,
        cover: a.coverArt,
        play_count: a.playCount,
        genres: a.genres,
        latest_album: a.latestAlbum ? { id: a.latestAlbum.id, name: a.latestAlbum.name, ...(a.latestAlbum.year !== null ? { year: a.latestAlbum.year } : {}) } : null,
        favourite: a.starred !== undefined,
      })),
      hot_track: d.hotTrack
        ? {
            id: d.hotTrack.id,
            name: d.hotTrack.title,
            cover: d.hotTrack.coverArt,
            artist_name: d.hotTrack.artist,
            artist_id: d.hotTrack.artistId,
            album: d.hotTrack.album,
            album_id: d.hotTrack.albumId,
            play_count: d.hotTrack.totalPlayCount,
            duration: Math.round(d.hotTrack.duration),
          }
        : null,
      random_songs: d.randomSongs.map(child),
      recommend_albums: d.recommendAlbums.map(albumID3),
      new_albums: d.newAlbums.map((a) => ({
        ...albumID3(a),
        type: a.isCompilation ? 'compilation' : 'album',
        created_at: a.created,
        comment: a.comment ?? '',
        rating: a.userRating ?? 0,
        rating_count: a.ratingCount,
        favourite: a.starred !== undefined,
      })),
      album: d.featuredAlbum
        ? {
            id: d.featuredAlbum.id,
            name: d.featuredAlbum.name,
            cover: d.featuredAlbum.coverArt,
            comment: d.featuredAlbum.comment ?? '',
            ...(d.featuredAlbum.year !== null ? { year: d.featuredAlbum.year } : {}),
            play_count: d.featuredAlbum.totalPlayCount,
            artists: d.featuredAlbum.artists.map((x) => ({ id: x.id, name: x.name })),
          }
        : null,
      similar_artists: d.similarArtists.map(artistID3),
      recent_plays: d.recentPlays.map((s) => ({ ...child(s), played_at: s.playedAt })),
    };
    return { discover };
  });
});
