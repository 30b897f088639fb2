/**
 * The capabilities that need no grant — `text` (OpenCC), `kv` (the plugin's own keys in the store), `progress`
 * and `match` (core's matcher) — and `sources` (searching other installed tag sources, `sources` grant).
 */
import { Converter } from 'opencc-js';
import type { Collection, Doc, Store } from '@tagsonic/core/store';
import { MATCH_MODES, rank, type MatchMode } from '@tagsonic/core/matching';
import type { SearchOptions } from '@tagsonic/sdk';
import type { HostFunction } from '../../plugin-host/index.ts';
import type { PluginHostServices } from '../host-services.ts';
import { denied, failed, invalidArgument, limit, optionalNumber, optionsOf, stringField } from './args.ts';
import { withSourceDeadline } from './source-deadline.ts';
import { textToolsCapability } from './text-tools.ts';

// ---------------------------------------------------------------- text

const MAX_TEXT_CHARS = 1024 * 1024;
const DIRECTIONS = {
  s2t: { from: 'cn', to: 't' },
  t2s: { from: 't', to: 'cn' },
  s2tw: { from: 'cn', to: 'tw' },
  tw2s: { from: 'tw', to: 'cn' },
  s2hk: { from: 'cn', to: 'hk' },
  hk2s: { from: 'hk', to: 'cn' },
} as const;
type Direction = keyof typeof DIRECTIONS;
/** Built on first use (each loads its dictionaries, a few ms) and shared by every plugin. */
const converters = new Map<Direction, (text: string) => string>();

/** `text.convert` here; `text.decode/replace/match` in ./text-tools.ts. */
export function textCapability(): Record<string, HostFunction> {
  return {
    ...textToolsCapability(),
    convert: async (args) => {
      const options = optionsOf(args, 'text.convert');
      const text = options.text;
      if (typeof text !== 'string') throw invalidArgument('text.convert: text must be a string');
      if (text.length > MAX_TEXT_CHARS) throw limit(`text.convert: text is longer than ${MAX_TEXT_CHARS} characters`);
      const direction = options.direction as Direction;
      if (typeof direction !== 'string' || !Object.hasOwn(DIRECTIONS, direction)) {
        throw invalidArgument(`text.convert: direction must be one of ${Object.keys(DIRECTIONS).join(', ')}`);
      }
      const convert: (text: string) => string = converters.get(direction) ?? Converter(DIRECTIONS[direction]);
      converters.set(direction, convert);
      return convert(text);
    },
  };
}

// ---------------------------------------------------------------- kv

export const PLUGIN_KV_COLLECTION = 'plugin_kv';
export const KV_LIMITS = { keyChars: 200, valueChars: 64 * 1024, keys: 1000 } as const;

interface KvDoc extends Doc {
  plugin: string;
  key: string;
  /** The value's JSON text: a value is stored as given, whatever keys it holds (`$set`, dots…). */
  json: string;
  updatedAt: string;
}

/** One index build per store (the collection is shared by every plugin). */
const kvIndexes = new WeakMap<Store, Promise<void>>();

export function kvCapability(pluginId: string, store: Store): Record<string, HostFunction> {
  const collection = store.collection<KvDoc>(PLUGIN_KV_COLLECTION);
  const ready = async (): Promise<Collection<KvDoc>> => {
    let indexes = kvIndexes.get(store);
    if (!indexes) {
      indexes = collection.createIndexes([{ keys: { plugin: 1, key: 1 }, name: 'plugin_key' }]);
      indexes.catch(() => kvIndexes.delete(store));
      kvIndexes.set(store, indexes);
    }
    await indexes;
    return collection;
  };
  const keyOf = (options: Record<string, unknown>, what: string) => stringField(options, 'key', what, KV_LIMITS.keyChars);
  const idOf = (key: string) => `${pluginId}\u0000${key}`;
  return {
    get: async (args) => {
      const key = keyOf(optionsOf(args, 'kv.get'), 'kv.get');
      const doc = await (await ready()).findOne({ _id: idOf(key) });
      return doc ? JSON.parse(doc.json) : null;
    },
    set: async (args) => {
      const options = optionsOf(args, 'kv.set');
      const key = keyOf(options, 'kv.set');
      if (!Object.hasOwn(options, 'value')) throw invalidArgument('kv.set: value is required (use kv.delete to remove a key)');
      const json = JSON.stringify(options.value);
      if (json.length > KV_LIMITS.valueChars) throw limit(`kv.set: the value is larger than ${KV_LIMITS.valueChars} characters of JSON`);
      const kv = await ready();
      const existing = await kv.findOne({ _id: idOf(key) }, { projection: { _id: 1 } });
      if (!existing && (await kv.countDocuments({ plugin: pluginId })) >= KV_LIMITS.keys) {
        throw limit(`kv.set: the plugin already keeps ${KV_LIMITS.keys} keys; delete some first`);
      }
      await kv.updateOne({ _id: idOf(key) }, { $set: { plugin: pluginId, key, json, updatedAt: new Date().toISOString() } }, { upsert: true });
      return null;
    },
    delete: async (args) => {
      const key = keyOf(optionsOf(args, 'kv.delete'), 'kv.delete');
      await (await ready()).deleteOne({ _id: idOf(key) });
      return null;
    },
    list: async (args) => {
      const options = args[0] === undefined || args[0] === null ? {} : optionsOf(args, 'kv.list');
      const prefix = options.prefix ?? '';
      if (typeof prefix !== 'string') throw invalidArgument('kv.list: prefix must be a string');
      const docs = await (await ready()).find({ plugin: pluginId }, { projection: { key: 1 } });
      return docs.map((d) => d.key).filter((k) => k.startsWith(prefix)).sort();
    },
  };
}

// ---------------------------------------------------------------- progress

export function progressCapability(report: NonNullable<PluginHostServices['progress']>): HostFunction {
  return (args) => {
    const options = optionsOf(args, 'progress');
    const done = optionalNumber(options, 'done', 'progress', 0, Number.MAX_SAFE_INTEGER);
    const total = optionalNumber(options, 'total', 'progress', 0, Number.MAX_SAFE_INTEGER);
    if (done === undefined || total === undefined) throw invalidArgument('progress: done and total are required numbers');
    const message = typeof options.message === 'string' ? options.message.slice(0, 500) : undefined;
    report(message === undefined ? { done, total } : { done, total, message });
    return null;
  };
}

// ---------------------------------------------------------------- match

const MAX_CANDIDATES = 1000;

export function matchCapability(): Record<string, HostFunction> {
  return {
    rank: (args) => {
      const options = optionsOf(args, 'match.rank');
      const query = options.query as Record<string, unknown> | null;
      if (query === null || typeof query !== 'object' || typeof query.title !== 'string') throw invalidArgument('match.rank: query needs a title');
      const candidates = options.candidates;
      if (!Array.isArray(candidates) || candidates.some((c) => c === null || typeof c !== 'object' || typeof (c as { name?: unknown }).name !== 'string')) {
        throw invalidArgument('match.rank: candidates must be a list of songs with a name');
      }
      if (candidates.length > MAX_CANDIDATES) throw limit(`match.rank: more than ${MAX_CANDIDATES} candidates`);
      const mode = (options.mode ?? 'normal') as MatchMode;
      if (!MATCH_MODES.includes(mode)) throw invalidArgument(`match.rank: mode must be one of ${MATCH_MODES.join(', ')}`);
      const max = optionalNumber(options, 'limit', 'match.rank', 1, MAX_CANDIDATES) ?? candidates.length;
      const file = {
        title: query.title,
        artist: typeof query.artist === 'string' ? query.artist : null,
        album: typeof query.album === 'string' ? query.album : null,
        duration: typeof query.duration === 'number' ? query.duration : null,
      };
      // distance/duration_diff are the matcher's internals: left out so a plugin sees the SDK's shape.
      return rank(file, candidates as Array<{ name: string }>, mode).ranked.slice(0, Math.floor(max))
        .map(({ distance: _distance, duration_diff: _diff, ...song }) => song);
    },
  };
}

// ---------------------------------------------------------------- sources

export function sourcesCapability(
  pluginId: string,
  ids: readonly string[],
  searchSource: PluginHostServices['searchSource'],
): Record<string, HostFunction> {
  const granted = new Set(ids);
  return {
    search: async (args, call) => {
      const options = optionsOf(args, 'sources.search');
      const id = stringField(options, 'id', 'sources.search', 64);
      if (!granted.has(id) || id === pluginId) throw denied(`sources.search: the manifest does not grant searching ${JSON.stringify(id)}`);
      if (!searchSource) throw failed('sources.search: this host cannot search other sources');
      const query = options.query as Record<string, unknown> | null;
      if (query === null || typeof query !== 'object' || typeof query.title !== 'string') throw invalidArgument('sources.search: query needs a title');
      const text = (key: string) => (typeof query[key] === 'string' ? (query[key] as string) : '');
      const search: SearchOptions = {
        title: query.title,
        artist: text('artist'),
        album: text('album'),
        limit: optionalNumber(query, 'limit', 'sources.search', 1, 100) ?? 15,
      };
      const duration = optionalNumber(query, 'duration', 'sources.search', 0, 24 * 3600);
      if (duration !== undefined) search.duration = duration;
      if (typeof query.path === 'string') search.path = query.path;
      const timeoutMs = optionalNumber(options, 'timeoutMs', 'sources.search', 100, 60_000);
      return withSourceDeadline(id, timeoutMs, call, (budgetMs) => searchSource(id, search, { budgetMs }));
    },
  };
}
