export { PluginPool, healthDelta, PLUGIN_NOT_A_SOURCE, PLUGIN_SOURCE_LOOP, type PluginPoolOptions } from './pool.ts';
export { searchQuery, scoreSongs, DEFAULT_SEARCH_LIMIT, SEARCH_TITLE_REQUIRED, PLUGIN_RESULT_INVALID } from './search.ts';
export { servePluginInvocations } from './serve.ts';
