/**
 * Reading tags: music-metadata (fast, pure JS, no TagLib) turned into a TagSnapshot through the one
 * mapping table. The same code reads a file for the library scan and re-reads a freshly written temp
 * file to verify a write, which is why it must stay independent of the TagLib writer.
 *
 * Covers are always parsed (not `skipCovers`): the snapshot carries the cover's sha256 and size, which
 * the journal, undo conflict checks and change detection rely on. Only the bytes are dropped unless
 * `{ artwork: true }` is asked. The bench shows what that costs (bench/tags).
 */
import {
  CouldNotDetermineFileTypeError,
  UnsupportedFileTypeError,
  parseFromTokenizer,
  selectCover,
  type IAudioMetadata,
  type IOptions,
  type IPicture,
  type ITag,
} from 'music-metadata';
import { EDITABLE_FIELDS, emptyFields, type Artwork, type AudioFormat, type AudioInfo, type ReadOptions, type ReadResult, type TagField, type TagOverflow, type TagSnapshot } from './model.ts';
import { familyOfNativeType, formatOf, isLossless, profileOf, type TagFamily } from './formats.ts';
import { ALBUM_TYPE_JOINER, MULTI_VALUE_JOINER, NUMERIC_FIELDS, TAG_MAPPING, parseNumberPair, usesNumberPair, type MappedKey } from './mapping.ts';
import { artworkInfo } from './image-info.ts';
import { TAG_ERRORS, TagsonicError, fsError, invalid, unsupported } from './errors.ts';
import { BlockFileTokenizer, MemoryTokenizer, NotRegularFile, openAsync, openForReader, splicedAccess, type FileAccess, type SlabTokenizer } from './file-tokenizer.ts';
import { measureTag } from './tag-cuts.ts';
import { MAX_FRAMES, MAX_PICTURE_BYTES, MAX_TAG_BYTES, leaveOut, readTooLarge, tagTooLarge, tooManyItems, uncuttableTag } from './bounds.ts';
import { oggDuration } from './ogg-duration.ts';
import { isOggVorbisOrOpus, oggComment, oggCommentCount, oggPictures, type OggComment, type ReadAt } from './ogg-pictures.ts';

/**
 * How music-metadata parses: no full duration scan (formats that need one are completed here, see
 * `parseWith`), and — an option our patch adds (patches/music-metadata+12.1.0.patch) — only pictures
 * mapped to its "common" tags: we read the native tags, and mapping all of them to common ones was a
 * fifth of the parser's CPU.
 */
const PARSE_OPTIONS: IOptions & { commonPicturesOnly: boolean } = { duration: false, commonPicturesOnly: true };

/** Parsing gives up after this long: music-metadata has had hangs on hostile ASF/MP4 files (NOTES.md). */
export const DEFAULT_READ_TIMEOUT_MS = 20_000;

export interface ReadTagsOptions extends ReadOptions {
  timeoutMs?: number;
  /** Default 'async'; the reader pool's threads use 'reader-thread'. */
  opening?: FileOpening;
}

/** Everything one parse tells us; the safe-write path needs the family and the picture bytes too. */
export interface Inspection {
  format: AudioFormat;
  tags: TagSnapshot;
  audio: AudioInfo;
  /** The family the snapshot was read from (`null` when the file holds no tags at all). */
  family: TagFamily | null;
  picture: IPicture | null;
  /**
   * The snapshot came from an ID3v2.2/2.3 tag. music-metadata splits those tags' text frames on "/"
   * (the v2.3 multi-value separator) and trims the parts, so "A / B" reads as "A/B"; TagLib saves
   * v2.4, where the same bytes read as one value. See `diffSnapshots`' `lenient` option.
   */
  legacyId3: boolean;
  /** What was left out of the tag because it is beyond the bounds (bounds.ts); `null` when nothing was. */
  overflow: TagOverflow | null;
}

export async function readTags(path: string, options: ReadTagsOptions = {}): Promise<ReadResult> {
  const inspection = await inspectFile(path, options.timeoutMs, options.opening);
  return toReadResult(inspection, options.artwork === true);
}

export async function readArtwork(path: string, options: { timeoutMs?: number } = {}): Promise<Artwork | null> {
  const { picture } = await inspectFile(path, options.timeoutMs);
  return picture ? toArtwork(picture) : null;
}

export function toReadResult(inspection: Inspection, withArtwork: boolean): ReadResult {
  const result: ReadResult = { tags: inspection.tags, audio: inspection.audio };
  if (withArtwork && inspection.picture) result.artwork = toArtwork(inspection.picture);
  if (inspection.overflow) result.overflow = inspection.overflow;
  return result;
}

function toArtwork(picture: IPicture): Artwork {
  const info = artworkInfo(picture.data, picture.format);
  return { mime: info.mime, data: picture.data };
}

/**
 * How `inspectFile` opens the file: with promises only (any thread), or the reader-thread way
 * (file-tokenizer.ts: blocking open and stat, reads that block or overlap with how fast the disk answers).
 */
export type FileOpening = 'async' | 'reader-thread';

export async function inspectFile(path: string, timeoutMs = DEFAULT_READ_TIMEOUT_MS, opening: FileOpening = 'async'): Promise<Inspection> {
  let file: FileAccess;
  try {
    file = await (opening === 'reader-thread' ? openForReader(path) : openAsync(path));
  } catch (err) {
    if (err instanceof NotRegularFile) throw invalid(TAG_ERRORS.NOT_A_FILE, `${path} is not a regular file.`, { path });
    throw fsError(err, path);
  }
  if (file.size === 0) {
    await file.close();
    throw invalid(TAG_ERRORS.EMPTY_FILE, `${path} is empty (0 bytes): there is no audio to read.`, { path });
  }
  let tokenizer = new BlockFileTokenizer(file, path);
  try {
    return await withTimeout(
      (async () => {
        // The first bytes come from the block music-metadata reads next anyway.
        const head = new Uint8Array(10);
        const n = await tokenizer.peekBuffer(head, { position: 0, length: head.length, mayBeLess: true });
        const read = (target: Uint8Array, position: number) => tokenizer.peekBuffer(target, { position, length: target.length, mayBeLess: true });
        const cut = await measureTag(head.subarray(0, n), read, file.size);
        if (!cut) return parseWith(tokenizer, path, file.size, null);
        if (!cut.segments) throw uncuttableTag(path, cut.overflow);
        // The same file without what is beyond bounds: the parser never reads it.
        tokenizer.releaseBlocks();
        tokenizer = new BlockFileTokenizer(splicedAccess(file, cut.segments), path);
        return parseWith(tokenizer, path, file.size, cut.overflow);
      })(),
      timeoutMs,
      path,
    );
  } finally {
    await tokenizer.close();
  }
}

/**
 * Ogg covers come from `oggPictures` and, when music-metadata stopped before the last page, the length
 * from `oggDuration` (see there why); everything else from music-metadata.
 */
async function parseWith(tokenizer: SlabTokenizer, path: string, fileSize: number, overflow: TagOverflow | null): Promise<Inspection> {
  const size = tokenizer.fileInfo.size;
  const readAt: ReadAt = async (position, length) => {
    const wanted = Math.max(0, Math.min(length, size - position));
    const buffer = new Uint8Array(wanted);
    const got = await tokenizer.peekBuffer(buffer, { position, length: wanted, mayBeLess: true });
    return buffer.subarray(0, got);
  };
  const ogg = await isOggVorbisOrOpus(readAt);
  let comment: OggComment | null = null;
  if (ogg) {
    comment = await oggComment(readAt);
    if (comment.bytes > MAX_TAG_BYTES) throw readTooLarge(path, comment.bytes, 'tag');
    const count = comment.packet ? oggCommentCount(comment.packet) : 0;
    if (count > MAX_FRAMES) throw tooManyItems(path, count, MAX_FRAMES);
  }
  let meta = await parseFromTokenizer(tokenizer, { ...PARSE_OPTIONS, skipCovers: ogg });
  if (ogg && !(meta.format.duration! > 0)) {
    const duration = await oggDuration(readAt, size);
    if (duration !== null) {
      // Opus headers carry no bit rate: the average over the file.
      const bitrate = meta.format.bitrate! > 0 || duration === 0 ? meta.format.bitrate : (size * 8) / duration;
      meta = { ...meta, format: { ...meta.format, duration, bitrate } };
    }
  }
  // Raw AAC has no header with the length: estimated from the bit rate of its first frames, as for CBR MP3.
  if (!(meta.format.duration! > 0) && meta.format.bitrate! > 0 && (meta.format.container ?? '').toLowerCase().startsWith('adts')) {
    meta = { ...meta, format: { ...meta.format, duration: (size * 8) / meta.format.bitrate! } };
  }
  const pictures = comment ? (comment.packet ? oggPictures(comment.packet) : []) : undefined;
  return describe(meta, fileSize, path, pictures, overflow);
}

/** Same as `inspectFile` for bytes already in memory (the safe write parses what it is about to replace). */
export async function inspectBuffer(data: Uint8Array, path: string, timeoutMs = DEFAULT_READ_TIMEOUT_MS): Promise<Inspection> {
  if (data.byteLength === 0) throw invalid(TAG_ERRORS.EMPTY_FILE, `${path} is empty (0 bytes): there is no audio to read.`, { path });
  return withTimeout(
    (async () => {
      // The safe write parses what it replaces and what it wrote: a tag beyond bounds is refused, not cut.
      const cut = await measureTag(data, async (target, position) => copyAt(data, target, position), data.byteLength);
      if (cut) throw tagTooLarge(path, cut.overflow);
      const inspection = await parseWith(new MemoryTokenizer(data, path), path, data.byteLength, null);
      if (inspection.overflow) throw tagTooLarge(path, inspection.overflow);
      return inspection;
    })(),
    timeoutMs,
    path,
  );
}

function copyAt(data: Uint8Array, target: Uint8Array, position: number): number {
  const bytes = data.subarray(position, position + target.length);
  target.set(bytes);
  return bytes.length;
}

async function withTimeout<T>(work: Promise<T>, ms: number, path: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(invalid(TAG_ERRORS.READ_TIMEOUT, `Reading ${path} took longer than ${ms} ms; the file is probably malformed.`, { path })),
      ms,
    );
  });
  try {
    return await Promise.race([work, timeout]);
  } catch (err) {
    throw parseError(err, path);
  } finally {
    clearTimeout(timer);
  }
}

function parseError(err: unknown, path: string): unknown {
  if (err instanceof TagsonicError) return err;
  const mapped = fsError(err, path);
  if (mapped !== err) return mapped;
  if (err instanceof CouldNotDetermineFileTypeError || err instanceof UnsupportedFileTypeError) {
    return unsupported(TAG_ERRORS.UNSUPPORTED_FORMAT, `${path} is not an audio file Tagsonic can read.`, { path });
  }
  const reason = err instanceof Error ? err.message : String(err);
  const e = invalid(TAG_ERRORS.UNREADABLE, `${path} could not be parsed as audio (${reason}); it may be corrupt or truncated.`, { path });
  return Object.assign(e, { cause: err });
}

/**
 * The inspection of a parse. What is beyond the bounds whatever the format — a picture bigger than a
 * cover may be, frames after the first `MAX_FRAMES` — is left out here and added to `overflow` (what
 * was cut before the parse).
 */
export function describe(meta: IAudioMetadata, size: number, path: string, pictures?: IPicture[], cut: TagOverflow | null = null): Inspection {
  const format = formatOf(meta.format);
  if (!format || !profileOf(format)) {
    throw unsupported(TAG_ERRORS.UNSUPPORTED_FORMAT, `${path} is a ${meta.format.container ?? 'unknown'} file, which Tagsonic does not handle.`, {
      path,
      container: meta.format.container,
      codec: meta.format.codec,
    });
  }
  // A parser that found a container but no audio stream has read junk (e.g. text named .mp3).
  if (!meta.format.sampleRate || !meta.format.numberOfChannels) {
    throw invalid(TAG_ERRORS.UNREADABLE, `${path} has no readable audio stream; it may be corrupt or not audio at all.`, { path });
  }
  let overflow = cut && { ...cut, largest: { ...cut.largest } };
  const natives = indexNative(meta.native, (id, bytes) => (overflow = leaveOut(overflow, id, bytes)));
  const family = profileOf(format)!.readFamilies.find((f) => natives.has(f)) ?? null;
  const covers = (pictures ?? meta.common.picture ?? []).filter((p) => {
    if (p.data.byteLength <= MAX_PICTURE_BYTES) return true;
    overflow = leaveOut(overflow, 'picture', p.data.byteLength);
    return false;
  });
  const picture = selectCover(covers) ?? null;
  const legacyId3 = family === 'id3v2' && Object.keys(meta.native).some((t) => t === 'ID3v2.3' || t === 'ID3v2.2');
  const tags = snapshotFrom(family ? natives.get(family)! : new Map(), family, picture, legacyId3);
  const fmt = meta.format;
  const audio: AudioInfo = {
    format,
    codec: fmt.codec ?? '',
    duration: fmt.duration ?? 0,
    bitRate: fmt.bitrate ? Math.round(fmt.bitrate / 1000) : 0,
    sampleRate: fmt.sampleRate ?? 0,
    bitDepth: fmt.bitsPerSample ?? null,
    channels: fmt.numberOfChannels ?? 0,
    size,
    lossless: isLossless(fmt),
  };
  return { format, tags, audio, family, picture, legacyId3, overflow };
}

type NativeIndex = Map<string, ITag['value'][]>;

/**
 * TXXX descriptions, MP4 freeform names, Vorbis and APE keys are matched case-insensitively; ASF
 * attribute names are not ("Title" is the title, ffmpeg's extra "title" attribute is not).
 */
const nativeKey = (family: TagFamily, id: string): string => (family === 'asf' ? id : id.toUpperCase());

/** The native tags by family; past `MAX_FRAMES` in one family they are left out (`leftOut`). */
function indexNative(native: IAudioMetadata['native'], leftOut: (id: string, bytes: number) => void): Map<TagFamily, NativeIndex> {
  const out = new Map<TagFamily, NativeIndex>();
  for (const [tagType, tags] of Object.entries(native)) {
    const family = familyOfNativeType(tagType);
    if (!family || tags.length === 0) continue;
    // A second tag of the same family (e.g. two ID3v2 tags) never overrides the first.
    if (out.has(family)) continue;
    const index: NativeIndex = new Map();
    for (const tag of tags.length > MAX_FRAMES ? tags.slice(0, MAX_FRAMES) : tags) {
      const key = nativeKey(family, tag.id);
      const list = index.get(key);
      if (list) list.push(tag.value);
      else index.set(key, [tag.value]);
    }
    for (let i = MAX_FRAMES; i < tags.length; i++) leftOut(tags[i]!.id, typeof tags[i]!.value === 'string' ? Buffer.byteLength(tags[i]!.value as string) : 0);
    out.set(family, index);
  }
  return out;
}

function snapshotFrom(index: NativeIndex, family: TagFamily | null, picture: IPicture | null, legacyId3: boolean): TagSnapshot {
  const fields = emptyFields();
  const texts = (key: MappedKey): string[] => (family ? textValues(index, family, key) : []);
  // ID3v2.3 stores several values as "A/B"; show them the way they are stored.
  const joiner = legacyId3 ? '/' : MULTI_VALUE_JOINER;
  for (const field of EDITABLE_FIELDS) {
    if (NUMERIC_FIELDS.has(field)) continue;
    const values = texts(field);
    if (values.length > 0) fields[field] = values.join(field === 'album_type' ? ALBUM_TYPE_JOINER : joiner);
  }
  if (family) {
    const track = numbers(index, family, 'tracknumber', 'totaltracks');
    const disc = numbers(index, family, 'discnumber', 'totaldiscs');
    fields.tracknumber = track.no;
    fields.totaltracks = track.of;
    fields.discnumber = disc.no;
    fields.totaldiscs = disc.of;
  }
  const artists = texts('artists');
  const albumartists = texts('albumartists');
  return {
    fields,
    artists: artists.length > 0 ? artists : texts('artist'),
    albumartists: albumartists.length > 0 ? albumartists : texts('albumartist'),
    genres: texts('genre'),
    artwork: picture ? artworkInfo(picture.data, picture.format) : null,
  };
}

function textValues(index: NativeIndex, family: TagFamily, key: MappedKey): string[] {
  const ids = TAG_MAPPING[key].native[family];
  if (!ids) return [];
  for (const id of ids) {
    const raw = index.get(nativeKey(family, id));
    if (!raw) continue;
    const values: string[] = [];
    for (const v of raw) {
      const text = textOf(v, key, family);
      if (text === null || text === '') continue;
      // ASF keeps Title, Author, Copyright… in two objects, and ffmpeg fills both: one value, not two.
      if (family === 'asf' && values.includes(text)) continue;
      values.push(text);
    }
    if (values.length > 0) return values;
  }
  return [];
}

function textOf(value: unknown, key: MappedKey, family: TagFamily): string | null {
  if (typeof value === 'string') return family === 'riff' ? utf8FromLatin1(value) : value;
  if (typeof value === 'number') return String(value);
  if (value && typeof value === 'object' && 'text' in value) {
    // ID3 COMM frames with a description (iTunNORM, iTunSMPB, …) are machine data, not the comment.
    const descriptor = (value as { descriptor?: string }).descriptor;
    if (key === 'comment' && descriptor) return null;
    const text = (value as { text?: unknown }).text;
    return typeof text === 'string' ? text : null;
  }
  return null;
}

/**
 * music-metadata decodes RIFF INFO strings as Latin-1, but ffmpeg and TagLib write them as UTF-8.
 * Bytes that form valid multi-byte UTF-8 are essentially never intended Latin-1 text.
 */
function utf8FromLatin1(value: string): string {
  if (!/[\u0080-\u00ff]/.test(value) || /[^\u0000-\u00ff]/.test(value)) return value;
  const bytes = Buffer.from(value, 'latin1');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return value;
  }
}

function numbers(index: NativeIndex, family: TagFamily, numberKey: TagField, totalKey: TagField): { no: string | null; of: string | null } {
  const first = (key: MappedKey) => rawFirst(index, (TAG_MAPPING[key].native[family] ?? []).map((id) => nativeKey(family, id)));
  const pair = parseNumberPair(first(numberKey));
  let total = pair.of;
  if (!usesNumberPair(family)) {
    const separate = parseNumberPair(first(totalKey)).no;
    if (separate !== null) total = separate;
  }
  return { no: pair.no === null ? null : String(pair.no), of: total === null ? null : String(total) };
}

function rawFirst(index: NativeIndex, keys: readonly string[]): string | number | null {
  for (const key of keys) {
    const raw = index.get(key);
    const v = raw?.find((x) => typeof x === 'string' || typeof x === 'number');
    if (v !== undefined) return v as string | number;
  }
  return null;
}
