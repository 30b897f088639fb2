/**
 * smart_tag: one search over several tag sources. It asks each configured source through the host
 * (`caps.sources.search`: the source runs in its own sandbox with its own grants; this plugin has no network),
 * all in parallel, merges the candidates, ranks them with the host's matcher (`caps.match.rank`, the same
 * scores and tie-breaks as auto-matching) and returns the best 15. Each candidate keeps its own `resource`, so
 * the editor fetches its lyrics from the source that found it.
 *
 * A source that fails (not installed, disabled, down, changed) is skipped and noted in this plugin's log; only
 * when every source fails does the search fail, with each source's error in the message. Each source has its own
 * deadline (the Source timeout setting): one slow source is skipped when it passes, and a source whose request
 * pacing is taken up by other searches (iTunes allows one request every 3 s) answers "busy" at once and is
 * skipped without being waited for, so the merged search is as fast as the sources that can answer now.
 */
import { defineTagSource, isPluginError, PluginError, type Manifest, type ScoredSong, type SearchResultSong, type SourcesCapability } from '@tagsonic/sdk';
import manifest from '../manifest.json' with { type: 'json' };

/** The spec: smart_tag returns the best 15. */
const MAX_RESULTS = 15;
const DEFAULT_SOURCES = 'netease,qmusic,kugou,kuwo,migu,itunes,musicbrainz';
const MODES = ['simple', 'normal', 'hard'] as const;
/** Seconds each source is waited for, by default and at most (the host gives smart_tag 25 s in all). */
const DEFAULT_SOURCE_TIMEOUT_S = 5;
const MAX_SOURCE_TIMEOUT_S = 20;
/** Why a source was skipped rather than failed: it was busy or too slow for this search, not broken. */
const SKIPPED_CODES: Readonly<Record<string, string>> = { TAGSONIC_ERR_PLUGIN_HTTP_BUSY: 'busy', TAGSONIC_ERR_PLUGIN_TIMEOUT: 'too slow' };
type Mode = (typeof MODES)[number];

type SmartTagManifest = Manifest & { permissions: { sources: NonNullable<Manifest['permissions']['sources']> } };

const GRANTED: readonly string[] = manifest.permissions.sources.ids;

/** The configured ids, in order, each once; an id this plugin is not granted is a settings mistake, said so. */
function sourceIds(setting: unknown): string[] {
  const text = typeof setting === 'string' && setting.trim() ? setting : DEFAULT_SOURCES;
  const ids = [...new Set(text.split(/[\s,，;；]+/).map((id) => id.trim().toLowerCase()).filter(Boolean))];
  const unknown = ids.filter((id) => !GRANTED.includes(id));
  if (unknown.length > 0) {
    throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', `smart_tag cannot search ${unknown.join(', ')}; it may search ${GRANTED.join(', ')} (the Sources setting).`, { sources: unknown });
  }
  return ids;
}

const describeError = (error: unknown): string => (isPluginError(error) || error instanceof Error ? error.message : String(error));
const errorCode = (error: unknown): string | null => (typeof (error as { code?: unknown })?.code === 'string' ? (error as { code: string }).code : null);

export default defineTagSource<SmartTagManifest>({
  async search({ title, artist, album, duration, limit, path }, caps) {
    if (!title?.trim() || !(limit > 0)) return [];
    const config = await caps.config.get();
    const ids = sourceIds(config.sources);
    const perSource = Math.min(50, Math.max(1, Math.round(typeof config.per_source === 'number' ? config.per_source : 10)));
    const mode: Mode = MODES.includes(config.mode as Mode) ? (config.mode as Mode) : 'normal';
    const timeoutS = typeof config.source_timeout === 'number' && config.source_timeout > 0 ? config.source_timeout : DEFAULT_SOURCE_TIMEOUT_S;
    const timeoutMs = Math.round(Math.min(MAX_SOURCE_TIMEOUT_S, Math.max(1, timeoutS)) * 1000);
    const query = { title, artist: artist ?? '', album: album ?? '', limit: perSource, ...(duration ? { duration } : {}), ...(path ? { path } : {}) };

    const sources: SourcesCapability = caps.sources;
    const settled = await Promise.allSettled(ids.map((id) => sources.search({ id, query, timeoutMs })));
    const candidates: ScoredSong[] = [];
    const failures: string[] = [];
    settled.forEach((outcome, i) => {
      if (outcome.status === 'fulfilled') {
        // The host fills `resource` with the source's id; a source that left it empty still is that source.
        for (const song of outcome.value) candidates.push({ ...song, resource: song.resource || ids[i]! });
      } else {
        failures.push(`${ids[i]}: ${describeError(outcome.reason)}`);
        const code = errorCode(outcome.reason);
        const skipped = code === null ? undefined : SKIPPED_CODES[code];
        if (skipped) caps.log.info('source skipped', { source: ids[i]!, reason: skipped, code, message: describeError(outcome.reason) });
        else caps.log.warn('source failed', { source: ids[i]!, code, message: describeError(outcome.reason) });
      }
    });
    if (ids.length > 0 && failures.length === ids.length) {
      throw new PluginError('TAGSONIC_ERR_PLUGIN_UPSTREAM', `Every source failed: ${failures.join('; ')}`.slice(0, 1500), { sources: ids });
    }
    if (candidates.length === 0) return [];

    const ranked = await caps.match.rank({
      query: { title, artist: artist || null, album: album || null, duration: duration ?? null },
      candidates,
      mode,
      limit: Math.min(MAX_RESULTS, Math.ceil(limit)),
    });
    // `accepted` is the matcher's verdict for auto-matching; the result is the SDK's song with its scores.
    return ranked.map(({ accepted: _accepted, ...song }) => song as SearchResultSong);
  },
});
