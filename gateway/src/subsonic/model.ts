/**
 * The Subsonic 1.16.1 + OpenSubsonic response model: one typed tree per answer, serialised to XML or
 * JSON by serialize.ts. Scalars become XML attributes, nested objects and arrays become child
 * elements, `value` is an element's text (see serialize.ts for the few text-element exceptions).
 * Dates stay Date objects and come out as ISO 8601 in both formats.
 */

export const API_VERSION = '1.16.1';
export const SERVER_TYPE = 'tagsonic';

export type Status = 'ok' | 'failed';

export interface SubsonicErrorBody {
  code: number;
  message: string;
  helpUrl?: string;
}

export interface ItemGenre {
  name: string;
}

/** OpenSubsonic's short artist reference (`artists`, `albumArtists` of songs and albums). */
export interface ArtistRef {
  id: string;
  name: string;
}

export interface ReplayGainBody {
  trackGain?: number;
  albumGain?: number;
  trackPeak?: number;
  albumPeak?: number;
  baseGain?: number;
}

export interface Child {
  id: string;
  parent?: string;
  isDir: boolean;
  title: string;
  album?: string;
  artist?: string;
  track?: number;
  year?: number;
  genre?: string;
  coverArt?: string;
  size?: number;
  contentType?: string;
  suffix?: string;
  transcodedContentType?: string;
  transcodedSuffix?: string;
  duration?: number;
  bitRate?: number;
  bitDepth?: number;
  samplingRate?: number;
  channelCount?: number;
  path?: string;
  isVideo?: boolean;
  userRating?: number;
  averageRating?: number;
  playCount?: number;
  discNumber?: number;
  created?: Date;
  starred?: Date;
  albumId?: string;
  artistId?: string;
  type?: 'music' | 'podcast' | 'audiobook' | 'video';
  mediaType?: 'song' | 'album' | 'artist';
  bookmarkPosition?: number;
  played?: Date;
  comment?: string;
  sortName?: string;
  musicBrainzId?: string;
  isrc?: string[];
  genres?: ItemGenre[];
  artists?: ArtistRef[];
  displayArtist?: string;
  albumArtists?: ArtistRef[];
  displayAlbumArtist?: string;
  displayComposer?: string;
  moods?: string[];
  replayGain?: ReplayGainBody;
  explicitStatus?: string;
}

export interface ArtistID3 {
  id: string;
  name: string;
  coverArt?: string;
  artistImageUrl?: string;
  albumCount?: number;
  starred?: Date;
  userRating?: number;
  musicBrainzId?: string;
  sortName?: string;
  roles?: string[];
}

export interface AlbumID3 {
  id: string;
  name: string;
  artist?: string;
  artistId?: string;
  coverArt?: string;
  songCount: number;
  duration: number;
  playCount?: number;
  created: Date;
  starred?: Date;
  year?: number;
  genre?: string;
  played?: Date;
  userRating?: number;
  musicBrainzId?: string;
  genres?: ItemGenre[];
  artists?: ArtistRef[];
  displayArtist?: string;
  releaseTypes?: string[];
  moods?: string[];
  sortName?: string;
  isCompilation?: boolean;
  explicitStatus?: string;
}

export interface AlbumWithSongsID3 extends AlbumID3 {
  song: Child[];
}

export interface ArtistWithAlbumsID3 extends ArtistID3 {
  album: AlbumID3[];
}

export interface MusicFolderBody {
  id: number;
  name: string;
}

/** An artist of the folder-based index (getIndexes). */
export interface IndexArtist {
  id: string;
  name: string;
  starred?: Date;
  userRating?: number;
  coverArt?: string;
  albumCount?: number;
}

export interface IndexBody {
  name: string;
  artist: IndexArtist[];
}

export interface IndexesBody {
  lastModified: number;
  ignoredArticles: string;
  index: IndexBody[];
  child: Child[];
}

export interface IndexID3Body {
  name: string;
  artist: ArtistID3[];
}

export interface ArtistsID3Body {
  ignoredArticles: string;
  index: IndexID3Body[];
}

export interface DirectoryBody {
  id: string;
  parent?: string;
  name: string;
  starred?: Date;
  userRating?: number;
  playCount?: number;
  child: Child[];
}

export interface GenreBody {
  value: string;
  songCount: number;
  albumCount: number;
  /** Tagsonic: the genre's own picture (set on the genre screen), for getCoverArt. */
  coverArt?: string;
}

export interface ArtistInfoBody {
  biography?: string;
  musicBrainzId?: string;
  lastFmUrl?: string;
  smallImageUrl?: string;
  mediumImageUrl?: string;
  largeImageUrl?: string;
  similarArtist: Array<IndexArtist | ArtistID3>;
}

export interface AlbumInfoBody {
  notes?: string;
  musicBrainzId?: string;
  lastFmUrl?: string;
  smallImageUrl?: string;
  mediumImageUrl?: string;
  largeImageUrl?: string;
}

export interface NowPlayingEntryBody extends Child {
  username: string;
  minutesAgo: number;
  playerId: number;
  playerName?: string;
}

export interface SearchResult2Body {
  artist: IndexArtist[];
  album: Child[];
  song: Child[];
}

export interface SearchResult3Body {
  artist: ArtistID3[];
  album: AlbumID3[];
  song: Child[];
}

export interface StarredBody {
  artist: IndexArtist[];
  album: Child[];
  song: Child[];
}

export interface Starred2Body {
  artist: ArtistID3[];
  album: AlbumID3[];
  song: Child[];
}

export interface BookmarkBody {
  position: number;
  username: string;
  comment?: string;
  created: Date;
  changed: Date;
  entry: Child;
}

export interface PlayQueueBody {
  current?: string;
  position?: number;
  username: string;
  changed: Date;
  changedBy: string;
  entry: Child[];
}

export interface PlayQueueByIndexBody {
  currentIndex?: number;
  position?: number;
  username: string;
  changed: Date;
  changedBy: string;
  entry: Child[];
}

export interface UserBody {
  username: string;
  email?: string;
  scrobblingEnabled: boolean;
  maxBitRate?: number;
  adminRole: boolean;
  settingsRole: boolean;
  downloadRole: boolean;
  uploadRole: boolean;
  playlistRole: boolean;
  coverArtRole: boolean;
  commentRole: boolean;
  podcastRole: boolean;
  streamRole: boolean;
  jukeboxRole: boolean;
  shareRole: boolean;
  videoConversionRole: boolean;
  avatarLastChanged?: Date;
  folder: number[];
}

export interface ShareBody {
  id: string;
  url: string;
  description?: string;
  username: string;
  created: Date;
  expires?: Date;
  lastVisited?: Date;
  visitCount: number;
  entry: Child[];
}

export interface InternetRadioStationBody {
  id: string;
  name: string;
  streamUrl: string;
  homePageUrl?: string;
}

export interface ScanStatusBody {
  scanning: boolean;
  count?: number;
  folderCount?: number;
  lastScan?: Date;
}

export interface LicenseBody {
  valid: boolean;
  email?: string;
  licenseExpires?: Date;
  trialExpires?: Date;
}

export interface OpenSubsonicExtensionBody {
  name: string;
  versions: number[];
}

export interface PlaylistBody {
  id: string;
  name: string;
  comment?: string;
  owner?: string;
  public?: boolean;
  songCount: number;
  duration: number;
  created: Date;
  changed: Date;
  coverArt?: string;
  allowedUser?: string[];
  readonly?: boolean;
  validUntil?: Date;
  [extra: string]: unknown;
}

export interface PlaylistWithSongsBody extends PlaylistBody {
  entry: Child[];
}

export interface LyricsBody {
  artist?: string;
  title?: string;
  value: string;
}

export interface LyricLineBody {
  start?: number;
  value: string;
}

export interface StructuredLyricsBody {
  displayArtist?: string;
  displayTitle?: string;
  lang: string;
  offset?: number;
  synced: boolean;
  line: LyricLineBody[];
}

/** The spec's getDiscover payload (not part of Subsonic; field names as the dashboard reads them). */
export interface DiscoverBody {
  hot_artists: Array<{ id: string; name: string; cover: string; play_count: number; genres: string[]; latest_album: { id: string; name: string; year?: number } | null; favourite: boolean }>;
  hot_track: { id: string; name: string; cover: string; artist_name: string; artist_id: string; album: string; album_id: string; play_count: number; duration: number } | null;
  random_songs: Child[];
  recommend_albums: AlbumID3[];
  new_albums: Array<AlbumID3 & { type: string; created_at: Date; comment: string; rating: number; rating_count: number; favourite: boolean }>;
  album: { id: string; name: string; cover: string; comment: string; year?: number; play_count: number; artists: ArtistRef[] } | null;
  similar_artists: ArtistID3[];
  recent_plays: Array<Child & { played_at: Date }>;
}

/**
 * Every element an answer may carry beside the envelope's own fields, keyed by its Subsonic name.
 * Handlers return a `ResponseBody` holding the one element of their method (or nothing for an empty ok).
 */
export interface ResponseBody {
  musicFolders?: { musicFolder: MusicFolderBody[] };
  indexes?: IndexesBody;
  directory?: DirectoryBody;
  genres?: { genre: GenreBody[] };
  artists?: ArtistsID3Body;
  artist?: ArtistWithAlbumsID3;
  album?: AlbumWithSongsID3;
  song?: Child;
  artistInfo?: ArtistInfoBody;
  artistInfo2?: ArtistInfoBody;
  albumInfo?: AlbumInfoBody;
  similarSongs?: { song: Child[] };
  similarSongs2?: { song: Child[] };
  topSongs?: { song: Child[] };
  albumList?: { album: Child[] };
  albumList2?: { album: AlbumID3[] };
  randomSongs?: { song: Child[] };
  songsByGenre?: { song: Child[] };
  nowPlaying?: { entry: NowPlayingEntryBody[] };
  starred?: StarredBody;
  /** Tagsonic's getSongList (sorted songs, paged). */
  songList?: { song: Child[] };
  starred2?: Starred2Body;
  searchResult2?: SearchResult2Body;
  searchResult3?: SearchResult3Body;
  bookmarks?: { bookmark: BookmarkBody[] };
  playQueue?: PlayQueueBody;
  playQueueByIndex?: PlayQueueByIndexBody;
  user?: UserBody;
  users?: { user: UserBody[] };
  shares?: { share: ShareBody[] };
  internetRadioStations?: { internetRadioStation: InternetRadioStationBody[] };
  scanStatus?: ScanStatusBody;
  license?: LicenseBody;
  openSubsonicExtensions?: OpenSubsonicExtensionBody[];
  tokenInfo?: { username: string };
  playlists?: { playlist: PlaylistBody[] };
  playlist?: PlaylistWithSongsBody;
  lyrics?: LyricsBody;
  lyricsList?: { structuredLyrics: StructuredLyricsBody[] };
  discover?: DiscoverBody;
  /** The spec's exportPlaylist: a signed link to the .m3u8 file (valid one hour). */
  playlistExport?: { url: string; fileName: string; expires: Date };
  /** importPlaylist: the playlist made and the entries that named no library file. */
  playlistImport?: { matched: number; unmatchedCount: number; playlist: PlaylistBody; unmatched: Array<{ line: number; location: string; reason: string }> };
}

/** The whole answer: the envelope's fields plus the method's element. */
export interface SubsonicResponse extends ResponseBody {
  status: Status;
  version: string;
  type: string;
  serverVersion: string;
  openSubsonic: true;
  error?: SubsonicErrorBody;
}
