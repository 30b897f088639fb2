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

/**
 * The comment header (packet 1 of the first logical stream), read once per parse: its size, and its
 * bytes when it is complete and within `MAX_TAG_BYTES` (music-metadata assembles that packet whole, covers
 * and all, and makes an object of each comment — the reader checks both before it parses).
 */
export interface OggComment {
  bytes: number;
  packet: Uint8Array | null;
}

export async function oggComment(read: ReadAt): Promise<OggComment> {
  const { pieces, bytes, complete } = await commentPieces(read);
  if (!complete || bytes > MAX_TAG_BYTES) return { bytes, packet: null };
  const parts: Uint8Array[] = [];
  for (const piece of pieces) {
    const part = await read(piece.position, piece.length);
    if (part.length < piece.length) return { bytes, packet: null };
    parts.push(part);
  }
  return { bytes, packet: parts.length === 1 ? parts[0]! : Buffer.concat(parts) };
}

/** Where the comments start in the packet and how many it says it holds; `null` when it is no comment header. */
function commentList(packet: Uint8Array): { b: Buffer; pos: number; count: number } | null {
  const b = Buffer.from(packet.buffer, packet.byteOffset, packet.byteLength);
  let pos = b.length >= 8 && ascii(b, 0, 8) === 'OpusTags' ? 8 : b.length >= 7 && ascii(b, 1, 7) === 'vorbis' && b[0] === 3 ? 7 : -1;
  if (pos < 0 || pos + 8 > b.length) return null;
  pos += 4 + b.readUInt32LE(pos);
  if (pos + 4 > b.length) return null;
  return { b, pos: pos + 4, count: b.readUInt32LE(pos) };
}

/** How many comments the header says it holds. */
export const oggCommentCount = (packet: Uint8Array): number => commentList(packet)?.count ?? 0;

/** The pictures in the comment header; `[]` when there are none or the header cannot be read. */
export function oggPictures(packet: Uint8Array): IPicture[] {
  const list = commentList(packet);
  if (!list) return [];
  const { b, count } = list;
  let pos = list.pos;
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
 * Where the bytes of packet 1 (the comment header) of the first logical stream lie, page by page, from
 * page headers alone; stops once they pass `MAX_TAG_BYTES`. `complete` when the packet's end was seen.
 */
async function commentPieces(read: ReadAt): Promise<{ pieces: { position: number; length: number }[]; bytes: number; complete: boolean }> {
  const pieces: { position: number; length: number }[] = [];
  let bytes = 0;
  let pos = 0;
  let serial: number | null = null;
  let index = 0;
  for (let pages = 0; pages < 10_000 && bytes <= MAX_TAG_BYTES; pages++) {
    const header = await read(pos, 27 + 255);
    if (header.length < 27 || ascii(header, 0, 4) !== 'OggS') break;
    const segments = header[26]!;
    if (header.length < 27 + segments) break;
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
          pieces.push({ position: bodyStart + from, length: offset - from });
          return { pieces, bytes: bytes + offset - from, complete: true };
        }
        index++;
      }
    }
    if (index === 1 && from >= 0) {
      pieces.push({ position: bodyStart + from, length: offset - from });
      bytes += offset - from;
    }
  }
  return { pieces, bytes, complete: false };
}
