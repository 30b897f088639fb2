/**
 * The gateway process's media services: the transcoder (ffmpeg, cache under data/cache/transcode),
 * the cover cache (data/cache/covers) and the transcoding settings reader. Streaming runs where the
 * HTTP connection is, so these live in the gateway, not in the workers.
 */
import path from 'node:path';
import { availableParallelism } from 'node:os';
import type { Store } from '@tagsonic/core/store';
import { CoverCache, DecodeSettingsReader, Transcoder } from '@tagsonic/core/transcode';

export interface MediaOptions {
  /** Concurrent ffmpeg transcodes (default: the number of cores). */
  maxConcurrent?: number;
  /** How long a stream waits for a free transcoder before error 0 "busy" (default 5 s). */
  queueTimeoutMs?: number;
  /** Disk budget of scaled covers (default 256 MiB). */
  coverCacheBytes?: number;
  /** How long a read of the transcoding settings is reused (default 5 s). */
  settingsTtlMs?: number;
}

export interface MediaServices {
  transcoder: Transcoder;
  covers: CoverCache;
  decodeSettings: DecodeSettingsReader;
}

export function buildMediaServices(deps: { store: Store; dataDir: string; options?: MediaOptions }): MediaServices {
  const o = deps.options ?? {};
  const decodeSettings = new DecodeSettingsReader(deps.store, o.settingsTtlMs);
  return {
    decodeSettings,
    transcoder: new Transcoder({
      dir: path.join(deps.dataDir, 'cache', 'transcode'),
      maxConcurrent: o.maxConcurrent ?? availableParallelism(),
      queueTimeoutMs: o.queueTimeoutMs,
      cacheEntries: async () => (await decodeSettings.read()).cacheEntries,
    }),
    covers: new CoverCache({ dir: path.join(deps.dataDir, 'cache', 'covers'), maxBytes: o.coverCacheBytes }),
  };
}
