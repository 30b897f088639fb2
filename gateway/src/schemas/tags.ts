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
  },
  // The dashboard sends the whole Music info back, read-only fields included; those are ignored.
  { additionalProperties: true },
);

export const UpdateId3Request = Type.Object(
  { music_id3_info: Type.Array(MusicId3Info, { minItems: 1, maxItems: 10_000 }) },
  { additionalProperties: false },
);

const ItemReport = Type.Object({
  path: Type.Union([Type.String(), Type.Null()]),
  status: Type.String(),
  error: Type.Union([Type.String(), Type.Null()]),
  write_id: Type.Union([Type.String(), Type.Null()]),
});

export const UpdateId3Response = Envelope(
  Type.Object({ task_id: Type.String(), status: Type.String(), items: Type.Array(ItemReport) }),
);
