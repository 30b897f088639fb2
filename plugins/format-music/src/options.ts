/**
 * The 格式转换 dialog's payload (spec doc 1 §7 formatMusic, §9 "Format conversion") → what one item needs:
 * the target format (`keep`: the source's own), the bitrate (-1 keeps the source's, `custom` takes
 * bit_rate_custom) and the sample rate (-1 keeps it, `custom` takes sample_rate_custom). Bad values refuse the task
 * when it is planned, saying which field.
 */
import { PluginError, type JsonValue } from '@tagsonic/sdk';

export const MUSIC_TYPES = ['keep', 'mp3', 'wav', 'flac', 'wma', 'ogg'] as const;
/** What `keep` can re-encode into (the host's transcode targets). */
export const ENCODABLE = ['mp3', 'flac', 'wav', 'ogg', 'wma', 'm4a', 'opus'] as const;
export const LOSSLESS = new Set(['flac', 'wav']);

export interface ConvertOptions {
  musicType: (typeof MUSIC_TYPES)[number];
  /** kbps; null keeps the source's. */
  bitrateKbps: number | null;
  /** Hz; null keeps the source's. */
  sampleRate: number | null;
  keepSource: boolean;
}

const invalid = (message: string) => new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', message);

function rate(value: JsonValue | undefined, custom: JsonValue | undefined, field: string, min: number, max: number): number | null {
  if (value === undefined || value === null || value === -1 || value === '-1' || value === 'keep') return null;
  const raw = value === 'custom' ? custom : value;
  const n = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isFinite(n) || n < min || n > max) {
    throw invalid(value === 'custom' ? `${field}_custom must be a number from ${min} to ${max}` : `${field} must be -1 (keep), custom or a number from ${min} to ${max}`);
  }
  return Math.round(n);
}

export function parseOptions(options: Record<string, JsonValue>): ConvertOptions {
  const type = options.music_type ?? 'mp3';
  if (typeof type !== 'string' || !(MUSIC_TYPES as readonly string[]).includes(type)) throw invalid(`music_type must be one of ${MUSIC_TYPES.join(', ')}`);
  return {
    musicType: type as ConvertOptions['musicType'],
    bitrateKbps: rate(options.bit_rate, options.bit_rate_custom, 'bit_rate', 8, 1411),
    sampleRate: rate(options.sample_rate, options.sample_rate_custom, 'sample_rate', 8000, 192_000),
    keepSource: options.is_keep_source !== false,
  };
}

/** `dir/stem.ext` for n = 1, `dir/stem (n).ext` after: the free name a converted file takes. */
export function candidateName(source: string, ext: string, n: number): string {
  const slash = source.lastIndexOf('/');
  const dir = source.slice(0, slash + 1);
  const base = source.slice(slash + 1);
  const dot = base.lastIndexOf('.');
  const stem = dot > 0 ? base.slice(0, dot) : base;
  return `${dir}${stem}${n === 1 ? '' : ` (${n})`}.${ext}`;
}

export const extOf = (file: string): string => {
  const base = file.slice(file.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
};
