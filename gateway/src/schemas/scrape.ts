import { Type } from 'typebox';
import { Envelope, NullableString } from './common.ts';

/** A plugin id (the manifest's rule). */
const SourceId = Type.String({ pattern: '^[a-z0-9][a-z0-9_-]{0,63}$' });
const NullableCount = Type.Unsafe<number | null>({ type: ['integer', 'null'] });
const NullableNumber = Type.Unsafe<number | null>({ type: ['number', 'null'] });

export const FetchId3ByTitleRequest = Type.Object(
  {
    title: Type.String({ maxLength: 500 }),
    artist: Type.Optional(Type.String({ maxLength: 500 })),
    album: Type.Optional(Type.String({ maxLength: 500 })),
    /** The file being edited: its duration helps the source, and acoustid fingerprints it. Inside the media roots. */
    full_path: Type.Optional(Type.String({ maxLength: 4096 })),
    /** The tag source's plugin id; default netease (the spec's default). */
    resource: Type.Optional(SourceId),
  },
  { additionalProperties: false },
);

/** The spec's "Search result song" with the scores of core/matching (2 exact, 1 contained, 0 none, −2 disagrees). */
export const ScoredSongSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  artist: NullableString,
  album: NullableString,
  album_img: NullableString,
  year: NullableString,
  tracknumber: NullableCount,
  totaltracks: NullableCount,
  discnumber: NullableCount,
  totaldiscs: NullableCount,
  /** Seconds. */
  duration: NullableNumber,
  resource: Type.String(),
  title_score: Type.Integer(),
  artist_score: Type.Integer(),
  album_score: Type.Integer(),
});

export const FetchId3ByTitleResponse = Envelope(Type.Array(ScoredSongSchema));

export const FetchLyricRequest = Type.Object(
  {
    song_id: Type.Union([Type.String({ minLength: 1, maxLength: 1000 }), Type.Integer()]),
    resource: SourceId,
  },
  { additionalProperties: false },
);

/** The lyric as LRC (`[mm:ss.xx]`), `''` when the source has none. */
export const TextResponse = Envelope(Type.String());

export const LyricRequest = Type.Object({ lyc: Type.String({ maxLength: 200_000 }) }, { additionalProperties: false });

export const ExtractLyricResponse = Envelope(Type.Object({ composer: Type.String(), lyricist: Type.String() }));

export const FetchArtistRequest = Type.Object(
  {
    /** The artist name to look up (the spec names it `title`). */
    title: Type.String({ maxLength: 500 }),
    /** Default kuwo (the spec's default). */
    resource: Type.Optional(SourceId),
    full_path: Type.Optional(Type.String({ maxLength: 4096 })),
  },
  { additionalProperties: false },
);

export const FetchArtistResponse = Envelope(Type.Array(Type.Object({ artist: Type.String(), artist_img: Type.String(), desc: Type.String() })));

export const GetSourcesRequest = Type.Object({}, { additionalProperties: false });

export const GetSourcesResponse = Envelope(Type.Array(Type.Object({ id: Type.String(), name: Type.String(), enabled: Type.Boolean() })));
