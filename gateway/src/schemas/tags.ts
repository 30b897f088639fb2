import { Type } from 'typebox';
import { EDITABLE_FIELDS } from '@tagsonic/core/tags';
import { Envelope } from './common.ts';

const fieldValue = Type.Union([Type.String({ maxLength: 1_000_000 }), Type.Number(), Type.Null()]);
const fields = Object.fromEntries(EDITABLE_FIELDS.map((f) => [f, Type.Optional(fieldValue)]));

/** One file of update_id3: the spec's Music info fields plus the save/import flags. */
export const MusicId3Info = Type.Object(
  {
    file_full_path: Type.String({ minLength: 1, maxLength: 4096 }),
    ...fields,
    is_save_lyrics_file: Type.Optional(Type.Boolean()),
    is_import_lyrics_file: Type.Optional(Type.Boolean()),
    is_save_album_cover: Type.Optional(Type.Boolean()),
    is_import_album_cover: Type.Optional(Type.Boolean()),
    /** New file name (same folder; sanitised; the extension is kept); templates allowed. */
    filename: Type.Optional(Type.Union([Type.String({ maxLength: 1024 }), Type.Null()])),
    /**
     * Cover to embed: an upload URL from /apimt/upload_image/, or a data: URL. The cover URL that
     * music_id3 returned (unchanged) leaves the cover alone; ${null} removes it.
     */
    album_img: Type.Optional(Type.Union([Type.String({ maxLength: 30_000_000 }), Type.Null()])),
  },
  // The dashboard sends the whole Music info back, read-only fields included; those are ignored.
  { additionalProperties: true },
);

export const UpdateId3Request = Type.Object(
  { music_id3_info: Type.Array(MusicId3Info, { minItems: 1, maxItems: 10_000 }) },
  { additionalProperties: false },
);

const NullableString = Type.Union([Type.String(), Type.Null()]);

const ItemReport = Type.Object({
  /** The file's path after the save (a rename changes it). */
  path: NullableString,
  status: Type.String(),
  /** The failure in English, for API users and logs. */
  error: NullableString,
  /** The failure's TAGSONIC_ERR_* code when it has one (the dashboard shows its text in the interface language). */
  error_code: NullableString,
  /** Undo this file's tag write with POST /apimt/undo/ {write_id}. */
  write_id: NullableString,
  renamed_from: NullableString,
  lyrics_file: NullableString,
  cover_file: NullableString,
});

export const UpdateId3Response = Envelope(
  Type.Object({ task_id: Type.String(), status: Type.String(), items: Type.Array(ItemReport) }),
);

export const UndoRequest = Type.Object(
  {
    write_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    task_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    /** Undo even if the file changed since (those later edits of the same fields are lost). */
    force: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const UndoResponse = Envelope(
  Type.Object({
    undone: Type.Integer(),
    skipped: Type.Integer(),
    failed: Type.Integer(),
    items: Type.Array(
      Type.Object({
        write_id: Type.String(),
        path: Type.String(),
        status: Type.String(),
        error: NullableString,
        undo_write_id: NullableString,
      }),
    ),
  }),
);
