/**
 * The length of an Ogg Vorbis or Opus stream, from the granule position of its last page (RFC 3533;
 * RFC 7845 §4 for Opus), the way TagLib and ffprobe find it. music-metadata only knows the length when
 * it has parsed every page, which it does for a short file but not for a song: without `duration: true`
 * it stops after 13 pages and reports no length at all, and with it, it would read the whole file.
 * This reads the first page (stream serial, Opus pre-skip) and the last 64 KiB.
 */
import type { ReadAt } from './ogg-pictures.ts';

/** The largest page there can be: header, 255 lacing values, 255 segments of 255 bytes. */
const MAX_PAGE = 27 + 255 + 255 * 255;
/** Opus granule positions always count 48 kHz samples, whatever the input rate was. */
const OPUS_RATE = 48_000;

const isCapture = (b: Uint8Array, at: number) => b[at] === 0x4f && b[at + 1] === 0x67 && b[at + 2] === 0x67 && b[at + 3] === 0x53; // "OggS"

interface FirstPage {
  serial: number;
  codec: 'opus' | 'vorbis';
  /** Samples to drop at the start (Opus); 0 for Vorbis. */
  preSkip: number;
  /** Vorbis: the sample rate of the identification header. */
  rate: number;
}

async function firstPage(read: ReadAt): Promise<FirstPage | null> {
  const head = await read(0, 27 + 255 + 64);
  if (head.length < 28 || !isCapture(head, 0)) return null;
  const b = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  const body = 27 + b[26]!;
  const serial = b.readUInt32LE(14);
  if (b.length >= body + 12 && b.toString('latin1', body, body + 8) === 'OpusHead') {
    return { serial, codec: 'opus', preSkip: b.readUInt16LE(body + 10), rate: OPUS_RATE };
  }
  if (b.length >= body + 16 && b[body] === 1 && b.toString('latin1', body + 1, body + 7) === 'vorbis') {
    return { serial, codec: 'vorbis', preSkip: 0, rate: b.readUInt32LE(body + 12) };
  }
  return null;
}

/**
 * Seconds of audio in the stream, or null when the file has no readable last page (truncated or not
 * an Ogg Vorbis/Opus file).
 */
export async function oggDuration(read: ReadAt, size: number): Promise<number | null> {
  const first = await firstPage(read);
  if (!first || first.rate <= 0) return null;
  const start = Math.max(0, size - MAX_PAGE);
  const tail = await read(start, size - start);
  const t = Buffer.from(tail.buffer, tail.byteOffset, tail.byteLength);
  // From the end: the last complete page of our stream whose granule position is set (-1: no packet ends there).
  for (let at = t.length - 27; at >= 0; at--) {
    if (!isCapture(t, at) || t[at + 4] !== 0) continue;
    const segments = t[at + 26]!;
    if (at + 27 + segments > t.length) continue;
    let length = 27 + segments;
    for (let i = 0; i < segments; i++) length += t[at + 27 + i]!;
    if (at + length > t.length) continue;
    if (t.readUInt32LE(at + 14) !== first.serial) continue;
    const granule = t.readBigInt64LE(at + 6);
    if (granule < 0n) continue;
    const samples = Number(granule) - first.preSkip;
    return samples > 0 ? samples / first.rate : 0;
  }
  return null;
}
