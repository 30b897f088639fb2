/**
 * JSON schemas of Subsonic 1.16.1 + OpenSubsonic answers, written from the OpenSubsonic reference
 * (opensubsonic.netlify.app, "Responses") — no registry package ships the OpenAPI file. Objects
 * refuse properties the reference does not define, so a typo or an invented field fails a test.
 * `validate(element, value)` checks one response element; `validateResponse` the whole envelope.
 */
import { expect } from 'vitest';
import { Type, type TSchema } from 'typebox';
import { Compile } from 'typebox/compile';

const strict = <T extends Record<string, TSchema>>(props: T) => Type.Object(props, { additionalProperties: false });
const Opt = Type.Optional;
const Int = Type.Integer();
const Str = Type.String();
const Bool = Type.Boolean();
const Num = Type.Number();
const DateTime = Type.String({ format: 'date-time' });
const List = <T extends TSchema>(item: T) => Type.Array(item);

const ItemGenre = strict({ name: Str });
const ArtistRef = strict({ id: Str, name: Str });
const ReplayGain = strict({ trackGain: Opt(Num), albumGain: Opt(Num), trackPeak: Opt(Num), albumPeak: Opt(Num), baseGain: Opt(Num), fallbackGain: Opt(Num) });
const Contributor = strict({ role: Str, subRole: Opt(Str), artist: ArtistRef });

const childProps = {
  id: Str,
  parent: Opt(Str),
  isDir: Bool,
  title: Str,
  album: Opt(Str),
  artist: Opt(Str),
  track: Opt(Int),
  year: Opt(Int),
  genre: Opt(Str),
  coverArt: Opt(Str),
  size: Opt(Int),
  contentType: Opt(Str),
  suffix: Opt(Str),
  transcodedContentType: Opt(Str),
  transcodedSuffix: Opt(Str),
  duration: Opt(Int),
  bitRate: Opt(Int),
  bitDepth: Opt(Int),
  samplingRate: Opt(Int),
  channelCount: Opt(Int),
  path: Opt(Str),
  isVideo: Opt(Bool),
  userRating: Opt(Type.Integer({ minimum: 1, maximum: 5 })),
  averageRating: Opt(Num),
  playCount: Opt(Int),
  totalPlayCount: Opt(Int),
  userPlayCount: Opt(Int),
  discNumber: Opt(Int),
  created: Opt(DateTime),
  starred: Opt(DateTime),
  albumId: Opt(Str),
  artistId: Opt(Str),
  type: Opt(Type.Union([Type.Literal('music'), Type.Literal('podcast'), Type.Literal('audiobook'), Type.Literal('video')])),
  mediaType: Opt(Type.Union([Type.Literal('song'), Type.Literal('album'), Type.Literal('artist')])),
  bookmarkPosition: Opt(Int),
  originalWidth: Opt(Int),
  originalHeight: Opt(Int),
  played: Opt(DateTime),
  bpm: Opt(Int),
  comment: Opt(Str),
  sortName: Opt(Str),
  musicBrainzId: Opt(Str),
  isrc: Opt(List(Str)),
  genres: Opt(List(ItemGenre)),
  artists: Opt(List(ArtistRef)),
  displayArtist: Opt(Str),
  albumArtists: Opt(List(ArtistRef)),
  displayAlbumArtist: Opt(Str),
  contributors: Opt(List(Contributor)),
  displayComposer: Opt(Str),
  moods: Opt(List(Str)),
  replayGain: Opt(ReplayGain),
  explicitStatus: Opt(Str),
};
export const Child = strict(childProps);

const artistID3Props = {
  id: Str,
  name: Str,
  coverArt: Opt(Str),
  artistImageUrl: Opt(Str),
  albumCount: Opt(Int),
  starred: Opt(DateTime),
  userRating: Opt(Type.Integer({ minimum: 1, maximum: 5 })),
  musicBrainzId: Opt(Str),
  sortName: Opt(Str),
  roles: Opt(List(Str)),
};
export const ArtistID3 = strict(artistID3Props);

const albumID3Props = {
  id: Str,
  name: Str,
  version: Opt(Str),
  artist: Opt(Str),
  artistId: Opt(Str),
  coverArt: Opt(Str),
  songCount: Int,
  duration: Int,
  playCount: Opt(Int),
  created: DateTime,
  starred: Opt(DateTime),
  year: Opt(Int),
  genre: Opt(Str),
  played: Opt(DateTime),
  userRating: Opt(Type.Integer({ minimum: 0, maximum: 5 })),
  recordLabels: Opt(List(strict({ name: Str }))),
  musicBrainzId: Opt(Str),
  genres: Opt(List(ItemGenre)),
  artists: Opt(List(ArtistRef)),
  displayArtist: Opt(Str),
  releaseTypes: Opt(List(Str)),
  moods: Opt(List(Str)),
  sortName: Opt(Str),
  originalReleaseDate: Opt(strict({ year: Opt(Int), month: Opt(Int), day: Opt(Int) })),
  releaseDate: Opt(strict({ year: Opt(Int), month: Opt(Int), day: Opt(Int) })),
  isCompilation: Opt(Bool),
  explicitStatus: Opt(Str),
  discTitles: Opt(List(strict({ disc: Int, title: Str }))),
};
export const AlbumID3 = strict(albumID3Props);

const IndexArtist = strict({ id: Str, name: Str, artistImageUrl: Opt(Str), starred: Opt(DateTime), userRating: Opt(Int), averageRating: Opt(Num), coverArt: Opt(Str), albumCount: Opt(Int) });
const songs = strict({ song: List(Child) });
const artistInfo = (similar: TSchema) =>
  strict({
    biography: Opt(Str),
    musicBrainzId: Opt(Str),
    lastFmUrl: Opt(Str),
    smallImageUrl: Opt(Str),
    mediumImageUrl: Opt(Str),
    largeImageUrl: Opt(Str),
    similarArtist: Opt(List(similar)),
  });
const UserSchema = strict({
  username: Str,
  email: Opt(Str),
  scrobblingEnabled: Bool,
  maxBitRate: Opt(Int),
  adminRole: Bool,
  settingsRole: Bool,
  downloadRole: Bool,
  uploadRole: Bool,
  playlistRole: Bool,
  coverArtRole: Bool,
  commentRole: Bool,
  podcastRole: Bool,
  streamRole: Bool,
  jukeboxRole: Bool,
  shareRole: Bool,
  videoConversionRole: Bool,
  avatarLastChanged: Opt(DateTime),
  folder: Opt(List(Int)),
});
const queueProps = { position: Opt(Int), username: Str, changed: DateTime, changedBy: Str, entry: Opt(List(Child)) };

/** The element of every method this file knows, by its key in `subsonic-response`. */
export const ELEMENTS: Record<string, TSchema> = {
  license: strict({ valid: Bool, email: Opt(Str), licenseExpires: Opt(DateTime), trialExpires: Opt(DateTime) }),
  openSubsonicExtensions: List(strict({ name: Str, versions: List(Int) })),
  tokenInfo: strict({ username: Str }),
  musicFolders: strict({ musicFolder: List(strict({ id: Int, name: Opt(Str) })) }),
  indexes: strict({
    shortcut: Opt(List(IndexArtist)),
    index: Opt(List(strict({ name: Str, artist: List(IndexArtist) }))),
    child: Opt(List(Child)),
    lastModified: Int,
    ignoredArticles: Str,
  }),
  directory: strict({ id: Str, parent: Opt(Str), name: Str, starred: Opt(DateTime), userRating: Opt(Int), averageRating: Opt(Num), playCount: Opt(Int), child: Opt(List(Child)) }),
  genres: strict({ genre: List(strict({ value: Str, songCount: Int, albumCount: Int, coverArt: Opt(Str) })) }),
  artists: strict({ ignoredArticles: Str, index: Opt(List(strict({ name: Str, artist: List(ArtistID3) }))) }),
  artist: strict({ ...artistID3Props, album: Opt(List(AlbumID3)) }),
  album: strict({ ...albumID3Props, song: Opt(List(Child)) }),
  song: Child,
  artistInfo: artistInfo(IndexArtist),
  artistInfo2: artistInfo(ArtistID3),
  albumInfo: strict({ notes: Opt(Str), musicBrainzId: Opt(Str), lastFmUrl: Opt(Str), smallImageUrl: Opt(Str), mediumImageUrl: Opt(Str), largeImageUrl: Opt(Str) }),
  similarSongs: songs,
  similarSongs2: songs,
  topSongs: songs,
  albumList: strict({ album: List(Child) }),
  albumList2: strict({ album: List(AlbumID3) }),
  randomSongs: songs,
  songsByGenre: songs,
  songList: songs,
  nowPlaying: strict({ entry: List(strict({ ...childProps, username: Str, minutesAgo: Int, playerId: Int, playerName: Opt(Str) })) }),
  starred: strict({ artist: Opt(List(IndexArtist)), album: Opt(List(Child)), song: Opt(List(Child)) }),
  starred2: strict({ artist: Opt(List(ArtistID3)), album: Opt(List(AlbumID3)), song: Opt(List(Child)) }),
  searchResult2: strict({ artist: Opt(List(IndexArtist)), album: Opt(List(Child)), song: Opt(List(Child)) }),
  searchResult3: strict({ artist: Opt(List(ArtistID3)), album: Opt(List(AlbumID3)), song: Opt(List(Child)) }),
  bookmarks: strict({ bookmark: List(strict({ position: Int, username: Str, comment: Opt(Str), created: DateTime, changed: DateTime, entry: Child })) }),
  playQueue: strict({ current: Opt(Str), ...queueProps }),
  playQueueByIndex: strict({ currentIndex: Opt(Int), ...queueProps }),
  user: UserSchema,
  users: strict({ user: List(UserSchema) }),
  shares: strict({
    share: List(
      strict({ id: Str, url: Str, description: Opt(Str), username: Str, created: DateTime, expires: Opt(DateTime), lastVisited: Opt(DateTime), visitCount: Int, entry: Opt(List(Child)) }),
    ),
  }),
  scanStatus: strict({ scanning: Bool, count: Opt(Int), folderCount: Opt(Int), lastScan: Opt(DateTime) }),
};

const ErrorSchema = strict({ code: Int, message: Opt(Str), helpUrl: Opt(Str) });
const envelopeProps = {
  status: Type.Union([Type.Literal('ok'), Type.Literal('failed')]),
  version: Type.Literal('1.16.1'),
  type: Type.Literal('tagsonic'),
  serverVersion: Str,
  openSubsonic: Type.Literal(true),
  error: Opt(ErrorSchema),
};

const compiled = new Map<string, ReturnType<typeof Compile>>();
const compiledFor = (key: string, schema: TSchema) => {
  let c = compiled.get(key);
  if (!c) compiled.set(key, (c = Compile(schema)));
  return c;
};

/** Checks a value against a schema, failing the test with the first errors. */
export function check(key: string, schema: TSchema, value: unknown): void {
  const c = compiledFor(key, schema);
  if (!c.Check(value)) {
    const errors = [...c.Errors(value)].slice(0, 8).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
    expect.fail(`${key} does not match its schema:\n${errors.join('\n')}`);
  }
}

/**
 * Checks a whole `subsonic-response`: the envelope, then each element against its schema (an
 * element this file does not know fails unless `allowUnknown`).
 */
export function validateResponse(body: Record<string, unknown>, extra: Record<string, TSchema> = {}, allowUnknown = false): void {
  const rest: Record<string, unknown> = {};
  const envelope: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) (k in envelopeProps ? envelope : rest)[k] = v;
  check('envelope', strict(envelopeProps), envelope);
  for (const [k, v] of Object.entries(rest)) {
    const schema = extra[k] ?? ELEMENTS[k];
    if (!schema) {
      if (allowUnknown) continue;
      expect.fail(`no schema for element "${k}"`);
    }
    check(k, schema, v);
  }
}
