import { Type } from 'typebox';

/**
 * batchAutoUpdateArtist (spec doc 2 §7 System, `/apimt/batch_auto_update_artist/`): the spec shows no fields, so
 * all are optional — the artist source (`resource`, default kuwo, as fetch_artist_by_keyword), whether artists
 * that have a picture are left out (`is_skip_exist`, default true), the pace (`scrape_rate`, default 1/s) and
 * `dry_run`.
 */
export const AutoArtistRequest = Type.Object(
  {
    resource: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    is_skip_exist: Type.Optional(Type.Boolean()),
    scrape_rate: Type.Optional(Type.Union([Type.Number({ exclusiveMinimum: 0, maximum: 100 }), Type.String({ maxLength: 16 })])),
    dry_run: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: true },
);
