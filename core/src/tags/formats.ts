/**
 * What each audio format is, which tag families it carries (in the order we trust them when reading)
 * and how we write to it. Format knowledge lives here; field knowledge lives in mapping.ts.
 */
import type { IFormat } from 'music-metadata';
import type { AudioFormat } from './model.ts';

/** Tag families as music-metadata names them in `native`, grouped the way Picard's mapping table is. */
export type TagFamily = 'id3v2' | 'vorbis' | 'mp4' | 'ape' | 'asf' | 'riff' | 'id3v1';
/** The families TagLib writes through its PropertyMap (RIFF INFO is kept in step by TagLib itself). */
export type WriteFamily = 'id3v2' | 'vorbis' | 'mp4' | 'ape' | 'asf';

/**
 * How a cover gets into the file:
 * - `taglib`: taglib-wasm's picture API on the Emscripten backend (the one we write tags with);
 * - `taglib-wasi`: the Emscripten binding ignores pictures for these containers (verified with
 *   taglib-wasm 1.5.1), so a first pass with the WASI backend sets them — METADATA_BLOCK_PICTURE
 *   for Opus, an APIC frame in the `id3 ` chunk for WAV/AIFF — and the tag pass follows.
 * - `none`: we do not write covers to this format (refused up front, never half-done).
 */
export type ArtworkWriter = 'taglib' | 'taglib-wasi' | 'none';

export interface FormatProfile {
  format: AudioFormat;
  /** Families to read from, most trusted first; the first one present in a file is used alone. */
  readFamilies: readonly TagFamily[];
  /** `null`: we can read this format but not write it. */
  writeFamily: WriteFamily | null;
  artwork: ArtworkWriter;
}

const PROFILES: Record<string, FormatProfile> = {
  mp3: { format: 'mp3', readFamilies: ['id3v2', 'ape', 'id3v1'], writeFamily: 'id3v2', artwork: 'taglib' },
  mp2: { format: 'mp2', readFamilies: ['id3v2', 'ape', 'id3v1'], writeFamily: 'id3v2', artwork: 'taglib' },
  flac: { format: 'flac', readFamilies: ['vorbis'], writeFamily: 'vorbis', artwork: 'taglib' },
  ogg: { format: 'ogg', readFamilies: ['vorbis'], writeFamily: 'vorbis', artwork: 'taglib' },
  opus: { format: 'opus', readFamilies: ['vorbis'], writeFamily: 'vorbis', artwork: 'taglib-wasi' },
  oga: { format: 'oga', readFamilies: ['vorbis'], writeFamily: 'vorbis', artwork: 'none' },
  spx: { format: 'spx', readFamilies: ['vorbis'], writeFamily: 'vorbis', artwork: 'none' },
  m4a: { format: 'm4a', readFamilies: ['mp4'], writeFamily: 'mp4', artwork: 'taglib' },
  wav: { format: 'wav', readFamilies: ['id3v2', 'riff'], writeFamily: 'id3v2', artwork: 'taglib-wasi' },
  aiff: { format: 'aiff', readFamilies: ['id3v2'], writeFamily: 'id3v2', artwork: 'taglib-wasi' },
  wma: { format: 'wma', readFamilies: ['asf'], writeFamily: 'asf', artwork: 'none' },
  ape: { format: 'ape', readFamilies: ['ape', 'id3v1'], writeFamily: 'ape', artwork: 'none' },
  wv: { format: 'wv', readFamilies: ['ape', 'id3v1'], writeFamily: 'ape', artwork: 'none' },
  mpc: { format: 'mpc', readFamilies: ['ape', 'id3v1'], writeFamily: 'ape', artwork: 'none' },
  dsf: { format: 'dsf', readFamilies: ['id3v2'], writeFamily: 'id3v2', artwork: 'none' },
  // Raw AAC (ADTS) carries at most an ID3 tag in front, which TagLib cannot write: indexed and played, not edited.
  aac: { format: 'aac', readFamilies: ['id3v2', 'ape', 'id3v1'], writeFamily: null, artwork: 'none' },
};

export function profileOf(format: AudioFormat): FormatProfile | null {
  return PROFILES[format] ?? null;
}

/** music-metadata's `native` keys → our families. */
export function familyOfNativeType(tagType: string): TagFamily | null {
  if (tagType.startsWith('ID3v2')) return 'id3v2';
  switch (tagType) {
    case 'vorbis':
      return 'vorbis';
    case 'iTunes':
      return 'mp4';
    case 'APEv2':
      return 'ape';
    case 'asf':
      return 'asf';
    case 'exif': // music-metadata's name for RIFF INFO
      return 'riff';
    case 'ID3v1':
      return 'id3v1';
    default:
      return null;
  }
}

const LOSSLESS_CODECS = /^(flac|alac|pcm|wavpack|monkey|ape|tta|dsd|mlp|truehd)/i;

/** Our format name for what music-metadata detected; `null` when it is not something we handle. */
export function formatOf(fmt: IFormat): AudioFormat | null {
  const container = (fmt.container ?? '').toLowerCase();
  const codec = (fmt.codec ?? '').toLowerCase();
  if (container === 'mpeg') {
    if (codec.includes('layer 3')) return 'mp3';
    if (codec.includes('layer 2')) return 'mp2';
    return codec.includes('aac') ? null : 'mp3';
  }
  if (container === 'flac') return 'flac';
  if (container === 'ogg') {
    if (codec.startsWith('opus')) return 'opus';
    if (codec.startsWith('vorbis')) return 'ogg';
    if (codec.startsWith('flac')) return 'oga';
    if (codec.startsWith('speex')) return 'spx';
    return null;
  }
  // music-metadata reports MP4 files by brand: "M4A/isom/iso2", "mp42/isom", "M4B /…", "isom/…", "3gp…".
  if (/^(m4a|m4b|m4p|mp4|mp42|mp41|isom|iso\d|dash|avc1|3gp|qt)/.test(container)) return 'm4a';
  if (container === 'wave') return 'wav';
  if (container.startsWith('aiff')) return 'aiff';
  if (container.startsWith('asf')) return 'wma';
  if (container.startsWith("monkey's audio")) return 'ape';
  if (container === 'wavpack') return 'wv';
  if (container.startsWith('musepack')) return 'mpc';
  if (container === 'dsf') return 'dsf';
  if (container.startsWith('adts')) return 'aac';
  return null;
}

export function isLossless(fmt: IFormat): boolean {
  if (typeof fmt.lossless === 'boolean') return fmt.lossless;
  return LOSSLESS_CODECS.test(fmt.codec ?? '');
}
