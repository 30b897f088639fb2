/**
 * How big a tag may be, in one place. A tag is a few kilobytes of text and at most one or two covers;
 * a file can claim anything (one 32 MB MP3 with a 30 MB TXXX frame and 50,000 TIT2 frames took the
 * server from 363 MB to 1,043 MB for good: music-metadata decoded all of it and TagLib's heap, which
 * never shrinks, held it all again). Reading leaves out what is beyond these bounds and says so
 * (`TagOverflow`); writing refuses edits beyond them and files whose tag is beyond them
 * (`TAGSONIC_ERR_TAGS_TAG_TOO_LARGE`), before TagLib loads anything.
 *
 * The bounds are chosen so that everything Tagsonic accepts in an edit reads back in full: a write
 * never produces a tag its own reader would cut.
 */
import type { TagOverflow } from './model.ts';
import { TAG_ERRORS, unsupported } from './errors.ts';

export type { TagOverflow };

const MiB = 1024 * 1024;

/** Longest text of one field in an edit, in characters (a long lyrics sheet is ~10,000). */
export const MAX_FIELD_CHARS = 1024 * 1024;

/**
 * Most text in one edit, in characters, over all its fields and names: in the widest encoding (4 bytes
 * per character) it fits in `MAX_TAG_BYTES` beside the largest cover.
 */
export const MAX_EDIT_CHARS = 2 * MAX_FIELD_CHARS;

/** Most names in one edit's `artists`, `albumartists` or `genres` list. */
export const MAX_NAMES = 1000;

/**
 * Largest cover, in bytes: a FLAC picture block has a 24-bit length, so nothing bigger fits every format
 * (and a cover we read can always be written back, which undo relies on). The spec's 5 MB / 20 megapixel
 * limits are for uploaded covers and are checked where uploads arrive (gateway/src/routes/images.ts);
 * the engine never decodes a picture, so its pixel count costs no memory here.
 */
export const MAX_PICTURE_BYTES = 16 * MiB - 64 * 1024;

/**
 * Largest single frame (field, atom, comment) that is not a picture: a field of `MAX_FIELD_CHARS` in
 * the widest encoding a tag uses (4 bytes per character in UTF-16 or UTF-8), with room for its header
 * and description.
 */
export const MAX_FRAME_BYTES = 4 * MAX_FIELD_CHARS + 64 * 1024;

/**
 * Most frames in one tag — or values: a text frame with several values counts each, as music-metadata
 * makes an object of each. Real tags hold tens; podcasts with chapter frames a few hundred. TagLib
 * keeps an object per frame too.
 */
export const MAX_FRAMES = 10_000;

/**
 * Most tag items one parse reads as separate pieces (MP4 data atoms, APE and RIFF INFO items, FLAC
 * blocks, Ogg pages…): room for `MAX_FRAMES` items and their names, and then some. A file can hold
 * millions of tiny ones within the byte bounds, each an object in music-metadata.
 */
export const MAX_TAG_ITEMS = 5 * MAX_FRAMES;

/**
 * Largest tag read as a whole (an ID3v2 tag, a FLAC or Ogg Vorbis comment block, an MP4 or APE item,
 * a WAV/AIFF `id3 ` chunk): the largest cover plus the largest text frame and the rest of a tag. No
 * parse reads more tag bytes than this at once (file-tokenizer.ts), whatever the format.
 */
export const MAX_TAG_BYTES = 24 * MiB;

/**
 * Most one parse reads whole: all its tags and tag items together (an MP4 file may hold any number of
 * covers of up to 16 MiB each, a WAV any number of `id3 ` chunks), and any other single structure
 * (MP4 sample tables, 4 bytes per AAC frame, are ~25 MB for a 40-hour audiobook). Bounds what one parse
 * can allocate, whatever a file claims (file-tokenizer.ts).
 */
export const MAX_READ_BYTES = 64 * MiB;

/** `overflow` with one more item left out (a new record when there was none). */
export function leaveOut(overflow: TagOverflow | null, id: string, bytes: number): TagOverflow {
  const o = overflow ?? { frames: 0, bytes: 0, largest: { id, bytes: 0 } };
  o.frames++;
  o.bytes += bytes;
  if (bytes > o.largest.bytes || o.frames === 1) o.largest = { id, bytes };
  return o;
}

const size = (bytes: number) => (bytes >= MiB ? `${(bytes / MiB).toFixed(1)} MiB` : `${Math.ceil(bytes / 1024)} KiB`);

/** Why a tag is beyond the bounds, in words for a person. */
export function describeOverflow(overflow: TagOverflow): string {
  const what = overflow.frames === 1 ? `a ${size(overflow.bytes)} ${overflow.largest.id} frame` : `${overflow.frames.toLocaleString('en')} frames (${size(overflow.bytes)}, the largest a ${size(overflow.largest.bytes)} ${overflow.largest.id})`;
  return `its tag holds ${what} beyond Tagsonic's bounds (covers up to ${size(MAX_PICTURE_BYTES)}, other frames up to ${size(MAX_FRAME_BYTES)}, ${MAX_FRAMES.toLocaleString('en')} frames and ${size(MAX_TAG_BYTES)} per tag)`;
}

/** A file whose tag is beyond the bounds cannot be rewritten: TagLib would load all of it. */
export function tagTooLarge(path: string, overflow: TagOverflow) {
  return unsupported(
    TAG_ERRORS.TAG_TOO_LARGE,
    `Tagsonic does not rewrite the tags of ${path}: ${describeOverflow(overflow)}. Remove those frames with another tag editor first; reading the file leaves them out.`,
    { path, overflow },
  );
}

/** A file whose tag is beyond the bounds where it cannot be cut (see tag-cuts.ts) is not read. */
export function uncuttableTag(path: string, overflow: TagOverflow) {
  return unsupported(
    TAG_ERRORS.TAG_TOO_LARGE,
    `${path} could not be read: ${describeOverflow(overflow)}, where Tagsonic cannot leave them out; the file is probably malformed.`,
    { path, overflow },
  );
}

/** A tag of more items than `MAX_TAG_ITEMS` (or comments than `MAX_FRAMES`): the file is not read. */
export function tooManyItems(path: string, items: number, limit: number) {
  return unsupported(
    TAG_ERRORS.TAG_TOO_LARGE,
    `${path} could not be read: its tags hold ${items.toLocaleString('en')} items or more, more than Tagsonic reads (${limit.toLocaleString('en')}); the file is probably malformed.`,
    { path, items, limit },
  );
}

/**
 * A file that claims more than any real one holds — a tag (or tag item) over `MAX_TAG_BYTES`, tags over
 * `MAX_READ_BYTES` in all, or another block over `MAX_READ_BYTES` — is not read.
 */
export function readTooLarge(path: string, bytes: number, what: 'tag' | 'tags' | 'block') {
  const limit = what === 'tag' ? MAX_TAG_BYTES : MAX_READ_BYTES;
  const holds = what === 'tag' ? 'a tag' : what === 'tags' ? 'tags' : 'a block';
  const all = what === 'tags' ? ' in all' : '';
  return unsupported(
    TAG_ERRORS.TAG_TOO_LARGE,
    `${path} could not be read: it holds ${holds} of ${size(bytes)}${all}, more than Tagsonic reads (${size(limit)}); the file is probably malformed.`,
    { path, bytes, limit },
  );
}
