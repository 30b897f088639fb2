/**
 * The `extract` preset's WAV → WAV cut (ffmpeg-convert.ts): a CUE track of a PCM WAV image is the byte range of the
 * image's data chunk between its samples, so it is copied, not decoded and re-encoded by ffmpeg (shnsplit copies
 * bytes too: the ffmpeg cut, with a probe per track, took 5–7× its time). Sample-exact by block_align; the image's
 * fmt chunk is copied as it is (WAVE_FORMAT_EXTENSIBLE, 24 bit, float and multichannel images keep their format —
 * ffmpeg's cut wrote 16 bit whatever the image held); the sheet's tags go into a LIST/INFO chunk with the very ids,
 * order and padding ffmpeg's WAV muxer gives them (album_artist, composer and disc have no INFO id there either).
 *
 * Only plain RIFF/WAVE images whose data chunk size is consistent with the file take this path: RF64, images of
 * 4 GiB or more, a data size of 0 or 0xFFFFFFFF (streamed), compressed WAV (ADPCM, MP3 in WAV) go through ffmpeg
 * as before. A track that would not fit a RIFF file's 32-bit sizes is refused, never written with wrong sizes.
 * The track is written to a temp name beside the target, checked (size, header read back), then journaled as a
 * created file and renamed into place only when nothing appeared there meanwhile.
 */
import { createHash } from 'node:crypto';
import { lstat, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { MediaRoots } from '@tagsonic/core/media';
import { TagsonicError } from '@tagsonic/core/errors';
import type { TagJournal } from '@tagsonic/core/tags';
import type { HostCall } from '../../plugin-host/index.ts';
import { placeCreated } from './created.ts';
import { CONFLICT, invalidArgument } from './args.ts';

/** Where a PCM WAV image's samples are. */
export interface WavLayout {
  /** The fmt chunk's body, copied into each track. */
  fmt: Buffer;
  /** Byte offset of the data chunk's first sample in the image. */
  dataOffset: number;
  /** Whole sample frames in the data chunk. */
  frames: number;
  blockAlign: number;
}

const RIFF_MAX = 0xffff_ffff;
const MAX_CHUNKS = 64;
const COPY_BUFFER = 1 << 20;
/** KSDATAFORMAT_SUBTYPE_PCM / _IEEE_FLOAT without their first two bytes (the format tag). */
const SUBTYPE_TAIL = Buffer.from('000000001000800000aa00389b71', 'hex');
/** ffmpeg's WAV muxer's INFO ids for the preset's tag keys, in the order it writes them (ff_riff_tags). */
const INFO_IDS: ReadonlyArray<[string, string]> = [['IART', 'artist'], ['ICMT', 'comment'], ['ICRD', 'date'], ['IGNR', 'genre'], ['INAM', 'title'], ['IPRD', 'album'], ['IPRT', 'track']];

async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

/** PCM or float samples, whole bytes, block_align = channels × bytes a sample: a byte range is a sample range. */
function plainPcm(fmt: Buffer): boolean {
  if (fmt.length < 16) return false;
  let tag = fmt.readUInt16LE(0);
  const channels = fmt.readUInt16LE(2);
  const blockAlign = fmt.readUInt16LE(12);
  const bits = fmt.readUInt16LE(14);
  if (tag === 0xfffe) {
    if (fmt.length < 40 || !fmt.subarray(26, 40).equals(SUBTYPE_TAIL)) return false;
    tag = fmt.readUInt16LE(24);
  }
  return (tag === 1 || tag === 3) && channels > 0 && bits > 0 && blockAlign === channels * Math.ceil(bits / 8);
}

/** The layout of `file` when it is a plain PCM RIFF/WAVE image a byte cut handles exactly; null sends it to ffmpeg. */
export async function wavLayout(file: string): Promise<WavLayout | null> {
  const handle = await open(file, 'r');
  try {
    const size = (await handle.stat()).size;
    if (size >= RIFF_MAX) return null;
    const head = await readAt(handle, 0, 12);
    if (head.length < 12 || head.toString('latin1', 0, 4) !== 'RIFF' || head.toString('latin1', 8, 12) !== 'WAVE') return null;
    let fmt: Buffer | null = null;
    let at = 12;
    for (let n = 0; n < MAX_CHUNKS && at + 8 <= size; n++) {
      const chunk = await readAt(handle, at, 8);
      const id = chunk.toString('latin1', 0, 4);
      const length = chunk.readUInt32LE(4);
      if (id === 'fmt ') {
        if (length > 1024) return null;
        fmt = await readAt(handle, at + 8, length);
      } else if (id === 'data') {
        if (!fmt || !plainPcm(fmt) || length === 0 || length === RIFF_MAX || at + 8 + length > size) return null;
        const blockAlign = fmt.readUInt16LE(12);
        return { fmt, dataOffset: at + 8, frames: Math.floor(length / blockAlign), blockAlign };
      }
      at += 8 + length + (length & 1);
    }
    return null;
  } finally {
    await handle.close();
  }
}

/** The LIST/INFO chunk ffmpeg's WAV muxer writes for these tags (each value NUL-terminated, padded to even), or none. */
export function infoChunk(tags: Readonly<Record<string, string>>): Buffer {
  const parts: Buffer[] = [];
  for (const [id, key] of INFO_IDS) {
    const value = tags[key];
    if (!value) continue;
    const text = Buffer.from(`${value}\u0000`, 'utf8');
    const header = Buffer.alloc(8);
    header.write(id, 0, 'latin1');
    header.writeUInt32LE(text.length, 4);
    parts.push(header, text, ...(text.length & 1 ? [Buffer.alloc(1)] : []));
  }
  if (parts.length === 0) return Buffer.alloc(0);
  const body = Buffer.concat([Buffer.from('INFO', 'latin1'), ...parts]);
  const header = Buffer.alloc(8);
  header.write('LIST', 0, 'latin1');
  header.writeUInt32LE(body.length, 4);
  return Buffer.concat([header, body]);
}

function chunkHeader(id: string, length: number): Buffer {
  const header = Buffer.alloc(8);
  header.write(id, 0, 'latin1');
  header.writeUInt32LE(length, 4);
  return header;
}

/**
 * Copies samples `[start, end)` of the image (to its end without `end`; an end past it stops there, as ffmpeg's
 * atrim does) into `target` with `tags`, journaled as created for a task. `target` must not exist.
 */
export async function cutWav(
  roots: MediaRoots,
  journal: TagJournal | null,
  call: HostCall,
  job: { image: string; layout: WavLayout; start: number; end: number | undefined; tags: Readonly<Record<string, string>>; target: string },
): Promise<{ path: string }> {
  const { image, layout, start, target } = job;
  const end = Math.min(job.end ?? layout.frames, layout.frames);
  if (start >= end) throw invalidArgument(`ffmpeg.run: the track starts at sample ${start}, past the end of ${path.basename(image)} (${layout.frames} samples)`);
  const length = (end - start) * layout.blockAlign;
  const fmt = layout.fmt;
  const info = infoChunk(job.tags);
  const riffSize = 4 + 8 + fmt.length + (fmt.length & 1) + info.length + 8 + length + (length & 1);
  if (riffSize > RIFF_MAX) throw invalidArgument(`ffmpeg.run: the track is ${length} bytes, more than a WAV file holds (4 GiB); cut it to flac`);
  const header = Buffer.concat([
    chunkHeader('RIFF', riffSize), Buffer.from('WAVE', 'latin1'),
    chunkHeader('fmt ', fmt.length), fmt, ...(fmt.length & 1 ? [Buffer.alloc(1)] : []),
    info, chunkHeader('data', length),
  ]);
  const fileSize = 8 + riffSize;

  const temp = path.join(path.dirname(target), `.tagsonic-wavcut-${randomBytes(6).toString('hex')}.wav`);
  try {
    // The digest undo needs is taken from the bytes as they are written, not by reading the track again.
    const hash = createHash('sha256').update(header);
    const source = await open(image, 'r');
    const out = await open(temp, 'wx');
    try {
      await out.write(header, 0, header.length, 0);
      const buffer = Buffer.allocUnsafe(Math.min(COPY_BUFFER, length));
      let done = 0;
      while (done < length) {
        // A stopped task stops its copy too, as it stops an ffmpeg run (media-tools.ts runTool's signal).
        call.signal?.throwIfAborted();
        const { bytesRead } = await source.read(buffer, 0, Math.min(buffer.length, length - done), layout.dataOffset + start * layout.blockAlign + done);
        if (bytesRead === 0) throw new Error(`${path.basename(image)} ended early (changed while it was cut?)`);
        const chunk = buffer.subarray(0, bytesRead);
        await out.write(chunk, 0, bytesRead, header.length + done);
        hash.update(chunk);
        done += bytesRead;
      }
      if (length & 1) {
        const pad = Buffer.alloc(1);
        await out.write(pad, 0, 1, header.length + length);
        hash.update(pad);
      }
    } finally {
      await out.close();
      await source.close();
    }
    // Checked before it is placed: the size the header promises, and the header as written.
    const check = await open(temp, 'r');
    try {
      const written = await readAt(check, 0, header.length);
      if ((await check.stat()).size !== fileSize || !written.equals(header)) throw new Error(`the cut track ${path.basename(target)} did not write back as expected`);
    } finally {
      await check.close();
    }
    if (await lstat(target).then(() => true, () => false)) throw new TagsonicError('conflict', CONFLICT, `ffmpeg.run: ${target} appeared meanwhile`);
    const digest = { size: fileSize, sha256: hash.digest('hex') };
    await placeCreated(roots, journal, call, { file: target, digest: async () => digest, source: image }, () => rename(temp, target));
    return { path: target };
  } finally {
    await rm(temp, { force: true });
  }
}
