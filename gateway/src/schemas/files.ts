import { Type } from 'typebox';
import { EDITABLE_FIELDS } from '@tagsonic/core/tags';
import { Envelope, NullableString, ScrapeStateSchema } from './common.ts';

const FilePath = Type.String({ minLength: 1, maxLength: 4096 });
const SortKey = Type.String({ pattern: '^-?(name|update_time|size|state|folder)$' });
/** One key, a comma-separated list of keys, or a list; `-key` sorts descending. */
const SortedFields = Type.Union([Type.String({ pattern: '^$|^-?(name|update_time|size|state|folder)(,-?(name|update_time|size|state|folder))*$' }), Type.Array(SortKey, { maxItems: 5 })]);
const SearchWord = Type.String({ maxLength: 200 });
const State = ScrapeStateSchema;

export const FileListRequest = Type.Object(
  {
    /** Empty: the media folder. */
    file_path: Type.Optional(Type.String({ maxLength: 4096 })),
    sorted_fields: Type.Optional(SortedFields),
    search_word: Type.Optional(SearchWord),
    refresh: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const TreeNode = Type.Object({
  id: Type.String(),
  name: Type.String(),
  title: Type.String(),
  icon: Type.String(),
  state: State,
  children: Type.Array(Type.Unknown(), { maxItems: 0 }),
  selected: Type.Boolean(),
  is_dir: Type.Boolean(),
  full_path: Type.String(),
  size: Type.Number(),
  update_time: Type.String(),
  /** Only on a file the library scan left out (not audio, unreadable). */
  scan_problem: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() })),
});

export const FileListResponse = Envelope(
  Type.Object({
    file_list_data: Type.Array(TreeNode),
    /** The folder's name. */
    file_name: Type.String(),
    /** The folder's real path, and its parent when the parent is still inside the home (else null). */
    file_path: Type.String(),
    parent_path: NullableString,
    /** Entries in the folder before the search filter. */
    total: Type.Integer(),
  }),
);

const CheckedItem = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 1024 }),
    icon: Type.Optional(Type.String({ maxLength: 64 })),
    title: Type.Optional(Type.String({ maxLength: 1024 })),
    checked: Type.Optional(Type.Boolean()),
  },
  // The tree sends its nodes as they are (id, state, children…); only name and icon matter.
  { additionalProperties: true },
);

export const SelectData = Type.Array(CheckedItem, { minItems: 1, maxItems: 100_000 });

export const FileId3ListRequest = Type.Object(
  {
    file_full_path: FilePath,
    select_data: SelectData,
    mode: Type.Optional(Type.Literal('all')),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 5000 })),
    /** 1: files directly in checked folders; -1: all the way down. */
    depth: Type.Optional(Type.Union([Type.Literal(1), Type.Literal(-1)])),
    sorted_fields: Type.Optional(Type.String({ maxLength: 40 })),
    search_word: Type.Optional(SearchWord),
    refresh: Type.Optional(Type.Boolean()),
    /** Read files under the webdav folder too (network mounts are slow; off by default). */
    is_webdav: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const Id3Row = Type.Object({
  id: Type.String(),
  filename: Type.String(),
  file_full_path: Type.String(),
  icon: Type.String(),
  state: State,
  /** URL of the cover (embedded picture), '' when there is none. */
  album_img: Type.String(),
  title: NullableString,
  artist: NullableString,
  album: NullableString,
  albumartist: NullableString,
  lyrics: NullableString,
  lyrics_file: Type.Boolean(),
  year: NullableString,
  genre: NullableString,
  tracknumber: NullableString,
  totaltracks: NullableString,
  discnumber: NullableString,
  totaldiscs: NullableString,
  composer: NullableString,
  lyricist: NullableString,
  comment: NullableString,
  language: NullableString,
  album_type: NullableString,
  duration: Type.Number(),
  bit_rate: Type.Number(),
  sample_rate: Type.Number(),
  size: Type.Number(),
  /** Why the file could not be read (its tag columns are then null). */
  error: NullableString,
});

export const FileId3ListResponse = Envelope(Type.Array(Id3Row));

export const MusicId3Request = Type.Object(
  {
    /** The folder (with file_name), or the file itself. */
    file_path: FilePath,
    file_name: Type.Optional(Type.String({ minLength: 1, maxLength: 1024 })),
  },
  { additionalProperties: false },
);

const editable = Object.fromEntries(EDITABLE_FIELDS.map((f) => [f, NullableString]));

export const MusicInfo = Type.Object({
  ...editable,
  filename: Type.String(),
  lyrics_file: Type.Boolean(),
  album_img: Type.String(),
  artist_img: Type.String(),
  duration: Type.Number(),
  bit_rate: Type.Number(),
  sample_rate: Type.Number(),
  bit_depth: Type.Union([Type.Number(), Type.Null()]),
  channels: Type.Number(),
  size: Type.Number(),
  artwork_w: Type.Number(),
  artwork_h: Type.Number(),
  artwork_size: Type.Number(),
  artwork_mime: NullableString,
  format: Type.String(),
  codec: Type.String(),
  path: Type.String(),
  id: Type.String(),
  state: State,
  play_url: Type.String(),
  /** The newest write of this file that can be undone (POST /apimt/undo/ {write_id}). */
  last_write_id: NullableString,
});

export const MusicId3Response = Envelope(MusicInfo);

export const GetImageRequest = Type.Object({ file_path: FilePath }, { additionalProperties: false });
export const GetImageResponse = Envelope(
  Type.Object({ image_data: Type.String(), mime: Type.String(), width: Type.Integer(), height: Type.Integer(), size: Type.Integer() }),
);

export const UploadResponse = Envelope(Type.String());

export const FolderStateRequest = Type.Object(
  { full_path: FilePath, state: Type.Optional(State) },
  { additionalProperties: false },
);
export const EmptyResponse = Envelope(Type.Null());

export const PreviewRegexRequest = Type.Object(
  {
    preview_text: Type.String({ maxLength: 100_000 }),
    mode: Type.Union([Type.Literal('split_filename'), Type.Literal('replace_text')]),
    /**
     * split_filename: patterns whose named groups are tag fields, e.g. "(?<artist>.+?) - (?<title>.+)";
     * the first that matches wins. replace_text: {before, after} pairs applied in order.
     */
    rule_list: Type.Union([
      Type.Array(Type.String({ minLength: 1, maxLength: 1000 }), { minItems: 1, maxItems: 50 }),
      Type.Array(Type.Object({ before: Type.String({ maxLength: 1000 }), after: Type.String({ maxLength: 1000 }) }, { additionalProperties: false }), {
        minItems: 1,
        maxItems: 50,
      }),
    ]),
    /** replace_text only: literal text (default) or regular expressions. */
    replace_mode: Type.Optional(Type.Union([Type.Literal('text'), Type.Literal('regex')])),
  },
  { additionalProperties: false },
);

export const PreviewRegexResponse = Envelope(
  Type.Object({
    mode: Type.String(),
    /** replace_text: the text after every rule; split_filename: the text as given. */
    text: Type.String(),
    /** split_filename: the fields the matching rule extracted. */
    fields: Type.Record(Type.String(), Type.String()),
    /** split_filename: index of the rule that matched, -1 for none. */
    matched_rule: Type.Integer(),
    /** replace_text: number of replacements made. */
    count: Type.Integer(),
  }),
);
