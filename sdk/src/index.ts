/**
 * @tagsonic/sdk: the contract plugins are written against. A plugin's entry is one CommonJS script whose
 * `module.exports` holds its functions by name (what `defineTagSource` or `defineBatchAction` returns);
 * its `manifest.json` follows `manifest.schema.json`.
 */
export type { ConfigField, ConfigSchema, HttpHostGrant, Manifest, Permissions, PluginKind } from './manifest.ts';
export { defineManifest } from './manifest.ts';
export type { ManifestError, ManifestValidation } from './validate-manifest.ts';
export { validateManifest } from './validate-manifest.ts';
export { default as manifestSchema } from './manifest.schema.json' with { type: 'json' };
export type { PluginErrorCode } from './errors.ts';
export { isPluginError, PLUGIN_ERROR_CODES, PluginError } from './errors.ts';
export type {
  Artwork, Capabilities, CapabilitiesFor, ConfigCapability, ConfigValues, FfmpegCapability, FfmpegJob, FfmpegResult, FileEntry,
  FilesCapability, FingerprintCapability, HttpCapability, LibraryCapability, HttpRequest, HttpResponse, JsonValue, KvCapability,
  LlmCapability, LlmMessage, LogCapability, MatchCapability, ProgressCapability, QueryValue, ScoredSong, SourcesCapability, TagsCapability, TextCapability, TextEncodingName, TrackInfo, TrackTags,
} from './capabilities.ts';
export type { ArtistMeta, ArtistsCapability } from './capabilities.ts';
export type { ArtistInfo, SearchOptions, SearchResultSong, TagSource } from './tag-source.ts';
export { defineTagSource } from './tag-source.ts';
export type { BatchAction, BatchChange, BatchItem, BatchItemResult, BatchPlanInput, BatchRunItemInput } from './batch-action.ts';
export { defineBatchAction } from './batch-action.ts';
export { formatStamp, lyricLines, normaliseLrc } from './lrc.ts';
