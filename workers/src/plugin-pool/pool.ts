/**
 * One worker process's plugins: the active version of each enabled plugin, loaded into its sandbox on first
 * use and kept while the registry says the same thing about it (version code and settings). The registry is
 * asked on every call, so a plugin disabled or rolled back on another node is never run from a stale cache;
 * PLUGIN_CHANGED_EVENT only frees a dropped sandbox sooner. Health counters are sent to the registry as deltas
 * every few seconds, at once when the sandbox auto-disables the plugin (so every worker stops calling it), and
 * on close.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Bus, Subscription } from '@tagsonic/core/bus';
import { isTagsonicError, TagsonicError } from '@tagsonic/core/errors';
import type { MediaRoots } from '@tagsonic/core/media';
import { PLUGIN_CHANGED_EVENT, PLUGIN_NOT_INSTALLED, type PluginChanged, type PluginHealthDelta, type PluginRecord, type PluginRegistry } from '@tagsonic/core/plugins';
import type { Store } from '@tagsonic/core/store';
import { COVER_FETCH_FAILED, downloadCover, type TagJournal } from '@tagsonic/core/tags';
import { normaliseLrc } from '@tagsonic/core/lyrics';
import type { ArtistMeta } from '@tagsonic/core/library';
import type { Artwork, PluginKind, SearchOptions } from '@tagsonic/sdk';
import { PLUGIN_ERROR_CODES, type InvokeBudget, type JsonValue, type PluginStats, type TaskBinding } from '../plugin-host/index.ts';
import { loadPlugin, type LoadedPlugin, type LoadPluginOptions, type PluginHostServices, type ScoredSong } from '../plugin-runtime/index.ts';
import { scoreSongs, searchQuery } from './search.ts';
import type { LibraryIndexer } from '../plugin-runtime/capabilities/library.ts';

const PLUGIN_DISABLED = PLUGIN_ERROR_CODES.disabled;
export const PLUGIN_SOURCE_LOOP = 'TAGSONIC_ERR_PLUGIN_SOURCE_LOOP';
export const PLUGIN_NOT_A_SOURCE = 'TAGSONIC_ERR_PLUGIN_NOT_A_SOURCE';
export const PLUGIN_NOT_AN_ACTION = 'TAGSONIC_ERR_PLUGIN_NOT_AN_ACTION';

const DEFAULT_FLUSH_EVERY_MS = 5_000;
/** sources.cover: one download, redirects included. */
const COVER_TIMEOUT_MS = 6_000;

export interface PluginPoolOptions {
  registry: PluginRegistry;
  /** PLUGIN_CHANGED_EVENT arrives here. */
  bus: Bus;
  roots: MediaRoots;
  /** caps.artists (刮削艺术家): the library's artist pictures and biographies; absent: the capability fails. */
  artists?: ArtistMeta;
  /** caps.library (import collection): the worker's scanner, batched (plugin-runtime/capabilities/library.ts). */
  library?: LibraryIndexer;
  journal: TagJournal;
  /** The worker's tag reader and writer threads, for the plugins' tags.read / tags.write. */
  tagThreads?: PluginHostServices['tagThreads'];
  store: Store;
  /** Where `TAGSONIC_SOURCE_URL_<ID>` is read. Default process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  /** How often health deltas go to the registry. Default 5 s. */
  flushEveryMs?: number;
  /** Sandbox limits and http network policy passed to every loadPlugin (tests shorten them). */
  load?: Pick<LoadPluginOptions, 'sandbox' | 'httpLimits' | 'httpNetwork'>;
  /** Failures with no caller to throw to (a failed health flush). Default: stderr. */
  onError?: (error: unknown, context: string) => void;
}

interface Entry {
  readonly id: string;
  /** What the plugin was loaded from: the active version's sha256 and the settings. */
  readonly sha256: string;
  readonly settings: PluginRecord['settings'];
  readonly plugin: LoadedPlugin;
  /** The sandbox's counters at the last flush. */
  flushed: PluginStats | null;
  inflight: number;
  dropped: boolean;
}

export class PluginPool {
  readonly #options: PluginPoolOptions;
  readonly #entries = new Map<string, Promise<Entry>>();
  /** Dropped entries still running a call: closed (and flushed) once it ends. */
  readonly #retiring = new Set<Entry>();
  readonly #timer: NodeJS.Timeout;
  #changes: Subscription | undefined;
  #closed = false;

  constructor(options: PluginPoolOptions) {
    this.#options = options;
    this.#changes = options.bus.subscribe<PluginChanged>(PLUGIN_CHANGED_EVENT, (_subject, payload) => {
      if (typeof payload?.id === 'string') void this.#drop(payload.id);
    });
    this.#timer = setInterval(() => void this.flush(), options.flushEveryMs ?? DEFAULT_FLUSH_EVERY_MS);
    this.#timer.unref();
  }

  /** Runs one export of an enabled plugin. `search` goes through {@link searchSongs} (scored candidates). */
  async invoke(pluginId: string, exportName: string, options?: unknown): Promise<JsonValue> {
    if (exportName === 'search') return (await this.searchSongs(pluginId, options as Partial<SearchOptions>)) as unknown as JsonValue;
    return this.#call(pluginId, exportName, options);
  }

  /**
   * A tag source's candidates for the query, each with title/artist/album scores against the query (the file's
   * tags as the editor shows them). With `path`, the file's duration is read for the source when not given.
   */
  async searchSongs(resource: string, query: Partial<SearchOptions>, budget?: InvokeBudget): Promise<ScoredSong[]> {
    const options = await searchQuery(query, this.#options.roots);
    const result = await this.#call(resource, 'search', options, 'tag-source', undefined, budget);
    return scoreSongs(resource, options, result);
  }

  /**
   * Runs one export of an enabled batch action for a task: `runItem` or `plan`, its effects bound to the task
   * (journaled under its id). A plugin that is not a batch action is refused.
   */
  async invokeAction(pluginId: string, exportName: 'plan' | 'runItem', options: unknown, task: TaskBinding): Promise<JsonValue> {
    return this.#call(pluginId, exportName, options, 'batch-action', task);
  }

  /** Sends every plugin's health since the previous flush to the registry. */
  async flush(): Promise<void> {
    const entries: Entry[] = [...this.#retiring];
    for (const pending of this.#entries.values()) {
      const entry = await pending.catch(() => undefined);
      if (entry) entries.push(entry);
    }
    await Promise.all(entries.map((entry) => this.#flushEntry(entry)));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#timer);
    await this.#changes?.close();
    this.#changes = undefined;
    await this.flush();
    for (const id of [...this.#entries.keys()]) await this.#drop(id);
  }

  async #call(pluginId: string, exportName: string, options: unknown, kind?: PluginKind, task?: TaskBinding, budget?: InvokeBudget): Promise<JsonValue> {
    if (this.#closed) throw new TagsonicError('unavailable', PLUGIN_ERROR_CODES.closed, 'The worker is shutting down.');
    const entry = await this.#entry(pluginId, kind);
    entry.inflight++;
    try {
      return await entry.plugin.invoke(exportName, options, task, budget);
    } finally {
      entry.inflight--;
      const stats = entry.plugin.sandbox.stats();
      // A source that just crossed its failure limit must stop being asked everywhere, not only here.
      if (stats.disabledReason === 'auto' && entry.flushed?.disabledReason !== 'auto') void this.#flushEntry(entry);
      if (entry.dropped && entry.inflight === 0) void this.#retire(entry);
    }
  }

  /** The loaded plugin for what the registry says now, (re)loading it when that changed. */
  async #entry(id: string, kind?: PluginKind): Promise<Entry> {
    const record = typeof id === 'string' && id !== '' ? await this.#options.registry.get(id) : null;
    if (!record) throw new TagsonicError('not_found', PLUGIN_NOT_INSTALLED, `No plugin "${String(id)}" is installed.`, { details: { pluginId: id } });
    if (!record.enabled) {
      const why = record.disabledReason === 'auto' ? 'after repeated failures' : 'by an administrator';
      throw new TagsonicError('conflict', PLUGIN_DISABLED, `The plugin ${record.id} is disabled (${why}).`, {
        details: { pluginId: record.id, reason: record.disabledReason },
      });
    }
    if (kind && record.kind !== kind) {
      if (kind === 'batch-action') throw new TagsonicError('invalid', PLUGIN_NOT_AN_ACTION, `The plugin ${record.id} is not a batch action.`, { details: { pluginId: record.id } });
      throw new TagsonicError('invalid', PLUGIN_NOT_A_SOURCE, `The plugin ${record.id} is not a tag source.`, { details: { pluginId: record.id } });
    }
    const sha256 = record.versions.find((v) => v.version === record.activeVersion)?.sha256 ?? '';
    const cached = this.#entries.get(id);
    if (cached) {
      const entry = await cached.catch(() => undefined);
      // A sandbox that auto-disabled itself, once the registry knows, is re-enabled only by the registry: the
      // record being enabled again means an administrator switched it back on (the event may have been missed).
      const reEnabled = entry?.flushed?.disabledReason === 'auto';
      if (entry && !entry.dropped && !reEnabled && entry.sha256 === sha256 && isDeepStrictEqual(entry.settings, record.settings)) return entry;
      await this.#drop(id, cached);
    }
    const loading = this.#load(id);
    this.#entries.set(id, loading);
    // A failed load is not kept: the next call tries again (a fixed upload, a corrected setting).
    loading.catch(() => {
      if (this.#entries.get(id) === loading) this.#entries.delete(id);
    });
    return loading;
  }

  async #load(id: string): Promise<Entry> {
    const active = await this.#options.registry.active(id);
    if (!active) throw new TagsonicError('conflict', PLUGIN_DISABLED, `The plugin ${id} is disabled.`, { details: { pluginId: id } });
    const { record } = active;
    const { roots, journal, store, tagThreads } = this.#options;
    const load = this.#options.load;
    const plugin = loadPlugin({
      ...load,
      // A batch action's failures are its items' (an unreadable file, a bad option), each in its task's report:
      // five in a row must not switch the action off for everyone, as they would a tag source whose site changed.
      ...(active.manifest.kind === 'batch-action' ? { sandbox: { ...load?.sandbox, maxConsecutiveFailures: Number.MAX_SAFE_INTEGER } } : {}),
      manifest: active.manifest,
      code: active.code,
      env: this.#options.env ?? process.env,
      settings: { baseUrl: record.settings.baseUrl, config: record.settings.config },
      host: {
        roots,
        library: this.#options.library,
        journal,
        store,
        tagThreads,
        // smart_tag asks the other sources through the same pool: same registry checks, same scores.
        searchSource: (source, query, budget) => this.#searchFor(id, source, query, budget),
        // auto-scrape copies a candidate's lyrics and cover (sources.lyrics / sources.cover, ./source-extras.ts).
        sourceLyrics: (source, songId) => this.#lyricsFor(id, source, songId),
        downloadCover: (source, url) => this.#coverFor(source, url),
        // auto-artist looks artists up as the editor's fetch_artist_by_keyword does (sources.artist).
        sourceArtist: (source, keyword) => this.#artistFor(id, source, keyword),
        artists: this.#options.artists,
      },
    });
    const sha256 = record.versions.find((v) => v.version === record.activeVersion)?.sha256 ?? '';
    return { id, sha256, settings: record.settings, plugin, flushed: null, inflight: 0, dropped: false };
  }

  /**
   * A source searched on behalf of another (sources.search). Only a source that searches no other source can
   * be asked, so no chain of aggregators can call itself round in a loop until every sandbox times out.
   */
  async #searchFor(caller: string, source: string, query: Partial<SearchOptions>, budget?: InvokeBudget): Promise<ScoredSong[]> {
    const record = await this.#options.registry.get(source);
    const permissions = record?.versions.find((v) => v.version === record.activeVersion)?.manifest.permissions;
    if (source === caller || permissions?.sources) {
      throw new TagsonicError('invalid', PLUGIN_SOURCE_LOOP, `${caller} cannot search ${source}: a source searched through another may not search other sources itself.`, {
        details: { pluginId: caller, source },
      });
    }
    return this.searchSongs(source, query, budget);
  }

  /** A candidate's lyrics from its own source's `lyrics` export, normalised as the editor's fetch_lyric does. */
  async #lyricsFor(caller: string, source: string, songId: string): Promise<string | null> {
    if (source === caller) throw new TagsonicError('invalid', PLUGIN_SOURCE_LOOP, `${caller} cannot ask itself for lyrics.`, { details: { pluginId: caller, source } });
    let lyric: JsonValue;
    try {
      lyric = await this.#call(source, 'lyrics', { id: songId }, 'tag-source');
    } catch (error) {
      // A source without a lyrics export has no lyrics for this song either.
      if (isTagsonicError(error) && error.code === PLUGIN_ERROR_CODES.noExport) return null;
      throw error;
    }
    const text = typeof lyric === 'string' ? normaliseLrc(lyric).trim() : '';
    return text || null;
  }

  /** An artist from a source's own `artist` export; null when it knows none or has no artist lookup. */
  async #artistFor(caller: string, source: string, keyword: string): Promise<{ name: string; image: string | null; description: string | null } | null> {
    if (source === caller) throw new TagsonicError('invalid', PLUGIN_SOURCE_LOOP, `${caller} cannot ask itself for artists.`, { details: { pluginId: caller, source } });
    let found: JsonValue;
    try {
      found = await this.#call(source, 'artist', { keyword }, 'tag-source');
    } catch (error) {
      if (isTagsonicError(error) && error.code === PLUGIN_ERROR_CODES.noExport) return null;
      throw error;
    }
    if (!found || typeof found !== 'object' || Array.isArray(found) || found instanceof Uint8Array || typeof found.name !== 'string') return null;
    const text = (v: JsonValue | undefined) => (typeof v === 'string' && v.trim() ? v : null);
    return { name: found.name, image: text(found.image), description: text(found.description) };
  }

  /**
   * A candidate's cover, downloaded by the host: any public address, plus the source's own base URL (a local
   * mirror or replay serves its covers too), as the editor's cover copy does. WebP is refused (tags embed JPEG/PNG).
   */
  async #coverFor(source: string, url: string): Promise<Artwork> {
    const env = this.#options.env ?? process.env;
    const trusted = [env[`TAGSONIC_SOURCE_URL_${source.toUpperCase().replace(/-/g, '_')}`]?.trim() ?? ''];
    const record = await this.#options.registry.get(source);
    if (record?.settings.baseUrl) trusted.push(record.settings.baseUrl);
    // Well inside the scraping item's own limit (25 s), which also waits on its searches and the lyrics.
    const cover = await downloadCover(url, { trustedOrigins: trusted.filter(Boolean), timeoutMs: COVER_TIMEOUT_MS });
    if (cover.mime === 'image/webp') {
      throw new TagsonicError('invalid', COVER_FETCH_FAILED, `The cover at ${new URL(url).host} is a WebP picture; only JPEG and PNG can be embedded.`, { details: { url, reason: 'not_picture' } });
    }
    return { mime: cover.mime, data: cover.data };
  }

  async #drop(id: string, which?: Promise<Entry>): Promise<void> {
    const pending = this.#entries.get(id);
    if (!pending || (which && pending !== which)) return;
    this.#entries.delete(id);
    const entry = await pending.catch(() => undefined);
    if (!entry || entry.dropped) return;
    entry.dropped = true;
    if (entry.inflight === 0) await this.#retire(entry);
    else this.#retiring.add(entry);
  }

  async #retire(entry: Entry): Promise<void> {
    this.#retiring.delete(entry);
    await this.#flushEntry(entry);
    entry.plugin.close();
  }

  async #flushEntry(entry: Entry): Promise<void> {
    const now = entry.plugin.sandbox.stats();
    const delta = healthDelta(entry.flushed, now);
    if (!delta) return;
    entry.flushed = now;
    try {
      await this.#options.registry.recordHealth(entry.id, delta);
    } catch (error) {
      (this.#options.onError ?? report)(error, `recording the health of ${entry.id}`);
    }
  }
}

/** What changed between two snapshots of one sandbox's counters; null when nothing did. */
export function healthDelta(before: PluginStats | null, now: PluginStats): PluginHealthDelta | null {
  const calls = now.calls - (before?.calls ?? 0);
  const failures = now.failures - (before?.failures ?? 0);
  const autoDisabled = now.disabledReason === 'auto' && before?.disabledReason !== 'auto';
  if (calls === 0 && !autoDisabled) return null;
  return {
    calls,
    failures,
    p50Ms: now.p50Ms === null ? null : Math.round(now.p50Ms * 100) / 100,
    lastSuccessAt: now.lastSuccessAt !== before?.lastSuccessAt ? now.lastSuccessAt : null,
    lastError: now.lastError && now.lastError.at !== before?.lastError?.at ? now.lastError : null,
    autoDisabled,
  };
}

function report(error: unknown, context: string): void {
  console.error(`[tagsonic plugins] ${context}: ${isTagsonicError(error) || error instanceof Error ? error.message : String(error)}`);
}
