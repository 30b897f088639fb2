import { Type } from 'typebox';
import { Envelope, NullableString } from './common.ts';

const PluginId = Type.String({ minLength: 1, maxLength: 64 });
const Version = Type.String({ minLength: 1, maxLength: 64 });

export const PluginListRequest = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
    page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    search: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);
export const PluginIdRequest = Type.Object({ id: PluginId }, { additionalProperties: false });
export const EnablePluginRequest = Type.Object({ id: PluginId, enabled: Type.Boolean() }, { additionalProperties: false });
export const ConfigurePluginRequest = Type.Object(
  {
    id: PluginId,
    /** Empty or null: the plugin's own address. */
    base_url: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
    /** The whole settings form; a secret sent back as '********' keeps its stored value. */
    config: Type.Optional(
      Type.Record(Type.String({ maxLength: 64 }), Type.Union([Type.String({ maxLength: 10_000 }), Type.Number(), Type.Boolean(), Type.Null()]), { maxProperties: 100 }),
    ),
  },
  { additionalProperties: false },
);
export const PluginVersionRequest = Type.Object({ id: PluginId, version: Version }, { additionalProperties: false });
export const RemovePluginRequest = Type.Object({ id: PluginId, version: Type.Optional(Version) }, { additionalProperties: false });

const Permission = Type.Object({
  kind: Type.String(),
  /** The host, 'read' | 'write', the source ids… ('' when the grant has no detail). */
  detail: Type.String(),
  reason: Type.String(),
});

const Health = Type.Object({
  calls: Type.Integer(),
  failures: Type.Integer(),
  p50_ms: Type.Union([Type.Number(), Type.Null()]),
  last_success_at: NullableString,
  last_error: Type.Union([Type.Object({ code: Type.String(), message: Type.String(), at: Type.String() }), Type.Null()]),
});

const pluginItemFields = {
  id: Type.String(),
  name: Type.String(),
  version: Type.String(),
  description: Type.String(),
  kind: Type.String(),
  builtin: Type.Boolean(),
  enabled: Type.Boolean(),
  disabled_reason: NullableString,
  permissions: Type.Array(Permission),
  health: Health,
  updated_at: Type.String(),
};
export const PluginItem = Type.Object(pluginItemFields);

export const PluginDetail = Type.Object({
  ...pluginItemFields,
  versions: Type.Array(Type.Object({
    version: Type.String(),
    origin: Type.String(),
    sha256: Type.String(),
    size: Type.Integer(),
    installed_at: Type.String(),
    active: Type.Boolean(),
  })),
  /** The manifest's settings form (JSON), or null. */
  config_schema: Type.Unknown(),
  settings: Type.Object({ base_url: NullableString, config: Type.Unknown() }),
  /** TAGSONIC_SOURCE_URL_<ID> of this server, which wins over base_url; null when unset. */
  env_base_url: NullableString,
});

export const PluginListResponse = Envelope(Type.Object({
  items: Type.Array(PluginItem),
  total: Type.Integer(),
  page: Type.Integer(),
  page_size: Type.Integer(),
  total_page: Type.Integer(),
}));
export const PluginItemResponse = Envelope(PluginItem);
export const PluginDetailResponse = Envelope(PluginDetail);
/** Removing a whole plugin answers null. */
export const PluginRemoveResponse = Envelope(Type.Union([PluginItem, Type.Null()]));
