/**
 * Where the `extract` preset (ffmpeg-convert.ts) starts decoding a CUE track. Cut with `atrim` on decoded samples
 * from the image's start, the last track of a 50 min image decoded ~50 min of audio to keep ~4, and a whole image
 * ~half its length per track (shnsplit reads it once: the split was 4–5× its time). From an image whose demuxer
 * seeks exactly, ffmpeg now seeks first (`-ss`, before `-i`) to a whole second at least one second before the
 * cut: whole seconds are exact in every sample rate's timestamps, ffmpeg drops the decoded samples before that
 * second (accurate seek), and `atrim` counts the rest from there — the very samples a full decode gives.
 */
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { NO_NETWORK, runTool, TOOL_TIMEOUT_MS } from './media-tools.ts';

/**
 * Image formats whose ffmpeg demuxer seeks to a point at or before the time asked with every sample's timestamp
 * exact: a seek + `atrim` gives the same decoded samples as a full decode + `atrim` (checked on each,
 * test/action-split-cue-seek.test.ts). Others (APE, M4A, lossy images) decode from the start.
 */
export const SEEK_EXACT = new Set(['.wav', '.flac', '.wv', '.tta', '.aif', '.aiff']);
const RATES_KEPT = 64;

export interface ExtractWindow {
  /** ffmpeg input options, before `-i`: `-ss <seconds>`, or none. */
  seek: string[];
  /** The `atrim` that cuts `[start, end)` of the image from where decoding starts. */
  trim: string;
}

/** The image's sample rate (ffprobe), kept per file version: an image's tracks are cut one by one. */
export function imageRates(): (file: string, signal?: AbortSignal) => Promise<number | null> {
  const rates = new Map<string, number | null>();
  return async (file, signal) => {
    const info = await lstat(file);
    const key = `${file}\u0000${info.size}\u0000${info.mtimeMs}`;
    if (rates.has(key)) return rates.get(key)!;
    const { stdout } = await runTool('ffprobe', [...NO_NETWORK, '-v', 'error', '-select_streams', 'a:0', '-show_entries', 'stream=sample_rate', '-of', 'csv=p=0', '--', file], TOOL_TIMEOUT_MS, signal);
    const rate = Number.parseInt(stdout.toString().trim(), 10);
    const known = Number.isInteger(rate) && rate > 0 ? rate : null;
    if (rates.size >= RATES_KEPT) rates.delete(rates.keys().next().value!);
    rates.set(key, known);
    return known;
  };
}

/** The seek and trim for samples `[start, end)` of `image` (to its end without `end`). */
export async function extractWindow(image: string, start: number, end: number | undefined, rateOf: (file: string) => Promise<number | null>): Promise<ExtractWindow> {
  const rate = start > 0 && SEEK_EXACT.has(path.extname(image).toLowerCase()) ? await rateOf(image) : null;
  const seconds = rate ? Math.max(0, Math.floor(start / rate) - 1) : 0;
  const skipped = seconds * (rate ?? 0);
  return {
    seek: seconds > 0 ? ['-ss', String(seconds)] : [],
    trim: `atrim=start_sample=${start - skipped}${end === undefined ? '' : `:end_sample=${end - skipped}`},asetpts=PTS-STARTPTS`,
  };
}
