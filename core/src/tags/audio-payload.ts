/**
 * The audio payload of a file — everything a tag write must leave alone — as a list of byte ranges
 * (views into the file, no copies) compared byte for byte before and after a write, and a structural
 * check that refuses truncated files. Per format:
 * - MP3: the bytes between the leading ID3v2 tag(s) and the trailing APE/Lyrics3/ID3v1 tags; the
 *   MPEG frame chain is walked so a cut-off last frame is noticed.
 * - FLAC: STREAMINFO plus every byte after the metadata blocks; the last frame's CRC-16 must match
 *   (a truncated FLAC fails it).
 * - Ogg (Vorbis, Opus, FLAC, Speex): every packet except the comment header, plus the granule
 *   positions of audio pages. TagLib re-paginates the headers and renumbers pages, so raw bytes would
 *   change while the audio does not. Page CRCs are checked; the last page must carry end-of-stream.
 * - MP4: every `mdat` payload, the sample tables, and each chunk offset taken relative to the `mdat`
 *   it points into: TagLib shifts `stco`/`co64` when `moov` grows, and a wrong shift breaks playback
 *   even with identical `mdat` bytes.
 * - WAV/AIFF: the format chunk and the sample data chunk.
 * - Anything else: ffmpeg's per-packet stream hash (`-c copy -f streamhash`).
 */
import { createHash, type Hash } from 'node:crypto';
import { spawn } from 'node:child_process';
import type { AudioFormat } from './model.ts';
import { TAG_ERRORS, invalid, unavailable } from './errors.ts';
import { toolPath } from '../tools.ts';

export interface AudioPayload {
  method: string;
  /** Views into the file (or small derived values) that must be identical after a tag write. */
  parts: Uint8Array[];
}

export interface PayloadDigest {
  method: string;
  sha256: string;
}

export function sameAudioPayload(a: AudioPayload, b: AudioPayload): boolean {
  if (a.method !== b.method || a.parts.length !== b.parts.length) return false;
  return a.parts.every((part, i) => Buffer.from(part.buffer, part.byteOffset, part.byteLength).equals(b.parts[i]!));
}

/** One sha256 over the payload: for logs, tests and comparing files that are not in memory together. */
export async function audioPayloadDigest(data: Uint8Array, format: AudioFormat, path: string): Promise<PayloadDigest> {
  const payload = await audioPayload(data, format, path);
  const h = createHash('sha256');
  for (const part of payload.parts) {
    h.update(`${part.byteLength}:`);
    h.update(part);
  }
  return { method: payload.method, sha256: h.digest('hex') };
}

export async function audioPayload(data: Uint8Array, format: AudioFormat, path: string): Promise<AudioPayload> {
  const b = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  switch (format) {
    case 'mp3':
    case 'mp2':
      return mpeg(b, path);
    case 'flac':
      return flac(b, path);
    case 'ogg':
    case 'opus':
    case 'oga':
    case 'spx':
      return ogg(b, path);
    case 'm4a':
      return mp4(b, path) ?? ffmpegStreamHash(path);
    case 'wav':
      return riff(b, path) ?? ffmpegStreamHash(path);
    case 'aiff':
      return aiff(b, path);
    default:
      return ffmpegStreamHash(path);
  }
}

const truncated = (path: string, what: string) =>
  invalid(TAG_ERRORS.TRUNCATED, `${path} is truncated or damaged (${what}); Tagsonic will not write tags to it.`, { path });
const corrupt = (path: string, what: string) =>
  invalid(TAG_ERRORS.UNREADABLE, `${path} is damaged (${what}); Tagsonic will not write tags to it.`, { path });

// ---------------------------------------------------------------- tags around raw streams

function id3v2Size(b: Buffer, pos: number): number {
  if (pos + 10 > b.length || b.toString('latin1', pos, pos + 3) !== 'ID3') return 0;
  const size = ((b[pos + 6]! & 0x7f) << 21) | ((b[pos + 7]! & 0x7f) << 14) | ((b[pos + 8]! & 0x7f) << 7) | (b[pos + 9]! & 0x7f);
  const footer = (b[pos + 5]! & 0x10) !== 0 ? 10 : 0;
  return 10 + size + footer;
}

function skipLeadingId3v2(b: Buffer): number {
  let pos = 0;
  for (let size = id3v2Size(b, pos); size > 0; size = id3v2Size(b, pos)) pos += size;
  return Math.min(pos, b.length);
}

/** Where the trailing ID3v1 / Lyrics3v2 / APEv2 tags (in any order) begin. */
function trailingTagsStart(b: Buffer, floor: number): number {
  let end = b.length;
  for (;;) {
    if (end - 128 >= floor && b.toString('latin1', end - 128, end - 125) === 'TAG') {
      end -= 128;
      continue;
    }
    if (end - 32 >= floor && b.toString('latin1', end - 32, end - 24) === 'APETAGEX') {
      const size = b.readUInt32LE(end - 20);
      const hasHeader = (b.readUInt32LE(end - 12) & 0x80000000) !== 0;
      const total = size + (hasHeader ? 32 : 0);
      if (total >= 32 && end - total >= floor) {
        end -= total;
        continue;
      }
    }
    if (end - 15 >= floor && b.toString('latin1', end - 9, end) === 'LYRICS200') {
      const size = Number.parseInt(b.toString('latin1', end - 15, end - 9), 10);
      if (Number.isFinite(size) && end - 15 - size >= floor) {
        end -= 15 + size;
        continue;
      }
    }
    return end;
  }
}

// ---------------------------------------------------------------- MPEG audio

const MPEG_BITRATES: Record<string, number[]> = {
  // [version][layer] → kbps by index; version 1 = MPEG-1, 2 = MPEG-2/2.5
  '1-1': [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  '1-2': [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  '1-3': [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  '2-1': [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  '2-2': [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  '2-3': [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const MPEG_RATES: Record<number, number[]> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };

/** Length of the MPEG frame whose header starts at `pos`, or 0 if there is no valid header there. */
function mpegFrameLength(b: Buffer, pos: number): number {
  if (pos + 4 > b.length || b[pos] !== 0xff || (b[pos + 1]! & 0xe0) !== 0xe0) return 0;
  const versionBits = (b[pos + 1]! >> 3) & 3;
  const layerBits = (b[pos + 1]! >> 1) & 3;
  const bitrateIndex = b[pos + 2]! >> 4;
  const rateIndex = (b[pos + 2]! >> 2) & 3;
  if (versionBits === 1 || layerBits === 0 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return 0;
  const layer = 4 - layerBits;
  const v1 = versionBits === 3;
  const kbps = MPEG_BITRATES[`${v1 ? 1 : 2}-${layer}`]![bitrateIndex]!;
  const rate = MPEG_RATES[versionBits]![rateIndex]!;
  const padding = (b[pos + 2]! >> 1) & 1;
  if (layer === 1) return Math.floor((12 * kbps * 1000) / rate + padding) * 4;
  const factor = layer === 3 && !v1 ? 72 : 144;
  return Math.floor((factor * kbps * 1000) / rate) + padding;
}

function mpeg(b: Buffer, path: string): AudioPayload {
  const start = skipLeadingId3v2(b);
  const end = trailingTagsStart(b, start);
  let pos = start;
  let frames = 0;
  let chained = false;
  while (pos < end) {
    const len = mpegFrameLength(b, pos);
    if (len > 0 && chained) {
      // Following the chain: a frame that runs past the end means the file was cut.
      if (pos + len > end) throw truncated(path, `the last MPEG frame needs ${pos + len - end} more bytes`);
      frames++;
      pos += len;
      continue;
    }
    // Resync: accept a header only if the next frame (or the exact end) confirms it.
    if (len > 0 && (pos + len === end || mpegFrameLength(b, pos + len) > 0)) {
      chained = true;
      continue;
    }
    chained = false;
    pos++;
  }
  if (frames === 0) throw corrupt(path, 'no MPEG audio frames found');
  return { method: 'mpeg-frames', parts: [b.subarray(start, end)] };
}

// ---------------------------------------------------------------- FLAC

const CRC8 = new Uint8Array(256);
const CRC16 = new Uint16Array(256);
for (let i = 0; i < 256; i++) {
  let c8 = i;
  for (let j = 0; j < 8; j++) c8 = c8 & 0x80 ? ((c8 << 1) ^ 0x07) & 0xff : (c8 << 1) & 0xff;
  CRC8[i] = c8;
  let c16 = i << 8;
  for (let j = 0; j < 8; j++) c16 = c16 & 0x8000 ? ((c16 << 1) ^ 0x8005) & 0xffff : (c16 << 1) & 0xffff;
  CRC16[i] = c16;
}

function flacHeaderLength(b: Buffer, p: number, end: number): number {
  if (p + 6 > end || b[p] !== 0xff || (b[p + 1]! & 0xfe) !== 0xf8) return 0;
  const blockCode = b[p + 2]! >> 4;
  const rateCode = b[p + 2]! & 0x0f;
  if (blockCode === 0 || rateCode === 15 || (b[p + 3]! & 1) !== 0) return 0;
  let q = p + 4;
  // UTF-8-style coded frame/sample number.
  const lead = b[q]!;
  let extra = 0;
  if (lead < 0x80) extra = 0;
  else if ((lead & 0xe0) === 0xc0) extra = 1;
  else if ((lead & 0xf0) === 0xe0) extra = 2;
  else if ((lead & 0xf8) === 0xf0) extra = 3;
  else if ((lead & 0xfc) === 0xf8) extra = 4;
  else if ((lead & 0xfe) === 0xfc) extra = 5;
  else if (lead === 0xfe) extra = 6;
  else return 0;
  q += 1 + extra;
  if (blockCode === 6) q += 1;
  else if (blockCode === 7) q += 2;
  if (rateCode === 12) q += 1;
  else if (rateCode === 13 || rateCode === 14) q += 2;
  if (q + 1 > end) return 0;
  let crc = 0;
  for (let i = p; i < q; i++) crc = CRC8[crc ^ b[i]!]!;
  return crc === b[q] ? q + 1 - p : 0;
}

function crc16(b: Buffer, from: number, to: number): number {
  let crc = 0;
  for (let i = from; i < to; i++) crc = ((crc << 8) & 0xffff) ^ CRC16[(crc >> 8) ^ b[i]!]!;
  return crc;
}

function flac(b: Buffer, path: string): AudioPayload {
  let pos = skipLeadingId3v2(b);
  if (b.toString('latin1', pos, pos + 4) !== 'fLaC') throw corrupt(path, 'no FLAC stream marker');
  pos += 4;
  let streamInfo: Buffer | null = null;
  let maxFrame = 0;
  for (let last = false; !last; ) {
    if (pos + 4 > b.length) throw truncated(path, 'metadata blocks cut short');
    last = (b[pos]! & 0x80) !== 0;
    const type = b[pos]! & 0x7f;
    const len = b.readUIntBE(pos + 1, 3);
    if (type === 127) throw corrupt(path, 'invalid metadata block');
    if (pos + 4 + len > b.length) throw truncated(path, 'a metadata block runs past the end');
    if (type === 0) {
      streamInfo = b.subarray(pos + 4, pos + 4 + len);
      maxFrame = len >= 10 ? b.readUIntBE(pos + 4 + 7, 3) : 0;
    }
    pos += 4 + len;
  }
  if (!streamInfo) throw corrupt(path, 'no STREAMINFO block');
  const start = pos;
  const end = trailingTagsStart(b, start);
  if (start >= end) throw truncated(path, 'no audio frames after the metadata');
  if (flacHeaderLength(b, start, end) === 0) throw corrupt(path, 'audio does not start with a FLAC frame');
  // Find the last frame: the last sync whose header CRC-8 holds and whose CRC-16 covers up to the end.
  const window = Math.max(maxFrame > 0 ? maxFrame * 2 + 64 : 0, 1 << 20);
  let found = false;
  for (let p = end - 2; p >= Math.max(start, end - window); p--) {
    if (b[p] !== 0xff || (b[p + 1]! & 0xfe) !== 0xf8) continue;
    if (flacHeaderLength(b, p, end) === 0) continue;
    if (crc16(b, p, end - 2) === b.readUInt16BE(end - 2)) {
      found = true;
      break;
    }
  }
  if (!found) throw truncated(path, 'the last FLAC frame fails its CRC');
  return { method: 'flac-frames', parts: [streamInfo, b.subarray(start, end)] };
}

// ---------------------------------------------------------------- Ogg

const OGG_CRC = new Uint32Array(256);
for (let i = 0; i < 256; i++) {
  let r = i << 24;
  for (let j = 0; j < 8; j++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
  OGG_CRC[i] = r >>> 0;
}

/** The page CRC, computed with the CRC field itself read as zeros (no per-byte test in the hot loop). */
function oggCrc(b: Buffer, from: number, to: number, crcAt: number): number {
  let crc = 0;
  for (let i = from; i < crcAt; i++) crc = ((crc << 8) ^ OGG_CRC[((crc >>> 24) & 0xff) ^ b[i]!]!) >>> 0;
  for (let i = 0; i < 4; i++) crc = ((crc << 8) ^ OGG_CRC[(crc >>> 24) & 0xff]!) >>> 0;
  for (let i = crcAt + 4; i < to; i++) crc = ((crc << 8) ^ OGG_CRC[((crc >>> 24) & 0xff) ^ b[i]!]!) >>> 0;
  return crc;
}

interface OggStream {
  packetIndex: number;
  pending: Buffer[];
  headerCount: number;
  eos: boolean;
}

/** How many header packets precede the audio, from the first packet of a logical stream. */
function oggHeaderCount(first: Buffer): number {
  if (first.toString('latin1', 1, 7) === 'vorbis') return 3;
  if (first.toString('latin1', 0, 8) === 'OpusHead') return 2;
  if (first.length >= 9 && first[0] === 0x7f && first.toString('latin1', 1, 5) === 'FLAC') return 1 + first.readUInt16BE(7);
  return 2; // Speex and others: header + comment.
}

function ogg(b: Buffer, path: string): AudioPayload {
  const h = createHash('sha256');
  const streams = new Map<number, OggStream>();
  let pos = 0;
  let pages = 0;
  while (pos < b.length) {
    if (b.toString('latin1', pos, pos + 4) !== 'OggS') {
      if (pages === 0) throw corrupt(path, 'no Ogg page at the start');
      throw corrupt(path, `unexpected data at byte ${pos}`);
    }
    if (pos + 27 > b.length) throw truncated(path, 'the last Ogg page header is cut');
    const flags = b[pos + 5]!;
    const granule = b.subarray(pos + 6, pos + 14);
    const serial = b.readUInt32LE(pos + 14);
    const segments = b[pos + 26]!;
    if (pos + 27 + segments > b.length) throw truncated(path, 'the last Ogg page header is cut');
    let bodyLength = 0;
    for (let i = 0; i < segments; i++) bodyLength += b[pos + 27 + i]!;
    const pageEnd = pos + 27 + segments + bodyLength;
    if (pageEnd > b.length) throw truncated(path, 'the last Ogg page is cut');
    if (oggCrc(b, pos, pageEnd, pos + 22) !== b.readUInt32LE(pos + 22)) throw corrupt(path, `Ogg page ${pages} fails its CRC`);
    let stream = streams.get(serial);
    if (!stream) {
      stream = { packetIndex: 0, pending: [], headerCount: Number.POSITIVE_INFINITY, eos: false };
      streams.set(serial, stream);
    }
    if ((flags & 1) === 0 && stream.pending.length > 0) throw corrupt(path, 'an Ogg packet is never finished');
    const indexAtStart = stream.packetIndex;
    let body = pos + 27 + segments;
    let segStart = body;
    for (let i = 0; i < segments; i++) {
      const lace = b[pos + 27 + i]!;
      body += lace;
      if (lace < 255) {
        // Most packets lie within one page: hash them in place rather than copying them out.
        const tail = b.subarray(segStart, body);
        const packet = stream.pending.length === 0 ? tail : Buffer.concat([...stream.pending, tail]);
        stream.pending = [];
        if (stream.packetIndex === 0) stream.headerCount = oggHeaderCount(packet);
        // The comment header (packet 1) is what a tag write replaces.
        if (stream.packetIndex !== 1) {
          h.update(`${serial}:${stream.packetIndex}:${packet.length}:`);
          h.update(packet);
        }
        stream.packetIndex++;
        segStart = body;
      }
    }
    if (segStart < body) stream.pending.push(b.subarray(segStart, body));
    if (indexAtStart >= stream.headerCount) {
      h.update(`${serial}@`);
      h.update(granule);
    }
    if (flags & 4) stream.eos = true;
    pages++;
    pos = pageEnd;
  }
  for (const [serial, stream] of streams) {
    if (!stream.eos || stream.pending.length > 0) throw truncated(path, `Ogg stream ${serial} has no end-of-stream page`);
  }
  // Packets are many and small: one digest of them is cheaper to keep than thousands of views.
  return { method: 'ogg-packets', parts: [h.digest()] };
}

// ---------------------------------------------------------------- MP4

interface Box {
  type: string;
  start: number;
  headerSize: number;
  end: number;
}

function boxes(b: Buffer, from: number, to: number, path: string): Box[] {
  const out: Box[] = [];
  let pos = from;
  while (pos + 8 <= to) {
    let size = b.readUInt32BE(pos);
    const type = b.toString('latin1', pos + 4, pos + 8);
    let headerSize = 8;
    if (size === 1) {
      if (pos + 16 > to) throw truncated(path, `MP4 box ${type} header is cut`);
      size = Number(b.readBigUInt64BE(pos + 8));
      headerSize = 16;
    } else if (size === 0) {
      size = to - pos;
    }
    if (size < headerSize) throw corrupt(path, `MP4 box ${type} has an impossible size`);
    if (pos + size > to) throw truncated(path, `MP4 box ${type} runs past the end`);
    out.push({ type, start: pos, headerSize, end: pos + size });
    pos += size;
  }
  if (pos !== to && to - pos >= 8) throw corrupt(path, 'trailing bytes after the last MP4 box');
  return out;
}

function mp4(b: Buffer, path: string): AudioPayload | null {
  const top = boxes(b, 0, b.length, path);
  if (top.some((x) => x.type === 'moof')) return null; // fragmented: leave it to ffmpeg
  const mdats = top.filter((x) => x.type === 'mdat');
  const moov = top.find((x) => x.type === 'moov');
  if (!moov) throw corrupt(path, 'no moov box');
  if (mdats.length === 0) throw corrupt(path, 'no mdat box');
  const h = createHash('sha256');
  const child = (parent: Box, type: string) => boxes(b, parent.start + parent.headerSize, parent.end, path).filter((x) => x.type === type);
  for (const trak of child(moov, 'trak')) {
    for (const mdia of child(trak, 'mdia'))
      for (const minf of child(mdia, 'minf'))
        for (const stbl of child(minf, 'stbl')) hashSampleTable(b, stbl, mdats, h, path);
  }
  return { method: 'mp4-samples', parts: [...mdats.map((m) => b.subarray(m.start + m.headerSize, m.end)), h.digest()] };
}

function hashSampleTable(b: Buffer, stbl: Box, mdats: Box[], h: Hash, path: string): void {
  for (const box of boxes(b, stbl.start + stbl.headerSize, stbl.end, path)) {
    if (box.type !== 'stco' && box.type !== 'co64') {
      h.update(b.subarray(box.start, box.end));
      continue;
    }
    const wide = box.type === 'co64';
    const count = b.readUInt32BE(box.start + box.headerSize + 4);
    let p = box.start + box.headerSize + 8;
    if (p + count * (wide ? 8 : 4) > box.end) throw corrupt(path, `${box.type} table is cut`);
    for (let i = 0; i < count; i++, p += wide ? 8 : 4) {
      const offset = wide ? Number(b.readBigUInt64BE(p)) : b.readUInt32BE(p);
      const index = mdats.findIndex((m) => offset >= m.start + m.headerSize && offset <= m.end);
      if (index < 0) throw corrupt(path, 'a chunk offset points outside the media data');
      h.update(`${index}:${offset - (mdats[index]!.start + mdats[index]!.headerSize)};`);
    }
  }
}

// ---------------------------------------------------------------- RIFF WAV / AIFF

function chunked(b: Buffer, path: string, bigEndian: boolean, wanted: readonly string[]): Map<string, Buffer> {
  const found = new Map<string, Buffer>();
  let pos = 12;
  while (pos + 8 <= b.length) {
    const id = b.toString('latin1', pos, pos + 4);
    const size = bigEndian ? b.readUInt32BE(pos + 4) : b.readUInt32LE(pos + 4);
    if (pos + 8 + size > b.length) throw truncated(path, `the ${id.trim()} chunk runs past the end`);
    if (wanted.includes(id) && !found.has(id)) found.set(id, b.subarray(pos + 8, pos + 8 + size));
    pos += 8 + size + (size & 1);
  }
  return found;
}

function riff(b: Buffer, path: string): AudioPayload | null {
  const kind = b.toString('latin1', 0, 4);
  if (kind === 'RF64' || kind === 'BW64') return null; // 64-bit sizes live in ds64: leave it to ffmpeg
  if (kind !== 'RIFF' || b.toString('latin1', 8, 12) !== 'WAVE') throw corrupt(path, 'not a RIFF WAVE file');
  const chunks = chunked(b, path, false, ['fmt ', 'data']);
  const fmt = chunks.get('fmt ');
  const data = chunks.get('data');
  if (!fmt || !data) throw corrupt(path, 'missing fmt or data chunk');
  return { method: 'riff-data', parts: [fmt, data] };
}

function aiff(b: Buffer, path: string): AudioPayload {
  const form = b.toString('latin1', 8, 12);
  if (b.toString('latin1', 0, 4) !== 'FORM' || (form !== 'AIFF' && form !== 'AIFC')) throw corrupt(path, 'not an AIFF file');
  const chunks = chunked(b, path, true, ['COMM', 'SSND']);
  const comm = chunks.get('COMM');
  const ssnd = chunks.get('SSND');
  if (!comm || !ssnd) throw corrupt(path, 'missing COMM or SSND chunk');
  return { method: 'aiff-data', parts: [comm, ssnd] };
}

// ---------------------------------------------------------------- fallback

/** ffmpeg hashes each audio packet without decoding: independent of how the container lays them out. */
export function ffmpegStreamHash(path: string, timeoutMs = 120_000): Promise<AudioPayload> {
  return new Promise((resolve, reject) => {
    const args = ['-v', 'error', '-nostdin', '-protocol_whitelist', 'file,pipe', '-i', `file:${path}`, '-map', '0:a', '-c', 'copy', '-f', 'streamhash', '-hash', 'sha256', 'pipe:1'];
    const child = spawn(toolPath('ffmpeg'), args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d.slice(0, 2000)));
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(unavailable(TAG_ERRORS.ENGINE_UNAVAILABLE, 'ffmpeg is needed to verify the audio of this format but could not be started.', e));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const lines = out.split('\n').filter((l) => l.includes('SHA256='));
      if (code !== 0 || lines.length === 0) {
        reject(invalid(TAG_ERRORS.UNREADABLE, `ffmpeg could not read the audio of ${path}: ${err.trim() || `exit code ${code}`}`, { path }));
        return;
      }
      resolve({ method: 'ffmpeg-streamhash', parts: [Buffer.from(lines.join('\n'))] });
    });
  });
}
