/**
 * The transcoding settings of the system settings document (`settings`, `_id: 'system'`):
 * is_play_decode, decode_cache_num and decode_command. The settings screen may not have written
 * them yet, so every value has a default; values arrive as the dashboard sends them ("1"/"0", numbers
 * as text).
 */
import type { Store } from '../store/port.ts';

export interface DecodeSettings {
  /** Transcode streams that did not ask for a format with `command`. */
  isPlayDecode: boolean;
  /** Transcoded files kept on disk (0 = none). */
  cacheEntries: number;
  /** ffmpeg command template (see decode-command.ts). */
  command: string;
}

/** Navidrome-style placeholders: %s input file, %b bit rate (kbps), %t start offset (seconds). */
export const DEFAULT_DECODE_COMMAND = 'ffmpeg -i %s -ss %t -map 0:a:0 -b:a %bk -v 0 -f mp3 -';
export const DEFAULT_DECODE_CACHE_ENTRIES = 50;
const MAX_CACHE_ENTRIES = 100_000;

export const SETTINGS_COLLECTION = 'settings';
export const SYSTEM_SETTINGS_ID = 'system';

const truthy = (v: unknown): boolean => v === true || v === 1 || v === '1' || v === 'true';

export function decodeSettingsOf(doc: Record<string, unknown> | null | undefined): DecodeSettings {
  const n = Number(doc?.decode_cache_num);
  const command = typeof doc?.decode_command === 'string' && doc.decode_command.trim() !== '' ? doc.decode_command.trim() : DEFAULT_DECODE_COMMAND;
  return {
    isPlayDecode: truthy(doc?.is_play_decode),
    cacheEntries:
      doc?.decode_cache_num === undefined || doc.decode_cache_num === '' || !Number.isFinite(n) || n < 0
        ? DEFAULT_DECODE_CACHE_ENTRIES
        : Math.min(MAX_CACHE_ENTRIES, Math.trunc(n)),
    command,
  };
}

/**
 * Reads the settings at most once per `ttlMs` (streams start often; a changed setting applies within
 * a few seconds, in every process).
 */
export class DecodeSettingsReader {
  private readonly store: Store;
  private readonly ttlMs: number;
  private cached: { at: number; value: DecodeSettings } | null = null;

  constructor(store: Store, ttlMs = 5000) {
    this.store = store;
    this.ttlMs = ttlMs;
  }

  async read(): Promise<DecodeSettings> {
    const now = Date.now();
    if (this.cached && now - this.cached.at < this.ttlMs) return this.cached.value;
    const doc = await this.store.collection(SETTINGS_COLLECTION).findOne({ _id: SYSTEM_SETTINGS_ID });
    const value = decodeSettingsOf(doc);
    this.cached = { at: now, value };
    return value;
  }

  /** Forget the cached copy (after a settings change in this process). */
  invalidate(): void {
    this.cached = null;
  }
}
