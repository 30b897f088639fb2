import path from 'node:path';
import { readTags, type ReadResult } from '@tagsonic/core/tags';
import { hasLyricsFile, iconFor, type ScrapeState } from '@tagsonic/core/files';
import { isTagsonicError } from '@tagsonic/core/errors';
import type { Ctx } from './deps.ts';

/** URLs the editor loads: the embedded cover (with a version so browsers refetch a changed one) and the audio. */
export const coverUrl = (filePath: string, sha256: string) => `/apimt/file_cover/?path=${encodeURIComponent(filePath)}&v=${sha256.slice(0, 12)}`;
export const streamUrl = (filePath: string) => `/apimt/file_stream/?path=${encodeURIComponent(filePath)}`;

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

/** The spec's "Music info" of one file: every editable field and the read-only technical ones. */
export async function musicInfo(ctx: Ctx, filePath: string) {
  const read = await readTags(filePath);
  const { fields, artwork } = read.tags;
  const a = read.audio;
  const [lyricsFile, state, lastWrite] = await Promise.all([
    hasLyricsFile(filePath),
    ctx.fileStates.get(filePath),
    ctx.journal.listByPath(filePath, { limit: 5 }),
  ]);
  // The editor's undo reverts a write or a rename; the file's creation (a conversion, a CUE split) is undone with its task.
  const undoable = lastWrite.find((w) => w.state === 'committed' && w.kind !== 'create');
  return {
    ...fields,
    filename: path.basename(filePath),
    lyrics_file: lyricsFile,
    album_img: artwork ? coverUrl(filePath, artwork.sha256) : '',
    artist_img: '',
    duration: round(a.duration, 2),
    bit_rate: a.bitRate,
    sample_rate: round(a.sampleRate / 1000, 3),
    bit_depth: a.bitDepth,
    channels: a.channels,
    size: round(a.size / (1024 * 1024), 2),
    artwork_w: artwork?.width ?? 0,
    artwork_h: artwork?.height ?? 0,
    artwork_size: artwork?.size ?? 0,
    artwork_mime: artwork?.mime ?? null,
    format: a.format,
    codec: a.codec,
    path: filePath,
    id: filePath,
    state,
    play_url: streamUrl(filePath),
    last_write_id: undoable?._id ?? null,
  };
}

const EMPTY_TAGS = {
  title: null,
  artist: null,
  album: null,
  albumartist: null,
  lyrics: null,
  year: null,
  genre: null,
  tracknumber: null,
  totaltracks: null,
  discnumber: null,
  totaldiscs: null,
  composer: null,
  lyricist: null,
  comment: null,
  language: null,
  album_type: null,
};

/** One row of the multi-file table; an unreadable file still gets a row, with its error. */
export async function id3Row(filePath: string, state: ScrapeState) {
  const base = { id: filePath, filename: path.basename(filePath), file_full_path: filePath, icon: iconFor(filePath, false), state };
  let read: ReadResult;
  try {
    read = await readTags(filePath);
  } catch (e) {
    if (!isTagsonicError(e)) throw e;
    return { ...base, ...EMPTY_TAGS, album_img: '', lyrics_file: await hasLyricsFile(filePath), duration: 0, bit_rate: 0, sample_rate: 0, size: 0, error: e.message };
  }
  const f = read.tags.fields;
  const tags = Object.fromEntries(Object.keys(EMPTY_TAGS).map((k) => [k, f[k as keyof typeof f] ?? null])) as typeof EMPTY_TAGS;
  return {
    ...base,
    ...tags,
    album_img: read.tags.artwork ? coverUrl(filePath, read.tags.artwork.sha256) : '',
    lyrics_file: await hasLyricsFile(filePath),
    duration: round(read.audio.duration, 2),
    bit_rate: read.audio.bitRate,
    sample_rate: round(read.audio.sampleRate / 1000, 3),
    size: round(read.audio.size / (1024 * 1024), 2),
    error: null,
  };
}

/** Runs `fn` over `items` with at most `limit` in flight, keeping the order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const run = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, run));
  return out;
}
