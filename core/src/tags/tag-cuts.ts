/**
 * A file's tags — its leading ID3v2 tags (MP3, AAC, anything ID3-prefixed), FLAC's metadata blocks, the
 * ID3v2 tags in WAV and AIFF chunks — measured against the bounds of bounds.ts from their headers,
 * before music-metadata reads them. When parts are beyond the bounds, the result says which
 * (`overflow`) and how to present the file without them (`segments`: new headers in memory, then byte
 * ranges of the file), so a read materialises only what is within bounds and never touches the rest.
 */
import { MAX_FRAMES, MAX_FRAME_BYTES, MAX_PICTURE_BYTES, MAX_TAG_BYTES, leaveOut, type TagOverflow } from './bounds.ts';

/** Fills `target` from `position`; returns the bytes read (fewer only at the end of the file). */
export type RandomRead = (target: Uint8Array, position: number) => Promise<number>;

/** A piece of the file as the parser should see it: bytes in memory, or a range of the real file. */
export type Segment = { bytes: Uint8Array } | { position: number; length: number };

export interface TagCut {
  overflow: TagOverflow;
  /** How to present the file without what is beyond bounds; `null` when the tag cannot be cut (see `cuttable`). */
  segments: Segment[] | null;
}

const HEADER = 10;
/** Covers: APIC (ID3v2.3/2.4) and PIC (ID3v2.2). */
const PICTURE_FRAMES = new Set(['APIC', 'PIC']);
/** Frame headers are read through a small window: tags with a cover need two or three reads. */
const WINDOW = 4 * 1024;

/** The size in an ID3v2 tag header, read exactly as music-metadata reads it (ID3v2Token.UINT32SYNCSAFE). */
const syncsafe = (b: Uint8Array, at: number) => ((b[at + 3]! & 0x7f) | (b[at + 2]! << 7) | (b[at + 1]! << 14) | (b[at]! << 21)) >>> 0;
const uint24 = (b: Uint8Array, at: number) => (b[at]! << 16) | (b[at + 1]! << 8) | b[at + 2]!;
const uint32 = (b: Uint8Array, at: number) => ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;

/**
 * What of the file's tags is beyond the bounds, or `null` when nothing is. `head`: at least the file's
 * first 4 bytes; files that start with none of the signatures below cost nothing more.
 */
export async function measureTag(head: Uint8Array, read: RandomRead, fileSize: number): Promise<TagCut | null> {
  const signature = head.length >= 4 ? String.fromCharCode(head[0]!, head[1]!, head[2]!, head[3]!) : '';
  if (signature.startsWith('ID3')) return measureId3v2(windowed(read), fileSize);
  if (signature === 'fLaC') return measureFlac(windowed(read), fileSize);
  if (signature === 'RIFF' || signature === 'FORM') return measureChunkedId3v2(windowed(read), signature === 'RIFF', fileSize);
  return null;
}

/**
 * The leading ID3v2 tags (music-metadata reads each tag that follows the previous one): what is beyond
 * the bounds, and the file without it.
 */
async function measureId3v2(window: Window, fileSize: number): Promise<TagCut | null> {
  const segments: Segment[] = [];
  let overflow: TagOverflow | null = null;
  let cuttable = true;
  let pos = 0;
  for (let tag = await id3v2At(window, 0, fileSize, null); tag; tag = pos < fileSize ? await id3v2At(window, pos, fileSize, overflow) : null) {
    overflow = tag.overflow;
    cuttable &&= tag.segments !== null;
    if (tag.segments) segments.push(...tag.segments);
    pos = tag.end;
  }
  if (!overflow) return null;
  if (!cuttable) return { overflow, segments: null };
  if (fileSize > pos) segments.push({ position: pos, length: fileSize - pos });
  return { overflow, segments };
}

/**
 * The ID3v2 tags in WAV (`id3 `) and AIFF (`ID3 `) chunks. music-metadata reads each chunk whole and parses
 * it; a tag with something beyond the bounds cannot be cut there (the chunk and file sizes would change
 * too), so such a file is not read.
 */
async function measureChunkedId3v2(window: Window, riff: boolean, fileSize: number): Promise<TagCut | null> {
  let overflow: TagOverflow | null = null;
  let pos = 12;
  for (let chunks = 0; chunks < 10_000 && pos + 8 <= fileSize; chunks++) {
    const h = await window(pos, 8);
    if (h.length < 8) break;
    const id = String.fromCharCode(h[0]!, h[1]!, h[2]!, h[3]!);
    const size = riff ? (h[4]! | (h[5]! << 8) | (h[6]! << 16) | (h[7]! << 24)) >>> 0 : uint32(h, 4);
    if (id === 'id3 ' || id === 'ID3 ') overflow = (await id3v2At(window, pos + 8, Math.min(pos + 8 + size, fileSize), overflow))?.overflow ?? overflow;
    pos += 8 + size + (size % 2);
  }
  return overflow ? { overflow, segments: null } : null;
}

/** One ID3v2 tag: where it ends, what of it is beyond the bounds (added to `overflow`), and its segments. */
interface Id3v2Tag {
  end: number;
  overflow: TagOverflow | null;
  /** The tag as the parser should see it; `null` when it cannot be cut (see `cuttable`). */
  segments: Segment[] | null;
}

/**
 * The ID3v2 tag whose header is at `base`, or `null` when there is none; it ends at `limit` at the
 * latest. Only tags big enough to hold something beyond the bounds are walked; for the others the
 * header is all this reads.
 */
async function id3v2At(window: Window, base: number, limit: number, overflow: TagOverflow | null): Promise<Id3v2Tag | null> {
  const head = (await window(base, HEADER)).slice();
  if (head.length < HEADER || head[0] !== 0x49 || head[1] !== 0x44 || head[2] !== 0x33) return null;
  const major = head[3]!;
  if (major < 2 || major > 4) return null;
  const flags = head[5]!;
  const size = Math.max(0, Math.min(syncsafe(head, 6), limit - base - HEADER));
  const tagBytes = HEADER + size;
  const end = base + tagBytes;
  const whole: Segment[] = [{ position: base, length: tagBytes }];
  const frameHeader = major === 2 ? 6 : 10;
  // Smaller tags cannot hold too many frames or values, a frame too big, or be too big.
  if (size < Math.min(MAX_FRAMES * frameHeader, MAX_FRAME_BYTES, MAX_TAG_BYTES)) return { end, overflow, segments: whole };
  // Whole-tag unsynchronisation before ID3v2.4 puts bytes inside frame headers; extended headers and
  // footers change where frames start and end. Such tags are rare: they are read whole or not at all.
  const cuttable = !((major < 4 && flags & 0x80) || (major >= 3 && flags & 0x40) || (major === 4 && flags & 0x10));
  if (!cuttable) {
    return size > MAX_TAG_BYTES - HEADER ? { end, overflow: leaveOut(overflow, 'ID3v2', tagBytes), segments: null } : { end, overflow, segments: whole };
  }

  const kept: { position: number; length: number }[] = [];
  let keptBytes = 0;
  let keptFrames = 0;
  let cut = false;
  let pos = base + HEADER;
  while (pos + frameHeader <= end) {
    const h = await window(pos, frameHeader);
    if (h.length < frameHeader || h[0] === 0) break; // the end of the file, or padding
    const id = String.fromCharCode(...h.subarray(0, major === 2 ? 3 : 4));
    const length = major === 2 ? uint24(h, 3) : major === 3 ? uint32(h, 4) : syncsafe(h, 4);
    // music-metadata cuts a frame that claims more than the tag holds at the tag's end.
    const frameEnd = Math.min(pos + frameHeader + length, end);
    const bytes = frameEnd - pos;
    const maxBytes = PICTURE_FRAMES.has(id) ? MAX_PICTURE_BYTES : MAX_FRAME_BYTES;
    const within = length <= maxBytes && keptFrames < MAX_FRAMES && HEADER + keptBytes + bytes <= MAX_TAG_BYTES;
    // Flags that transform the body (compression, encryption, a data length indicator…): read as one value.
    const plain = major === 2 || h[9] === 0;
    const values = within && plain && id.startsWith('T') ? await textValues(window, pos + frameHeader, frameEnd - pos - frameHeader, major) : 1;
    if (!within || keptFrames + values > MAX_FRAMES) {
      overflow = leaveOut(overflow, id, bytes);
      cut = true;
    } else {
      const last = kept.at(-1);
      if (last && last.position + last.length === pos) last.length += bytes;
      else kept.push({ position: pos, length: bytes });
      keptBytes += bytes;
      keptFrames += values;
    }
    pos = frameEnd;
  }
  // Padding (or whatever follows the last frame) is dropped when cutting; beyond the tag bound it counts as left out.
  if (end - pos > 0 && HEADER + keptBytes + (end - pos) > MAX_TAG_BYTES) {
    overflow = leaveOut(overflow, 'padding', end - pos);
    cut = true;
  }
  if (!cut) return { end, overflow, segments: whole };

  const header = new Uint8Array(HEADER);
  header.set(head.subarray(0, 6));
  header.set([(keptBytes >>> 21) & 0x7f, (keptBytes >>> 14) & 0x7f, (keptBytes >>> 7) & 0x7f, keptBytes & 0x7f], 6);
  return { end, overflow, segments: [{ bytes: header }, ...kept] };
}

/**
 * How many values music-metadata makes of a text frame at least: it splits the text on NUL (and before
 * ID3v2.4, some frames on "/"), so 4 MiB of "a\0a\0…" would be two million values. Counts separators
 * without decoding: single zero bytes (or "/") in Latin-1 and UTF-8, aligned zero pairs in UTF-16.
 */
async function textValues(window: Window, body: number, length: number, major: number): Promise<number> {
  if (length < 2) return 1;
  const encoding = (await window(body, 1))[0];
  const wide = encoding === 1 || encoding === 2;
  const slash = major < 4;
  let count = 1;
  let even = 0;
  for (let off = 1; off < length; ) {
    const chunk = await window(body + off, Math.min(WINDOW, length - off));
    if (chunk.length === 0) break;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (!wide) {
        if (b === 0 || (slash && b === 0x2f)) count++;
      } else if ((off + i - 1) % 2 === 0) {
        even = b;
      } else if ((even === 0 && b === 0) || (slash && ((even === 0x2f && b === 0) || (even === 0 && b === 0x2f)))) {
        count++;
      }
    }
    off += chunk.length;
  }
  return count;
}

const FLAC_COMMENT = 4;
const FLAC_PICTURE = 6;

/**
 * FLAC's metadata blocks beyond the bounds: a picture block bigger than a cover may be, a comment block
 * with more than `MAX_FRAMES` comments (music-metadata makes an object of each), and comment and picture
 * blocks past `MAX_FRAMES` of them or past `MAX_TAG_BYTES` in all (each block may hold 16 MiB, a file any
 * number of them). Other blocks are kept: the parser skips them or reads a few bytes.
 */
async function measureFlac(window: Window, fileSize: number): Promise<TagCut | null> {
  const kept: { position: number; length: number; type: number }[] = [];
  let keptBytes = 0;
  let keptItems = 0;
  let overflow: TagOverflow | null = null;
  let pos = 4;
  for (;;) {
    const h = await window(pos, 4);
    if (h.length < 4) break; // cut short: the parser says so
    const last = (h[0]! & 0x80) !== 0;
    const type = h[0]! & 0x7f;
    const bytes = 4 + uint24(h, 1);
    let keep = true;
    if (type === FLAC_COMMENT || type === FLAC_PICTURE) {
      const name = type === FLAC_PICTURE ? 'PICTURE' : 'VORBIS_COMMENT';
      keep =
        keptItems < MAX_FRAMES &&
        keptBytes + bytes <= MAX_TAG_BYTES &&
        (type === FLAC_PICTURE ? bytes - 4 <= MAX_PICTURE_BYTES : (await flacComments(window, pos + 4)) <= MAX_FRAMES);
      if (keep) {
        keptBytes += bytes;
        keptItems++;
      } else overflow = leaveOut(overflow, name, bytes);
    }
    if (keep) kept.push({ position: pos, length: bytes, type });
    pos += bytes;
    if (last || pos >= fileSize) break;
  }
  if (!overflow) return null;
  const segments: Segment[] = [{ bytes: Uint8Array.of(0x66, 0x4c, 0x61, 0x43) }]; // fLaC
  kept.forEach((block, i) => {
    // The last block kept carries the "last metadata block" flag, whichever block had it before.
    const length = block.length - 4;
    const header = Uint8Array.of((i === kept.length - 1 ? 0x80 : 0) | block.type, (length >>> 16) & 0xff, (length >>> 8) & 0xff, length & 0xff);
    segments.push({ bytes: header });
    if (length > 0) segments.push({ position: block.position + 4, length });
  });
  if (fileSize > pos) segments.push({ position: pos, length: fileSize - pos });
  return { overflow, segments };
}

/** How many comments a FLAC comment block at `position` says it holds (after the vendor string). */
async function flacComments(window: Window, position: number): Promise<number> {
  const uint32le = (b: Uint8Array) => (b.length < 4 ? null : (b[0]! | (b[1]! << 8) | (b[2]! << 16) | (b[3]! << 24)) >>> 0);
  const vendor = uint32le(await window(position, 4));
  return vendor === null ? 0 : (uint32le(await window(position + 4 + vendor, 4)) ?? 0);
}

/** Reads through a window of `WINDOW` bytes: the headers of small frames are close together, big frames are skipped. */
type Window = (position: number, length: number) => Promise<Uint8Array>;

function windowed(read: RandomRead): Window {
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
