/**
 * Library views (core/library) → Subsonic response items. Every endpoint maps songs, albums and
 * artists through these, so a field is added or fixed in one place. OpenSubsonic fields we support
 * are always present (empty when unknown), as OpenSubsonic asks, so clients can tell they exist.
 */
import { viewSource, type AlbumView, type ArtistView, type IdName, type SongView } from '@tagsonic/core/library';
import type { AlbumID3, ArtistID3, ArtistRef, Child, IndexArtist, ReplayGainBody } from './model.ts';
import { markCached, type ItemShape, type ItemSource } from './serialize.ts';

const refs = (list: readonly IdName[]): ArtistRef[] => list.map((a) => ({ id: a.id, name: a.name }));

function replayGain(song: SongView): ReplayGainBody {
  const rg = song.replayGain;
  const out: ReplayGainBody = {};
  if (rg?.trackGain != null) out.trackGain = rg.trackGain;
  if (rg?.albumGain != null) out.albumGain = rg.albumGain;
  if (rg?.trackPeak != null) out.trackPeak = rg.trackPeak;
  if (rg?.albumPeak != null) out.albumPeak = rg.albumPeak;
  return out;
}

const opt = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);

/** `item`, marked for the serializer's cache when the view still knows its source document. */
const cached = <T extends object>(item: T, shape: ItemShape, source: ItemSource | undefined): T => (source ? markCached(item, shape, source) : item);

/** A song as a Subsonic `Child` (song lists, directories, playlists, queues, bookmarks, shares). */
export function child(song: SongView): Child {
  return cached(songChild(song), 'song', viewSource(song));
}

function songChild(song: SongView): Child {
  return {
    id: song.id,
    parent: song.parent,
    isDir: false,
    title: song.title,
    album: song.album,
    artist: song.artist,
    track: opt(song.track),
    year: opt(song.year),
    genre: opt(song.genre),
    coverArt: song.coverArt,
    size: song.size,
    contentType: song.contentType,
    suffix: song.suffix,
    duration: Math.round(song.duration),
    bitRate: song.bitRate,
    bitDepth: opt(song.bitDepth),
    samplingRate: song.samplingRate,
    channelCount: song.channelCount,
    path: song.path,
    isVideo: false,
    userRating: song.userRating,
    playCount: song.playCount,
    discNumber: opt(song.discNumber),
    created: song.created,
    starred: song.starred,
    albumId: song.albumId,
    artistId: song.artistId || undefined,
    type: 'music',
    mediaType: 'song',
    played: song.played,
    comment: song.comment ?? '',
    genres: song.genres.map((name) => ({ name })),
    artists: refs(song.artists),
    displayArtist: song.artist,
    albumArtists: refs(song.albumArtists),
    displayAlbumArtist: song.albumArtist,
    displayComposer: song.composer ?? '',
    replayGain: replayGain(song),
  };
}

/** An album as a folder-style `Child` (getAlbumList, getStarred, search2: the non-ID3 API). */
export function albumChild(album: AlbumView): Child {
  return cached<Child>({
    id: album.id,
    parent: album.artistId || undefined,
    isDir: true,
    title: album.name,
    album: album.name,
    artist: album.artist,
    year: opt(album.year),
    genre: opt(album.genre),
    coverArt: album.coverArt,
    duration: Math.round(album.duration),
    userRating: album.userRating,
    playCount: album.playCount,
    created: album.created,
    starred: album.starred,
    albumId: album.id,
    artistId: album.artistId || undefined,
    mediaType: 'album',
    played: album.played,
  }, 'albumChild', viewSource(album));
}

export function albumID3(album: AlbumView): AlbumID3 {
  return cached<AlbumID3>({
    id: album.id,
    name: album.name,
    artist: album.artist,
    artistId: album.artistId || undefined,
    coverArt: album.coverArt,
    songCount: album.songCount,
    duration: Math.round(album.duration),
    playCount: album.playCount,
    created: album.created,
    starred: album.starred,
    year: opt(album.year),
    genre: opt(album.genre),
    played: album.played,
    userRating: album.userRating,
    genres: album.genres.map((name) => ({ name })),
    artists: refs(album.artists),
    displayArtist: album.artist,
    isCompilation: album.isCompilation,
  }, 'albumID3', viewSource(album));
}

export function artistID3(artist: ArtistView): ArtistID3 {
  return cached<ArtistID3>({
    id: artist.id,
    name: artist.name,
    coverArt: artist.coverArt,
    albumCount: artist.albumCount,
    starred: artist.starred,
    userRating: artist.userRating,
  }, 'artistID3', viewSource(artist));
}

/** An artist of the folder-based API (getIndexes, getStarred, search2). */
export function indexArtist(artist: ArtistView): IndexArtist {
  return cached<IndexArtist>({
    id: artist.id,
    name: artist.name,
    starred: artist.starred,
    userRating: artist.userRating,
    coverArt: artist.coverArt,
    albumCount: artist.albumCount,
  }, 'indexArtist', viewSource(artist));
}
