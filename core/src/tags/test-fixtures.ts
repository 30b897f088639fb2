/**
 * Test-only helpers for the tag engine's tests: small real audio files made by ffmpeg (varied audio,
 * tagged by ffmpeg, never by Tagsonic), covers, and independent readers (ffprobe, ffmpeg PCM md5,
 * music-metadata native tags). Not exported from the package.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createHash } from 'node:crypto';
import { parseFile } from 'music-metadata';
import type { Store } from '../store/index.ts';
import { openEmbeddedStore } from '../store/index.ts';
import { createTagJournal, type TagJournal } from './journal.ts';

const run = promisify(execFile);

/** The sources of the round-trip matrix: one per container/codec/tag-version combination. */
export const SOURCES = {
  'mp3-id3v23': { ext: 'mp3', args: ['-c:a', 'libmp3lame', '-b:a', '128k', '-id3v2_version', '3', '-write_id3v1', '0'] },
  'mp3-id3v24': { ext: 'mp3', args: ['-c:a', 'libmp3lame', '-b:a', '128k', '-id3v2_version', '4', '-write_id3v1', '0'] },
  flac: { ext: 'flac', args: ['-c:a', 'flac'] },
  'm4a-aac': { ext: 'm4a', args: ['-c:a', 'aac', '-b:a', '96k'] },
  'm4a-alac': { ext: 'm4a', args: ['-c:a', 'alac'] },
  ogg: { ext: 'ogg', args: ['-c:a', 'libvorbis', '-q:a', '3'] },
  opus: { ext: 'opus', args: ['-c:a', 'libopus', '-b:a', '64k'] },
  wav: { ext: 'wav', args: ['-c:a', 'pcm_s16le'] },
  aiff: { ext: 'aiff', args: ['-c:a', 'pcm_s16be', '-write_id3v2', '1'] },
} as const;
export type SourceKind = keyof typeof SOURCES;
export const SOURCE_KINDS = Object.keys(SOURCES) as SourceKind[];

export async function tempDir(prefix = 'tagsonic-tags-'): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

async function ffmpeg(args: string[]): Promise<void> {
  await run('ffmpeg', ['-v', 'error', '-nostdin', '-y', ...args], { maxBuffer: 64 * 1024 * 1024 });
}

/**
 * A short stereo file of `kind`: a tone whose pitch depends on `seed`, mixed with pink noise (pure
 * sines compress to almost nothing and hide bugs), tagged by ffmpeg with `tags`.
 */
export async function makeAudio(dir: string, name: string, kind: SourceKind, options: { seed?: number; seconds?: number; tags?: Record<string, string> } = {}): Promise<string> {
  const { ext, args } = SOURCES[kind];
  const file = path.join(dir, `${name}.${ext}`);
  const seed = options.seed ?? 1;
  const seconds = options.seconds ?? 1.5;
  const meta = Object.entries(options.tags ?? {}).flatMap(([k, v]) => ['-metadata', `${k}=${v}`]);
  await ffmpeg([
    '-f', 'lavfi', '-i', `sine=frequency=${220 + 37 * seed}:duration=${seconds}:sample_rate=44100`,
    '-f', 'lavfi', '-i', `anoisesrc=color=pink:duration=${seconds}:amplitude=0.2:seed=${seed}:sample_rate=44100`,
    '-filter_complex', '[0][1]amix=inputs=2,aformat=channel_layouts=stereo',
    ...args, ...meta, file,
  ]);
  return file;
}

/** A cover image made by ffmpeg's test pattern, `width`×`height`, JPEG or PNG. */
export async function makeCover(dir: string, name: string, format: 'jpeg' | 'png', width: number, height: number): Promise<Uint8Array> {
  const file = path.join(dir, `${name}.${format === 'jpeg' ? 'jpg' : 'png'}`);
  await ffmpeg(['-f', 'lavfi', '-i', `testsrc2=size=${width}x${height}:duration=1`, '-frames:v', '1', file]);
  return new Uint8Array(await readFile(file));
}

export interface ProbeStream {
  codec_type: string;
  codec_name: string;
  disposition?: { attached_pic?: number };
  tags?: Record<string, string>;
}

export interface Probe {
  format: { tags?: Record<string, string> };
  streams: ProbeStream[];
}

export async function ffprobe(file: string): Promise<Probe> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-show_format', '-show_streams', '-of', 'json', file], { maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(stdout) as Probe;
}

/** ffprobe's tags for the file, keys lower-cased: container tags, else the audio stream's (Ogg). */
export function probeTags(probe: Probe): Record<string, string> {
  const audio = probe.streams.find((s) => s.codec_type === 'audio');
  const tags = { ...(audio?.tags ?? {}), ...(probe.format.tags ?? {}) };
  return Object.fromEntries(Object.entries(tags).map(([k, v]) => [k.toLowerCase(), v]));
}

/** md5 of the decoded audio, the ground truth that a tag write left the sound alone. */
export async function pcmMd5(file: string): Promise<string> {
  const { stdout } = await run('ffmpeg', ['-v', 'error', '-nostdin', '-i', file, '-map', '0:a', '-f', 'md5', '-'], { maxBuffer: 1024 * 1024 });
  return stdout.trim();
}

/** sha256 of the attached picture as ffmpeg extracts it (stream copy), or null when there is none. */
export async function ffmpegCoverSha256(file: string): Promise<string | null> {
  const probe = await ffprobe(file);
  if (!probe.streams.some((s) => s.disposition?.attached_pic === 1)) return null;
  const { stdout } = await run('ffmpeg', ['-v', 'error', '-nostdin', '-i', file, '-map', '0:v:0', '-c', 'copy', '-f', 'image2pipe', '-'], {
    encoding: 'buffer',
    maxBuffer: 64 * 1024 * 1024,
  });
  return createHash('sha256').update(stdout).digest('hex');
}

/** music-metadata's raw native tags: `{ 'ID3v2.4': { TIT2: ['…'] } }`, values stringified. */
export async function nativeTags(file: string): Promise<Record<string, Record<string, unknown[]>>> {
  const meta = await parseFile(file, { skipCovers: false });
  const out: Record<string, Record<string, unknown[]>> = {};
  for (const [type, tags] of Object.entries(meta.native)) {
    const byId: Record<string, unknown[]> = {};
    for (const t of tags) (byId[t.id] ??= []).push(t.value);
    out[type] = byId;
  }
  return out;
}

export const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

export async function fileSha256(file: string): Promise<string> {
  return sha256(await readFile(file));
}

/** A real journal: the embedded store in `dir`, covers under `dir/blobs`. */
export async function openJournal(dir: string): Promise<{ journal: TagJournal; store: Store; close: () => Promise<void> }> {
  const store = await openEmbeddedStore({ dir: path.join(dir, 'store') });
  const journal = createTagJournal({ store, blobDir: path.join(dir, 'blobs') });
  return { journal, store, close: () => store.close() };
}

/** The two states the crash test's writer alternates between (full field sets, so a mix is visible). */
export const CRASH_STATES = [
  { title: '状态 A', artist: '歌手 A', album: '专辑 A', comment: 'a'.repeat(2000), tracknumber: '1', totaltracks: '2', lyrics: '甲\n'.repeat(500) },
  { title: '状态 B', artist: '歌手 B / 歌手 C', album: '专辑 B', comment: 'b'.repeat(100), tracknumber: '2', totaltracks: '2', lyrics: '乙\n'.repeat(50) },
] as const;
