/**
 * Covers of Ogg Vorbis and Opus files, read from the comment header's METADATA_BLOCK_PICTURE fields.
 * music-metadata decodes their base64 with a per-character callback, which made cover parsing the
 * biggest CPU cost of scanning Ogg files; the reader parses those files with `skipCovers` and takes the
 * pictures from here (Node's native base64 decoder).
 */
import type { IPicture } from 'music-metadata';
import { MAX_TAG_BYTES } from './bounds.ts';

/** Reads `length` bytes at `position` (fewer at the end of the file). */
export type ReadAt = (position: number, length: number) => Promise<Uint8Array>;


const PICTURE_TYPES: Record<number, string> = { 0: 'Other', 3: 'Cover (front)', 4: 'Cover (back)' };

const ascii = (b: Uint8Array, from: number, to: number) => Buffer.from(b.buffer, b.byteOffset + from, to - from).toString('latin1');

/** True when the file starts with an Ogg page holding a Vorbis or Opus identification header. */
export async function isOggVorbisOrOpus(read: ReadAt): Promise<boolean> {
  const head = await read(0, 64 + 255);
  if (head.length < 28 || ascii(head, 0, 4) !== 'OggS') return false;
  const body = 27 + head[26]!;
  if (head.length < body + 8) return false;
  return ascii(head, body, body + 8) === 'OpusHead' || ascii(head, body + 1, body + 7) === 'vorbis';
}

/** The pictures in the comment header; `[]` when there are none or the header cannot be read. */
export async function oggPictures(read: ReadAt): Promise<IPicture[]> {
  const packet = await commentPacket(read);
  if (!packet) return [];
  const b = Buffer.from(packet.buffer, packet.byteOffset, packet.byteLength);
  let pos = ascii(b, 0, 8) === 'OpusTags' ? 8 : ascii(b, 1, 7) === 'vorbis' && b[0] === 3 ? 7 : -1;
  if (pos < 0 || pos + 8 > b.length) return [];
  pos += 4 + b.readUInt32LE(pos);
  if (pos + 4 > b.length) return [];
  const count = b.readUInt32LE(pos);
  pos += 4;
  const pictures: IPicture[] = [];
  for (let i = 0; i < count && pos + 4 <= b.length; i++) {
    const len = b.readUInt32LE(pos);
    pos += 4;
    if (pos + len > b.length) break;
    const eq = b.indexOf(0x3d, pos);
    if (eq > pos && eq < pos + len && ascii(b, pos, eq).toUpperCase() === 'METADATA_BLOCK_PICTURE') {
      const picture = flacPicture(Buffer.from(ascii(b, eq + 1, pos + len), 'base64'));
      if (picture) pictures.push(picture);
    }
    pos += len;
  }
  return pictures;
}

function flacPicture(b: Buffer): IPicture | null {
  try {
    let pos = 0;
    const type = b.readUInt32BE(pos);
    const mimeLen = b.readUInt32BE(pos + 4);
    const format = b.toString('latin1', pos + 8, pos + 8 + mimeLen);
    pos += 8 + mimeLen;
    const descLen = b.readUInt32BE(pos);
    const description = b.toString('utf8', pos + 4, pos + 4 + descLen);
    pos += 4 + descLen + 16;
    const dataLen = b.readUInt32BE(pos);
    pos += 4;
    if (pos + dataLen > b.length) return null;
    return { format, type: PICTURE_TYPES[type] ?? 'Other', description, data: new Uint8Array(b.buffer, b.byteOffset + pos, dataLen) };
  } catch {
    return null;
  }
}

/**
 * Where the bytes of packet 1 (the comment header) of the first logical stream lie, page by page; the
 * last piece has `end` set. Only page headers are read.
 */
async function* commentPieces(read: ReadAt): AsyncGenerator<{ position: number; length: number; end: boolean }> {
  let pos = 0;
  let serial: number | null = null;
  let index = 0;
  for (let pages = 0; pages < 10_000; pages++) {
    const header = await read(pos, 27 + 255);
    if (header.length < 27 || ascii(header, 0, 4) !== 'OggS') return;
    const segments = header[26]!;
    if (header.length < 27 + segments) return;
    const pageSerial = Buffer.from(header.buffer, header.byteOffset, header.byteLength).readUInt32LE(14);
    let bodyLength = 0;
    for (let i = 0; i < segments; i++) bodyLength += header[27 + i]!;
    const bodyStart = pos + 27 + segments;
    pos = bodyStart + bodyLength;
    serial ??= pageSerial;
    if (pageSerial !== serial) continue;
    let offset = 0;
    let from = -1;
    for (let i = 0; i < segments; i++) {
      const lace = header[27 + i]!;
      if (index === 1 && from < 0) from = offset;
      offset += lace;
      if (lace < 255) {
        if (index === 1) {
          yield { position: bodyStart + from, length: offset - from, end: true };
          return;
        }
        index++;
      }
    }
    if (index === 1 && from >= 0) yield { position: bodyStart + from, length: offset - from, end: false };
  }
}

/**
 * The size of the comment header, from page headers, stopping once it is beyond `MAX_TAG_BYTES`, and
 * how many comments it says it holds: music-metadata assembles that packet in memory whole (covers and
 * all) and makes an object of each comment.
 */
export async function oggCommentSize(read: ReadAt): Promise<{ bytes: number; comments: number }> {
  const pieces: { position: number; length: number }[] = [];
  let bytes = 0;
  for await (const piece of commentPieces(read)) {
    pieces.push(piece);
    bytes += piece.length;
    if (bytes > MAX_TAG_BYTES) break;
  }
  /** `length` bytes of the packet from `offset`, across its pages. */
  const at = async (offset: number, length: number): Promise<Uint8Array> => {
    const out = new Uint8Array(length);
    let n = 0;
    let start = 0; // the packet offset where piece `p` begins
    for (const p of pieces) {
      const from = offset + n - start;
      if (n < length && from >= 0 && from < p.length) {
        const bytes = await read(p.position + from, Math.min(length - n, p.length - from));
        out.set(bytes, n);
        n += bytes.length;
      }
      start += p.length;
    }
    return out.subarray(0, n);
  };
  const magic = await at(0, 8);
  const start = magic.length === 8 && ascii(magic, 0, 8) === 'OpusTags' ? 8 : 7;
  const vendor = await at(start, 4);
  if (vendor.length < 4) return { bytes, comments: 0 };
  const count = await at(start + 4 + Buffer.from(vendor).readUInt32LE(0), 4);
  return { bytes, comments: count.length < 4 ? 0 : Buffer.from(count).readUInt32LE(0) };
}

/** Packet 1 of the first logical stream, assembled from its pages. */
async function commentPacket(read: ReadAt): Promise<Uint8Array | null> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const piece of commentPieces(read)) {
    size += piece.length;
    if (size > MAX_TAG_BYTES) return null;
    const bytes = await read(piece.position, piece.length);
    if (bytes.length < piece.length) return null;
    parts.push(bytes);
    if (piece.end) return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  }
  return null;
}
