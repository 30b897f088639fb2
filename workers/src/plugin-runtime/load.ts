/**
 * Turns a plugin (its manifest and its bundled code) into a running sandbox whose capabilities are built from
 * the manifest's grants and nothing else: `http` exists only when `permissions.http` is granted (the guarded
 * client of ../plugin-http with the manifest's hosts, the administrator's base URL and the source's rate limit),
 * `config.get()` returns the settings checked against the manifest's config form, and `log` writes to the
 * plugin's own ring buffer. A capability the manifest does not grant is absent, not a function that refuses.
 */
import { TagsonicError } from '@tagsonic/core/errors';
import { validateManifest, type Manifest } from '@tagsonic/sdk';
import { createSandbox, type Capabilities, type InvokeBudget, type JsonValue, type Sandbox, type TaskBinding } from '../plugin-host/index.ts';
import {
  createPluginHttp,
  sourceUrlOverride,
  type PluginFetchOptions,
  type PluginFetchRequest,
  type PluginHttpLimits,
  type PluginHttpOptions,
} from '../plugin-http/index.ts';
import { resolveConfig, secretValues } from './config.ts';
import { createPluginLog, type PluginLogEntry } from './log.ts';
import type { PluginHostServices } from './host-services.ts';
import { hostCapabilities } from './capabilities/index.ts';

export const PLUGIN_MANIFEST_INVALID = 'TAGSONIC_ERR_PLUGIN_MANIFEST_INVALID';
export const PLUGIN_CONFIG_INVALID = 'TAGSONIC_ERR_PLUGIN_CONFIG_INVALID';

/**
 * Requests per second by plugin id, from the services' terms (MusicBrainz asks for 1/s, AcoustID allows 3/s);
 * iTunes answers 403 beyond ~20 searches a minute per client, so one every 3 s; any other source gets
 * {@link DEFAULT_RATE_PER_SEC}.
 */
export const SOURCE_RATE_PER_SEC: Readonly<Record<string, number>> = { musicbrainz: 1, acoustid: 3, itunes: 1 / 3 };
export const DEFAULT_RATE_PER_SEC = 5;

/**
 * The wall-clock limit of a plugin granted `sources` (smart_tag), unless `sandbox.timeoutMs` says otherwise. It
 * waits on the sources it searches, each under its own limit (10 s by default), so it needs longer than they do,
 * or one slow source would time the whole search out instead of being skipped.
 */
export const AGGREGATOR_TIMEOUT_MS = 25_000;

/**
 * The wall-clock limit of a plugin granted `ffmpeg` with `files: write` (format conversion, CUE split): one item
 * converts one file, and a long FLAC or a CD image's last track takes far more than 10 s on a busy machine; the
 * host's own limit on one ffmpeg run (media-tools.ts TOOL_TIMEOUT_MS) plus room for the calls around it.
 */
export const MEDIA_TOOL_PLUGIN_TIMEOUT_MS = 6 * 60_000;

/**
 * The wall-clock limit of a plugin granted `library` (import collection), unless `sandbox.timeoutMs` says
 * otherwise: `library.index` waits for a running library scan (up to 45 s) before it gives up.
 */
export const LIBRARY_PLUGIN_TIMEOUT_MS = 60_000;

/**
 * The wall-clock limit of a plugin granted `llm`, unless `sandbox.timeoutMs` says otherwise: one answer of a
 * language model takes seconds to a minute (core/llm allows 60 s per request), a long lyric is several
 * requests, and a call may first wait for one of the plugin's turns (capabilities/llm.ts).
 */
export const LLM_PLUGIN_TIMEOUT_MS = 3 * 60_000;

const DEFAULT_HTTP_LIMITS: Omit<PluginHttpLimits, 'ratePerSec'> = { timeoutMs: 8_000, maxBytes: 8 * 1024 * 1024 };

/** What the administrator set for one plugin. */
export interface PluginSettings {
  /** The source's base URL from the settings (`TAGSONIC_SOURCE_URL_<ID>` in `env` wins over it). */
  baseUrl?: string | null;
  /** Values of the manifest's config form, by key. */
  config?: Readonly<Record<string, unknown>>;
}

export interface LoadPluginOptions {
  /** The parsed manifest.json; validated here (it comes from an upload). */
  manifest: unknown;
  /** The bundled CommonJS entry script. */
  code: string;
  /** Where `TAGSONIC_SOURCE_URL_<ID>` is read (process.env in the server). */
  env: Readonly<Record<string, string | undefined>>;
  settings?: PluginSettings;
  sandbox?: { memoryLimitMb?: number; timeoutMs?: number; maxConsecutiveFailures?: number; onCatastrophicError?: (pluginId: string, message: string) => void };
  /** Overrides of the http limits; `ratePerSec` defaults to the per-source table. */
  httpLimits?: Partial<PluginHttpLimits>;
  /** Name resolution and address policy of http.fetch (tests make a name resolve to a local server). */
  httpNetwork?: Pick<PluginHttpOptions, 'lookup' | 'isRefused' | 'clock'>;
  /** Entries kept in the plugin's log. Default 200. */
  logCapacity?: number;
  /**
   * The worker's services behind the capabilities that reach outside the sandbox (files, tags, ffmpeg,
   * fingerprint, kv, progress, sources). Each capability still exists only when the manifest grants it.
   */
  host?: PluginHostServices;
}

export interface LoadedPlugin {
  readonly manifest: Manifest;
  readonly sandbox: Sandbox;
  /** The base URL the plugin was given (`caps.http.baseUrl`), or null. */
  readonly baseUrl: string | null;
  /** Calls one of the plugin's exports (see Sandbox.invoke); with `task`, its effects are bound to that task. */
  invoke(exportName: string, options?: unknown, task?: TaskBinding, budget?: InvokeBudget): Promise<JsonValue>;
  /** The plugin's log, oldest first. */
  logs(): PluginLogEntry[];
  close(): void;
}

/**
 * Validates the manifest and the settings, then builds the sandbox. Throws `TAGSONIC_ERR_PLUGIN_MANIFEST_INVALID`
 * or `…_CONFIG_INVALID` (with `details.errors`: `[{ path, message }]`, the validator's own), or
 * `TAGSONIC_ERR_PLUGIN_HTTP_BAD_URL` when the administrator's base URL is not an http(s) URL.
 */
export function loadPlugin(options: LoadPluginOptions): LoadedPlugin {
  const validation = validateManifest(options.manifest);
  if (!validation.ok) {
    const first = validation.errors[0]!;
    throw new TagsonicError('invalid', PLUGIN_MANIFEST_INVALID,
      `The plugin's manifest is invalid: ${first.path || '(manifest)'} ${first.message}${validation.errors.length > 1 ? ` (and ${validation.errors.length - 1} more)` : ''}`,
      { details: { errors: validation.errors } });
  }
  const manifest = validation.manifest;
  const config = resolveConfig(manifest.config, options.settings?.config);
  if (!config.ok) {
    const first = config.errors[0]!;
    throw new TagsonicError('invalid', PLUGIN_CONFIG_INVALID, `The settings of ${manifest.name} are invalid: ${first.path} ${first.message}`,
      { details: { pluginId: manifest.id, errors: config.errors } });
  }
  const log = createPluginLog({ capacity: options.logCapacity, secrets: secretValues(manifest.config, config.values) });

  const capabilities: Capabilities = {
    ...hostCapabilities(manifest, options.host),
    config: { get: () => ({ ...config.values }) },
    log: log.capability(),
  };
  let baseUrl: string | null = null;
  if (manifest.permissions.http) {
    baseUrl = sourceUrlOverride(manifest.id, options.env, { [manifest.id]: options.settings?.baseUrl });
    const http = createPluginHttp({
      pluginId: manifest.id,
      grants: manifest.permissions.http.hosts,
      overrides: { baseUrl },
      displayName: manifest.name,
      limits: { ...DEFAULT_HTTP_LIMITS, ratePerSec: SOURCE_RATE_PER_SEC[manifest.id] ?? DEFAULT_RATE_PER_SEC, ...options.httpLimits },
      ...options.httpNetwork,
    });
    capabilities.http = {
      // Arguments come from plugin code as JSON; createPluginHttp checks every field itself. The invocation's
      // deadline is the request's budget: a pacing turn past it is refused as busy, not waited for until the
      // sandbox's watchdog ends the invocation (see ../plugin-host/stats.ts for how that failure counts).
      fetch: async (args, call) => http.fetch(args[0] as string | PluginFetchRequest, args[1] as PluginFetchOptions | undefined, {
        budgetMs: call.deadline - performance.now(),
        onPacing: call.paced,
      }),
      baseUrl,
    };
  }

  const sandbox = createSandbox({
    id: manifest.id,
    code: options.code,
    capabilities,
    ...options.sandbox,
    timeoutMs: options.sandbox?.timeoutMs ??
      // The longest that applies: a media tool's run, a model's answers, then an aggregator's sources.
      (manifest.permissions.ffmpeg && manifest.permissions.files?.access === 'write' ? MEDIA_TOOL_PLUGIN_TIMEOUT_MS
        : manifest.permissions.llm ? LLM_PLUGIN_TIMEOUT_MS : manifest.permissions.sources ? AGGREGATOR_TIMEOUT_MS : manifest.permissions.library ? LIBRARY_PLUGIN_TIMEOUT_MS : undefined),
  });
  return {
    manifest,
    sandbox,
    baseUrl,
    invoke: (exportName, invokeOptions, task, budget) => sandbox.invoke(exportName, invokeOptions, task, budget),
    logs: () => log.entries(),
    close: () => sandbox.close(),
  };
}
