/**
 * CUE sheets: the bytes in whatever encoding the ripper used (UTF-8 with or without BOM, UTF-16 with BOM, GBK,
 * Big5, Shift-JIS — the legacy ones told apart by fix-encoding's scorer of common characters), parsed into tracks
 * with their cut points in CD frames (75 a second).
 *
 * Split points follow shntool's `shnsplit` (the reference the tests compare sample counts with): a track runs from
 * its INDEX 01 to the next track's INDEX 01 in the same FILE, so the next track's pregap (INDEX 00 → 01) stays at
 * the end of the track before it, and audio before track 1's INDEX 01 (a hidden track) belongs to no track.
 */
import { commonSets, LEGACY, scoreReading, type CommonSets, type LegacyEncoding } from '../../fix-encoding/src/repair.ts';

export type CueEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | LegacyEncoding;

export interface CueTrack {
  number: number;
  title: string | null;
  performer: string | null;
  songwriter: string | null;
  /** The FILE the track is in, as the sheet names it. */
  file: string;
  /** INDEX 01 in CD frames from the start of its file. */
  start: number;
  /** INDEX 00 (the pregap's start) in CD frames, when the sheet gives one. */
  pregap: number | null;
  /** The next track's INDEX 01 in the same file; null: to the end of the file. */
  end: number | null;
}

export interface CueSheet {
  title: string | null;
  performer: string | null;
  songwriter: string | null;
  date: string | null;
  genre: string | null;
  disc: string | null;
  files: string[];
  tracks: CueTrack[];
}

export type DecodeBytes = (bytes: Uint8Array, encoding: CueEncoding, fatal: boolean) => Promise<string | null>;

/** The sheet's text and the encoding it was read in; null when no encoding reads it as text. */
export async function decodeCue(bytes: Uint8Array, decode: DecodeBytes): Promise<{ text: string; encoding: CueEncoding } | null> {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    const text = await decode(bytes.subarray(3), 'utf-8', true);
    return text === null ? null : { text, encoding: 'utf-8' };
  }
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { text: (await decode(bytes.subarray(2), 'utf-16le', false)) ?? '', encoding: 'utf-16le' };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { text: (await decode(bytes.subarray(2), 'utf-16be', false)) ?? '', encoding: 'utf-16be' };
  const utf8 = await decode(bytes, 'utf-8', true);
  if (utf8 !== null) return { text: utf8, encoding: 'utf-8' };
  let common: CommonSets | null = null;
  let best: { text: string; encoding: CueEncoding; score: number } | null = null;
  for (const encoding of LEGACY) {
    const text = await decode(bytes, encoding, true);
    if (text === null) continue;
    common ??= await commonSets(async (b, e) => (await decode(b, e, false)) ?? '');
    const reading = scoreReading(text, encoding, common);
    if (reading && (!best || reading.score > best.score)) best = { text, encoding, score: reading.score };
  }
  return best && { text: best.text, encoding: best.encoding };
}

/** A line's words: bare words, or "quoted strings" (a quote inside is not escaped in real sheets). */
function words(line: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"?|(\S+)/g;
  for (let m = re.exec(line); m; m = re.exec(line)) out.push(m[1] ?? m[2] ?? '');
  return out;
}

/** `mm:ss:ff` → CD frames; null when malformed. */
export function framesOf(time: string): number | null {
  const m = /^(\d{1,4}):(\d{1,2}):(\d{1,2})$/.exec(time);
  if (!m || Number(m[2]) >= 60 || Number(m[3]) >= 75) return null;
  return (Number(m[1]) * 60 + Number(m[2])) * 75 + Number(m[3]);
}

/** Parses a sheet; throws an Error saying which line is wrong when the tracks cannot be cut from it. */
export function parseCue(text: string): CueSheet {
  const sheet: CueSheet = { title: null, performer: null, songwriter: null, date: null, genre: null, disc: null, files: [], tracks: [] };
  let file: string | null = null;
  let track: (CueTrack & { audio: boolean }) | null = null;
  const all: Array<CueTrack & { audio: boolean }> = [];
  for (const [i, raw] of text.split(/\r\n|\r|\n/).entries()) {
    const [command, ...args] = words(raw.trim());
    if (!command) continue;
    const value = args[0]?.trim() || null;
    switch (command.toUpperCase()) {
      case 'REM': {
        const key = args[0]?.toUpperCase();
        const rest = args.slice(1).join(' ').trim() || null;
        if (key === 'DATE') sheet.date = rest;
        else if (key === 'GENRE') sheet.genre = rest;
        else if (key === 'DISCNUMBER') sheet.disc = rest;
        break;
      }
      case 'FILE':
        if (!value) throw new Error(`line ${i + 1}: FILE without a name`);
        file = value;
        sheet.files.push(value);
        break;
      case 'TRACK': {
        if (!file) throw new Error(`line ${i + 1}: TRACK before any FILE`);
        const number = Number(args[0]);
        if (!Number.isInteger(number) || number < 0 || number > 99) throw new Error(`line ${i + 1}: bad track number ${args[0] ?? ''}`);
        track = { number, title: null, performer: null, songwriter: null, file, start: -1, pregap: null, end: null, audio: (args[1] ?? 'AUDIO').toUpperCase() === 'AUDIO' };
        all.push(track);
        break;
      }
      case 'TITLE':
        if (track) track.title = value;
        else sheet.title = value;
        break;
      case 'PERFORMER':
        if (track) track.performer = value;
        else sheet.performer = value;
        break;
      case 'SONGWRITER':
        if (track) track.songwriter = value;
        else sheet.songwriter = value;
        break;
      case 'INDEX': {
        if (!track) throw new Error(`line ${i + 1}: INDEX outside a TRACK`);
        const frames = framesOf(args[1] ?? '');
        if (frames === null) throw new Error(`line ${i + 1}: bad INDEX time ${args[1] ?? ''} (mm:ss:ff, 75 frames a second)`);
        const n = Number(args[0]);
        if (n === 1) track.start = frames;
        else if (n === 0) track.pregap = frames;
        break;
      }
      default:
        break; // CATALOG, ISRC, FLAGS, PREGAP/POSTGAP (silence not in the file) …
    }
  }
  for (const t of all) if (t.start < 0) throw new Error(`track ${t.number} has no INDEX 01`);
  for (const [i, t] of all.entries()) {
    const next = all[i + 1];
    t.end = next && next.file === t.file ? next.start : null;
    if (t.end !== null && t.end <= t.start) throw new Error(`track ${next!.number} starts before track ${t.number}`);
  }
  sheet.tracks = all.filter((t) => t.audio).map(({ audio: _audio, ...t }) => t);
  if (sheet.tracks.length === 0) throw new Error('the sheet has no audio tracks');
  return sheet;
}

/** CD frames → samples at `sampleRate` (588 a frame at 44.1 kHz, 640 at 48 kHz). */
export const samplesOf = (frames: number, sampleRate: number): number => Math.round((frames * sampleRate) / 75);

/** One safe file name segment from sheet text: no separators, reserved characters, leading dots or control characters. */
export function safeName(text: string, maxChars = 120): string {
  const cleaned = [...text.replace(/[\u0000-\u001f\u007f/\\:*?"<>|]/g, '_').trim().replace(/^\.+/, '_')].slice(0, maxChars).join('').trim();
  return cleaned || '_';
}
