export {
  AGGREGATOR_TIMEOUT_MS,
  LLM_PLUGIN_TIMEOUT_MS,
  DEFAULT_RATE_PER_SEC,
  loadPlugin,
  PLUGIN_CONFIG_INVALID,
  PLUGIN_MANIFEST_INVALID,
  SOURCE_RATE_PER_SEC,
  type LoadedPlugin,
  type LoadPluginOptions,
  type PluginSettings,
} from './load.ts';
export { resolveConfig, secretValues, type ConfigProblem } from './config.ts';
export { createPluginLog, type PluginLog, type PluginLogEntry, type PluginLogLevel } from './log.ts';
export { BUILTIN_PLUGINS_DIR, builtinPlugin, PLUGIN_BUILTIN_NOT_FOUND, PLUGIN_BUILTIN_UNAVAILABLE, type BuiltinPlugin } from './builtin.ts';
export type { PluginHostServices, ScoredSong } from './host-services.ts';
