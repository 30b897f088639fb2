/**
 * A file's leading ID3v2 tag (MP3, AAC, and anything else ID3-prefixed) measured against the bounds of
 * bounds.ts from its header and frame headers alone, before music-metadata reads the tag in one piece.
 * When frames are beyond the bounds, the result says which (`overflow`) and how to present the file
 * without them (`segments`: a new tag header, then the kept frames and the rest of the file as byte
 * ranges), so a read materialises only what is within bounds and never touches the rest.
 */
import { MAX_FRAMES, MAX_FRAME_BYTES, MAX_PICTURE_BYTES, MAX_TAG_BYTES, type TagOverflow } from './bounds.ts';

/** Fills `target` from `position`; returns the bytes read (fewer only at the end of the file). */
export type RandomRead = (target: Uint8Array, position: number) => Promise<number>;

/** A piece of the file as the parser should see it: bytes in memory, or a range of the real file. */
export type Segment = { bytes: Uint8Array } | { position: number; length: number };

export interface Id3v2Measure {
  overflow: TagOverflow;
  /** How to present the file without the frames beyond bounds; `null` when the tag cannot be cut (see `cuttable`). */
  segments: Segment[] | null;
  /** The tag's size, header included. */
  tagBytes: number;
}

const HEADER = 10;
/** Covers: APIC (ID3v2.3/2.4) and PIC (ID3v2.2). */
const PICTURE_FRAMES = new Set(['APIC', 'PIC']);
const WINDOW = 64 * 1024;

/** The size in an ID3v2 tag header, read exactly as music-metadata reads it (ID3v2Token.UINT32SYNCSAFE). */
const syncsafe = (b: Uint8Array, at: number) => ((b[at + 3]! & 0x7f) | (b[at + 2]! << 7) | (b[at + 1]! << 14) | (b[at]! << 21)) >>> 0;
const uint24 = (b: Uint8Array, at: number) => (b[at]! << 16) | (b[at + 1]! << 8) | b[at + 2]!;
const uint32 = (b: Uint8Array, at: number) => ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;

/**
 * The frames of the file's leading ID3v2 tag that are beyond the bounds, or `null` when there are none
 * (or no such tag). `head` holds at least the file's first 10 bytes. Only tags big enough to hold
 * something beyond the bounds are walked; for the others the header is all this reads.
 */
export async function measureId3v2(head: Uint8Array, read: RandomRead, fileSize: number): Promise<Id3v2Measure | null> {
  if (head.length < HEADER || head[0] !== 0x49 || head[1] !== 0x44 || head[2] !== 0x33) return null;
  const major = head[3]!;
  if (major < 2 || major > 4) return null;
  const flags = head[5]!;
  const size = Math.min(syncsafe(head, 6), fileSize - HEADER);
  const frameHeader = major === 2 ? 6 : 10;
  // Smaller tags cannot hold too many frames, a frame too big, or be too big.
  if (size < Math.min(MAX_FRAMES * frameHeader, MAX_FRAME_BYTES, MAX_TAG_BYTES)) return null;
  const tagBytes = HEADER + size;
  // Whole-tag unsynchronisation before ID3v2.4 puts bytes inside frame headers; extended headers and
  // footers change where frames start and end. Such tags are rare: they are read whole or not at all.
  const cuttable = !((major < 4 && flags & 0x80) || (major >= 3 && flags & 0x40) || (major === 4 && flags & 0x10));
  if (!cuttable) {
    return size > MAX_TAG_BYTES - HEADER ? { overflow: { frames: 1, bytes: tagBytes, largest: { id: 'ID3v2', bytes: tagBytes } }, segments: null, tagBytes } : null;
  }

  const window = windowed(read);
  const kept: { position: number; length: number }[] = [];
  let keptBytes = 0;
  let keptFrames = 0;
  const overflow: TagOverflow = { frames: 0, bytes: 0, largest: { id: '', bytes: 0 } };
  const leaveOut = (id: string, bytes: number) => {
    overflow.frames++;
    overflow.bytes += bytes;
    if (bytes > overflow.largest.bytes) overflow.largest = { id, bytes };
  };
  let pos = HEADER;
  while (pos + frameHeader <= tagBytes) {
    const h = await window(pos, frameHeader);
    if (h.length < frameHeader || h[0] === 0) break; // the end of the file, or padding
    const id = String.fromCharCode(...h.subarray(0, major === 2 ? 3 : 4));
    const length = major === 2 ? uint24(h, 3) : major === 3 ? uint32(h, 4) : syncsafe(h, 4);
    // music-metadata cuts a frame that claims more than the tag holds at the tag's end.
    const end = Math.min(pos + frameHeader + length, tagBytes);
    const bytes = end - pos;
    const limit = PICTURE_FRAMES.has(id) ? MAX_PICTURE_BYTES : MAX_FRAME_BYTES;
    if (length > limit || keptFrames >= MAX_FRAMES || HEADER + keptBytes + bytes > MAX_TAG_BYTES) {
      leaveOut(id, bytes);
    } else {
      const last = kept.at(-1);
      if (last && last.position + last.length === pos) last.length += bytes;
      else kept.push({ position: pos, length: bytes });
      keptBytes += bytes;
      keptFrames++;
    }
    pos = end;
  }
  // Padding (or whatever follows the last frame) is dropped too; beyond the tag bound it counts as left out.
  if (tagBytes - pos > 0 && HEADER + keptBytes + (tagBytes - pos) > MAX_TAG_BYTES) leaveOut('padding', tagBytes - pos);
  if (overflow.frames === 0) return null;

  const header = new Uint8Array(HEADER);
  header.set(head.subarray(0, 6));
  header.set([(keptBytes >>> 21) & 0x7f, (keptBytes >>> 14) & 0x7f, (keptBytes >>> 7) & 0x7f, keptBytes & 0x7f], 6);
  const segments: Segment[] = [{ bytes: header }, ...kept];
  if (fileSize > tagBytes) segments.push({ position: tagBytes, length: fileSize - tagBytes });
  return { overflow, segments, tagBytes };
}

/** Reads through a 64 KiB window: the headers of small frames are close together, big frames are skipped. */
function windowed(read: RandomRead): (position: number, length: number) => Promise<Uint8Array> {
  const buffer = new Uint8Array(WINDOW);
  let start = 0;
  let filled = 0;
  return async (position, length) => {
    if (position < start || position + length > start + filled) {
      start = position;
      filled = await read(buffer, position);
    }
    const from = position - start;
    return buffer.subarray(from, Math.min(from + length, filled));
  };
}
