/**
 * Hostile tags for the tag engine's bounds tests: an MP3 whose ID3v2.4 tag is built byte by byte here
 * (ffmpeg will not write a 30 MB frame or 50,000 copies of one), around a real MPEG stream made by ffmpeg.
 */
import { execFile } from 'node:child_process';
import { open, readFile, rm, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** ID3v2.4 sizes: 7 bits per byte ("syncsafe"), so no byte of a size looks like an MPEG sync. */
function syncsafe(n: number): Buffer {
  if (n >= 2 ** 28) throw new Error(`${n} bytes do not fit an ID3v2.4 size`);
  return Buffer.from([(n >>> 21) & 0x7f, (n >>> 14) & 0x7f, (n >>> 7) & 0x7f, n & 0x7f]);
}

/** One ID3v2.4 frame: id, syncsafe size, no flags, body. */
export function id3Frame(id: string, body: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from(id, 'latin1'), syncsafe(body.length), Buffer.alloc(2), body]);
}

/** A UTF-8 text frame (TIT2, TPE1…). */
export const textFrame = (id: string, text: string): Buffer => id3Frame(id, Buffer.concat([Buffer.from([3]), Buffer.from(text, 'utf8')]));

/** A UTF-16 text frame (encoding 1, little-endian with its BOM). */
export const utf16TextFrame = (id: string, text: string): Buffer => id3Frame(id, Buffer.concat([Buffer.from([1, 0xff, 0xfe]), Buffer.from(text, 'utf16le')]));

/** A user text frame whose value is `valueBytes` bytes of "x". */
export const txxxFrame = (description: string, valueBytes: number): Buffer =>
  id3Frame('TXXX', Buffer.concat([Buffer.from([3]), Buffer.from(description, 'utf8'), Buffer.from([0]), Buffer.alloc(valueBytes, 0x78)]));

/** A front cover (APIC type 3) holding `picture`. */
export const apicFrame = (mime: string, picture: Uint8Array): Buffer =>
  id3Frame('APIC', Buffer.concat([Buffer.from([0]), Buffer.from(mime, 'latin1'), Buffer.from([0, 3, 0]), picture]));

/** A JPEG of `bytes` bytes that says it is `width`×`height`: a real SOF0 header, then filler. */
export function bigJpeg(bytes: number, width = 1000, height = 1000): Buffer {
  const head = Buffer.from([
    0xff, 0xd8, // SOI
    0xff, 0xc0, 0x00, 0x11, 0x08, (height >> 8) & 0xff, height & 0xff, (width >> 8) & 0xff, width & 0xff,
    0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01, // SOF0, 3 components
  ]);
  const out = Buffer.alloc(bytes, 0x55);
  head.copy(out);
  out[bytes - 2] = 0xff;
  out[bytes - 1] = 0xd9; // EOI
  return out;
}

/** How the tag header reads: ID3v2.4 without flags unless asked (0x80: the whole tag unsynchronised). */
export interface TagHeaderOptions {
  major?: 3 | 4;
  flags?: number;
}

const tagHeader = (size: number, options: TagHeaderOptions = {}) =>
  Buffer.concat([Buffer.from([0x49, 0x44, 0x33, options.major ?? 4, 0, options.flags ?? 0]), syncsafe(size)]);

/** An ID3v2 tag holding `frames` (no padding). */
export function id3v2Tag(frames: readonly Uint8Array[], options: TagHeaderOptions = {}): Buffer {
  const size = frames.reduce((n, f) => n + f.length, 0);
  return Buffer.concat([tagHeader(size, options), ...frames]);
}

/**
 * What the hostile files hold:
 * - `frames`: the tag of issue 10 item 4 — one 30 MB TXXX frame and 50,000 TIT2 frames (a 32 MB file);
 * - `picture`: one front cover of 24 MB (more than any format's cover can hold) beside a normal title.
 */
export type OversizeKind = 'frames' | 'picture';

export function oversizeFrames(kind: OversizeKind): Buffer[] {
  if (kind === 'picture') return [textFrame('TIT2', 'Big cover'), apicFrame('image/jpeg', bigJpeg(24 * 1024 * 1024))];
  const frames: Buffer[] = [txxxFrame('JUNK', 30 * 1024 * 1024)];
  for (let i = 0; i < 50_000; i++) frames.push(textFrame('TIT2', `Title ${i}`));
  return frames;
}

/**
 * Writes `file`: `frames` as an ID3v2.4 tag in front of two seconds of MP3 made by ffmpeg (no tag of its
 * own). The tag is written frame by frame, so making the file does not hold it twice in memory.
 */
export async function writeMp3WithTag(file: string, frames: readonly Uint8Array[], options: TagHeaderOptions = {}): Promise<void> {
  const audioFile = `${file}.audio.mp3`;
  await run('ffmpeg', [
    '-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=2:sample_rate=44100',
    '-c:a', 'libmp3lame', '-b:a', '128k', '-write_id3v2', '0', '-write_xing', '0', '-id3v2_version', '0', audioFile,
  ]);
  const audio = await readFile(audioFile);
  await rm(audioFile, { force: true });
  const size = frames.reduce((n, f) => n + f.length, 0);
  const fh = await open(file, 'w');
  try {
    await fh.write(tagHeader(size, options));
    for (const frame of frames) await fh.write(frame);
    await fh.write(audio);
  } finally {
    await fh.close();
  }
}

/** Writes `file`: the given ID3v2 tags one after another (made by `id3v2Tag`), then the same MP3 stream. */
export async function writeMp3WithTags(file: string, tags: readonly Uint8Array[]): Promise<void> {
  await writeMp3WithTag(file, []);
  const mp3 = await readFile(file);
  await writeFile(file, Buffer.concat([...tags, mp3.subarray(10)])); // without the empty tag
}

/** The hostile MP3 of `kind` at `file`. */
export const makeOversizeTagMp3 = (file: string, kind: OversizeKind): Promise<void> => writeMp3WithTag(file, oversizeFrames(kind));

/** A RIFF chunk: id, little-endian size, body, and a pad byte when the size is odd. */
export function riffChunk(id: string, body: Uint8Array): Buffer {
  const header = Buffer.alloc(8);
  header.write(id, 0, 'latin1');
  header.writeUInt32LE(body.length, 4);
  return Buffer.concat([header, body, Buffer.alloc(body.length % 2)]);
}

/** A `LIST` chunk of RIFF INFO items (e.g. `['ICMT', 'a comment']`). */
export const riffInfoList = (items: ReadonlyArray<readonly [string, string]>): Buffer =>
  riffChunk('LIST', Buffer.concat([Buffer.from('INFO', 'latin1'), ...items.map(([id, text]) => riffChunk(id, Buffer.from(`${text}\0`, 'utf8')))]));

/**
 * Writes `file`: two seconds of WAV made by ffmpeg, then one `id3 ` chunk per tag of `tags` (where ffmpeg
 * and TagLib put a WAV's ID3 tag), with the RIFF size updated.
 */
export const writeWavWithId3Chunks = (file: string, tags: readonly Uint8Array[]): Promise<void> => writeWavWithChunks(file, tags.map((tag) => riffChunk('id3 ', tag)));

/** Writes `file`: two seconds of WAV made by ffmpeg followed by `chunks` (made by `riffChunk`), with the RIFF size updated. */
export async function writeWavWithChunks(file: string, parts: readonly Uint8Array[]): Promise<void> {
  await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=2:sample_rate=44100', '-c:a', 'pcm_s16le', file]);
  const wav = await readFile(file);
  wav.writeUInt32LE(wav.length - 8 + parts.reduce((n, p) => n + p.length, 0), 4);
  const fh = await open(file, 'w');
  try {
    for (const part of [wav, ...parts]) await fh.write(part);
  } finally {
    await fh.close();
  }
}

/** A FLAC PICTURE block's body: a front cover holding `picture`. */
export function flacPictureBody(mime: string, picture: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(3, 0);
  head.writeUInt32BE(mime.length, 4);
  const middle = Buffer.alloc(4 + 16 + 4);
  middle.writeUInt32BE(0, 0); // no description
  middle.writeUInt32BE(picture.length, 20);
  return Buffer.concat([head, Buffer.from(mime, 'latin1'), middle, picture]);
}

/** A FLAC VORBIS_COMMENT block's body holding `comments` ("KEY=value"). */
export function flacCommentBody(comments: readonly string[]): Buffer {
  const parts: Buffer[] = [];
  const u32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    return b;
  };
  const vendor = Buffer.from('test/support', 'utf8');
  parts.push(u32(vendor.length), vendor, u32(comments.length));
  for (const c of comments) {
    const bytes = Buffer.from(c, 'utf8');
    parts.push(u32(bytes.length), bytes);
  }
  return Buffer.concat(parts);
}

/**
 * Writes `file`: two seconds of FLAC made by ffmpeg whose metadata blocks, after STREAMINFO, are
 * replaced by `blocks` (type 4: comments, 6: picture), each at most 16 MiB as the format allows.
 */
export async function writeFlacWithBlocks(file: string, blocks: ReadonlyArray<{ type: number; body: Uint8Array }>): Promise<void> {
  await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=2:sample_rate=44100', '-c:a', 'flac', file]);
  const flac = await readFile(file);
  let pos = 4;
  let streamInfo: Buffer | null = null;
  for (;;) {
    const last = (flac[pos]! & 0x80) !== 0;
    const length = flac.readUIntBE(pos + 1, 3);
    if ((flac[pos]! & 0x7f) === 0) streamInfo = flac.subarray(pos + 4, pos + 4 + length);
    pos += 4 + length;
    if (last) break;
  }
  const all = [{ type: 0, body: streamInfo! }, ...blocks];
  const fh = await open(file, 'w');
  try {
    await fh.write(Buffer.from('fLaC', 'latin1'));
    for (const [i, block] of all.entries()) {
      if (block.body.length >= 2 ** 24) throw new Error('a FLAC block holds less than 16 MiB');
      const header = Buffer.alloc(4);
      header.writeUIntBE(block.body.length, 1, 3);
      header[0] = (i === all.length - 1 ? 0x80 : 0) | block.type;
      await fh.write(header);
      await fh.write(block.body);
    }
    await fh.write(flac.subarray(pos));
  } finally {
    await fh.close();
  }
}

/** Writes `file`: two seconds of Ogg Vorbis made by ffmpeg with a title and `count` more comments ("c0=x"…). */
export async function writeOggWithComments(file: string, count: number): Promise<void> {
  const meta = `${file}.ffmetadata`;
  await writeFile(meta, [';FFMETADATA1', 'title=Many', ...Array.from({ length: count }, (_, i) => `c${i}=x`)].join('\n') + '\n');
  await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=2', '-i', meta, '-map', '0:a', '-map_metadata', '1', '-c:a', 'libvorbis', file]);
  await rm(meta, { force: true });
}
