/**
 * The transcoding settings of the system settings (is_play_decode, decode_cache_num, decode_command), read through
 * core/settings, which holds their defaults and checks.
 */
import type { Store } from '../store/port.ts';
import { DEFAULT_DECODE_CACHE_ENTRIES, DEFAULT_DECODE_COMMAND, SETTINGS_COLLECTION, SYSTEM_SETTINGS_ID, settingsOf } from '../settings/index.ts';

export { DEFAULT_DECODE_CACHE_ENTRIES, DEFAULT_DECODE_COMMAND, SETTINGS_COLLECTION, SYSTEM_SETTINGS_ID };

export interface DecodeSettings {
  /** Transcode streams that did not ask for a format with `command`. */
  isPlayDecode: boolean;
  /** Transcoded files kept on disk (0 = none). */
  cacheEntries: number;
  /** ffmpeg command template (see decode-command.ts). */
  command: string;
}

export function decodeSettingsOf(doc: Record<string, unknown> | null | undefined): DecodeSettings {
  const s = settingsOf(doc);
  // '' is the screen's way back to the default command.
  return { isPlayDecode: s.is_play_decode, cacheEntries: s.decode_cache_num, command: s.decode_command.trim() || DEFAULT_DECODE_COMMAND };
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
