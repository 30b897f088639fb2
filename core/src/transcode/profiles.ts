/**
 * Output formats a stream can be transcoded to, and the ffmpeg arguments for each. Every profile
 * writes to a pipe, so its bytes are final as soon as they are written (no header rewritten at the
 * end) and a reader can follow the output while it grows.
 */
import { invalid } from '../errors/errors.ts';

export type TranscodeFormat = 'mp3' | 'opus' | 'ogg' | 'aac' | 'm4a' | 'flac';

export interface Profile {
  format: TranscodeFormat;
  contentType: string;
  suffix: string;
  /** kbps when the client names none; null for lossless. */
  defaultBitRate: number | null;
  minBitRate: number;
  maxBitRate: number;
  /** Codec and muxer arguments (after the input), `{b}` replaced by the bit rate. */
  args: readonly string[];
}

export const PROFILES: Record<TranscodeFormat, Profile> = {
  mp3: { format: 'mp3', contentType: 'audio/mpeg', suffix: 'mp3', defaultBitRate: 192, minBitRate: 32, maxBitRate: 320, args: ['-c:a', 'libmp3lame', '-b:a', '{b}k', '-f', 'mp3'] },
  opus: { format: 'opus', contentType: 'audio/ogg', suffix: 'opus', defaultBitRate: 128, minBitRate: 16, maxBitRate: 256, args: ['-c:a', 'libopus', '-b:a', '{b}k', '-f', 'opus'] },
  ogg: { format: 'ogg', contentType: 'audio/ogg', suffix: 'ogg', defaultBitRate: 192, minBitRate: 64, maxBitRate: 320, args: ['-c:a', 'libvorbis', '-b:a', '{b}k', '-f', 'ogg'] },
  // ADTS: raw AAC frames any player can start anywhere.
  aac: { format: 'aac', contentType: 'audio/aac', suffix: 'aac', defaultBitRate: 192, minBitRate: 32, maxBitRate: 320, args: ['-c:a', 'aac', '-b:a', '{b}k', '-f', 'adts'] },
  // Fragmented MP4: the moov atom comes first, so it can be written to a pipe and played while it grows.
  m4a: {
    format: 'm4a',
    contentType: 'audio/mp4',
    suffix: 'm4a',
    defaultBitRate: 192,
    minBitRate: 32,
    maxBitRate: 320,
    args: ['-c:a', 'aac', '-b:a', '{b}k', '-movflags', 'frag_keyframe+empty_moov+default_base_moof', '-f', 'mp4'],
  },
  flac: { format: 'flac', contentType: 'audio/flac', suffix: 'flac', defaultBitRate: null, minBitRate: 0, maxBitRate: 0, args: ['-c:a', 'flac', '-f', 'flac'] },
};

/** Format names clients send, mapped to a profile (`raw` means no transcoding and is handled by the caller). */
const ALIASES: Record<string, TranscodeFormat> = {
  mp3: 'mp3',
  opus: 'opus',
  ogg: 'ogg',
  oga: 'ogg',
  vorbis: 'ogg',
  aac: 'aac',
  adts: 'aac',
  m4a: 'm4a',
  mp4: 'm4a',
  flac: 'flac',
};

export function profileFor(format: string): Profile {
  const f = ALIASES[format.trim().toLowerCase()];
  if (!f) {
    throw invalid('TAGSONIC_ERR_TRANSCODE_FORMAT', `Cannot stream as "${format}"; formats: raw, ${Object.keys(ALIASES).join(', ')}.`, { format });
  }
  return PROFILES[f];
}

/** The bit rate a profile will use: the client's maximum clamped to what the encoder does well, else its default. */
export function bitRateFor(profile: Profile, requested: number | null | undefined): number | null {
  if (profile.defaultBitRate === null) return null;
  if (!requested || requested <= 0) return profile.defaultBitRate;
  return Math.max(profile.minBitRate, Math.min(profile.maxBitRate, Math.round(requested)));
}

/** Content type and suffix for an ffmpeg muxer name (`-f` of a custom decode command). */
export function outputOfMuxer(muxer: string | null): { contentType: string; suffix: string } {
  switch (muxer) {
    case 'opus':
      return { contentType: 'audio/ogg', suffix: 'opus' };
    case 'ogg':
      return { contentType: 'audio/ogg', suffix: 'ogg' };
    case 'adts':
      return { contentType: 'audio/aac', suffix: 'aac' };
    case 'mp4':
    case 'ipod':
      return { contentType: 'audio/mp4', suffix: 'm4a' };
    case 'flac':
      return { contentType: 'audio/flac', suffix: 'flac' };
    case 'wav':
      return { contentType: 'audio/wav', suffix: 'wav' };
    default:
      return { contentType: 'audio/mpeg', suffix: 'mp3' };
  }
}
