import { Type } from 'typebox';
import { Envelope } from './common.ts';

/**
 * Entity edits of the library screens (spec doc 2 §7 "Entity edits"): albums, artists, genres and playlists.
 * Pictures (`*_img`) are the URL /apimt/upload_image/ answered, an http(s) URL (a source's picture, downloaded by
 * the server), a cover id of the library (an album, song or artist id: genre_playlist_cover's `coverArt`), or '' to
 * remove the picture; an absent field is left as it is.
 */
const Id = Type.String({ minLength: 1, maxLength: 300 });
const Text = Type.String({ maxLength: 20_000 });
const Picture = Type.String({ maxLength: 4096 });

export const PostAlbumRequest = Type.Object(
  { id: Id, name: Type.Optional(Type.String({ maxLength: 500 })), comment: Type.Optional(Text), album_img: Type.Optional(Picture), write_metadata: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);

export const PostArtistRequest = Type.Object(
  { id: Id, name: Type.Optional(Type.String({ maxLength: 500 })), description: Type.Optional(Text), artist_img: Type.Optional(Picture), write_metadata: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);

/** The id the entity has after the edit (a rename changes album and artist ids) and the task writing the files, if any. */
export const EntityEditResponse = Envelope(Type.Object({ id: Type.String(), task_id: Type.Union([Type.String(), Type.Null()]) }));

export const DeleteEntityRequest = Type.Object({ id: Id, dry_run: Type.Optional(Type.Boolean()) }, { additionalProperties: false });

/** A delete: the task (null on a dry run), how many files it takes, and their paths. */
export const DeleteEntityResponse = Envelope(Type.Object({ task_id: Type.Union([Type.String(), Type.Null()]), total: Type.Integer(), paths: Type.Array(Type.String()) }));

export const FetchArtistsRequest = Type.Object(
  { title: Type.String({ maxLength: 500 }), resource: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })), full_path: Type.Optional(Type.String({ maxLength: 4096 })) },
  { additionalProperties: false },
);

export const FetchArtistsResponse = Envelope(Type.Array(Type.Object({ artist: Type.String(), artist_img: Type.String(), desc: Type.String(), resource: Type.String() })));

export const PostGenreRequest = Type.Object({ id: Id, genre_img: Picture }, { additionalProperties: false });

export const IdResponse = Envelope(Type.Object({ id: Type.String() }));

export const PutPlaylistRequest = Type.Object(
  { id: Id, name: Type.Optional(Type.String({ maxLength: 500 })), description: Type.Optional(Type.String({ maxLength: 2000 })), playlist_img: Type.Optional(Picture) },
  { additionalProperties: false },
);

export const GenreCoverQuery = Type.Object({ id: Id }, { additionalProperties: false });

export const GenreCoverResponse = Envelope(Type.Array(Type.Object({ coverArt: Type.String(), artist: Type.String(), album: Type.String() })));

export const ImportPlaylistResponse = Envelope(Type.Object({
  id: Type.String(),
  name: Type.String(),
  matched: Type.Integer(),
  unmatched: Type.Array(Type.Object({ line: Type.Integer(), entry: Type.String() })),
}));

export const HotArtistsResponse = Envelope(Type.Array(Type.Object({
  id: Type.String(),
  name: Type.String(),
  /** A cover art id for getCoverArt. */
  cover: Type.String(),
  play_count: Type.Integer(),
  album_count: Type.Integer(),
})));
