import { Type } from 'typebox';

/** The /progress kinds (spec doc 2 "Progress statistics"): what a missing-items task scrapes for. */
export const MISS_MODES = ['lyrics', 'cover', 'album', 'artist', 'genre', 'year'] as const;

/**
 * missingMusicTask (spec doc 1 §7): `miss_mode` and the auto scrape's options, flat; `scrape_rate` (items per
 * second, default 1) and `dry_run` as on the batch actions.
 */
export const MissingMusicTaskRequest = Type.Object(
  {
    miss_mode: Type.Union(MISS_MODES.map((m) => Type.Literal(m))),
    select_mode: Type.Optional(Type.String({ maxLength: 16 })),
    source_list: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 32 })),
    modify_list: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 64 })),
    is_skip_tag: Type.Optional(Type.Boolean()),
    is_folder_album: Type.Optional(Type.Boolean()),
    scrape_rate: Type.Optional(Type.Union([Type.Number(), Type.String({ maxLength: 16 })])),
    dry_run: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: true },
);

/** ruleTagTask (spec doc 2 §7): `miss_mode: 'genre'` and the genre rules (spec doc 2 "Genre rules"). */
export const RuleTagRequest = Type.Object(
  {
    miss_mode: Type.Optional(Type.Literal('genre')),
    rule_form: Type.Object(
      {
        artistRules: Type.Optional(Type.Array(
          Type.Object({ artist: Type.String({ minLength: 1, maxLength: 200 }), genre: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: true }),
          { maxItems: 10_000 },
        )),
        useAlbumMajorityGenre: Type.Optional(Type.Boolean()),
        useAI: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: true },
    ),
    dry_run: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: true },
);
