/**
 * The conversion presets of `caps.ffmpeg.run` for the format-conversion and CUE-split batch actions, beside the
 * reviewed presets of media-tools.ts and under the same rules: fixed argument arrays (no shell, no argument a
 * plugin can inject: tag values travel inside one `key=value` argument, inputs are absolute confined paths that
 * never start with '-'), `-protocol_whitelist file`, outputs written to a temp name beside the target and renamed
 * only when nothing appeared there meanwhile (never over a file), the shared two-process limiter and time limit.
 *
 * - `transcode`: `input` → `output` in `format` (mp3, flac, wav, ogg, wma, m4a, opus), optionally at
 *   `bitrateKbps` (lossy targets) and `sampleRate` (fitted to the nearest rate the encoder takes). All tags are carried over; the embedded cover too where the
 *   container holds one as a picture stream (mp3, flac, m4a; WMA keeps it as a plain stream) — the plugin adds it
 *   through `tags.write` for the others.
 * - `extract`: samples `[startSample, endSample)` of `input` (to the end when `endSample` is absent) → `output`,
 *   cut with `atrim` on decoded samples, so a CUE track has exactly the sample count its cue times give (75 CD
 *   frames a second; the same split points as shntool's `shnsplit`), with `tags` (a fixed set of keys) replacing
 *   the image's own and the image's cover carried over; from a WAV/FLAC/WavPack/TTA/AIFF image ffmpeg seeks to
 *   just before the track first (extract-seek.ts). A WAV track of a PCM WAV image is the data chunk's byte range
 *   copied, no ffmpeg at all (wav-cut.ts).
 *
 * For a task, the written file is journaled as created (created.ts): undo_task moves it into the task's trash.
 */
import { lstat, mkdir, rename, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { MediaRoots } from '@tagsonic/core/media';
import { TagsonicError } from '@tagsonic/core/errors';
import { fileDigest, type TagJournal } from '@tagsonic/core/tags';
import type { HostCall, HostFunction } from '../../plugin-host/index.ts';
import { placeCreated } from './created.ts';
import { asPluginError, CONFLICT, denied, invalidArgument, optionalNumber, optionsOf, stringField } from './args.ts';
import { audioInput, NO_NETWORK, runTool, TOOL_TIMEOUT_MS } from './media-tools.ts';
import { extractWindow, imageRates } from './extract-seek.ts';
import { cutWav, wavLayout } from './wav-cut.ts';

interface TargetFormat {
  ext: string;
  muxer: string;
  codec: string[];
  lossy: boolean;
  /** The container keeps an attached picture stream (`-disposition attached_pic`). */
  picture: boolean;
}

export const CONVERT_FORMATS: Readonly<Record<string, TargetFormat>> = {
  mp3: { ext: 'mp3', muxer: 'mp3', codec: ['-c:a', 'libmp3lame'], lossy: true, picture: true },
  flac: { ext: 'flac', muxer: 'flac', codec: ['-c:a', 'flac'], lossy: false, picture: true },
  wav: { ext: 'wav', muxer: 'wav', codec: ['-c:a', 'pcm_s16le'], lossy: false, picture: false },
  ogg: { ext: 'ogg', muxer: 'ogg', codec: ['-c:a', 'libvorbis'], lossy: true, picture: false },
  wma: { ext: 'wma', muxer: 'asf', codec: ['-c:a', 'wmav2'], lossy: true, picture: false },
  m4a: { ext: 'm4a', muxer: 'ipod', codec: ['-c:a', 'aac'], lossy: true, picture: true },
  opus: { ext: 'opus', muxer: 'opus', codec: ['-c:a', 'libopus'], lossy: true, picture: false },
};

/** The tag keys `extract` writes (ffmpeg's generic names, mapped by each muxer to its own: TRACKNUMBER, TPE1 …). */
const EXTRACT_TAG_KEYS = new Set(['title', 'artist', 'album', 'album_artist', 'composer', 'genre', 'date', 'track', 'disc', 'comment']);

/** Vorbis is asked for a quality, not a bitrate: libvorbis refuses many bitrate/sample-rate pairs (192k at 22050 Hz). */
const VORBIS_QUALITY: ReadonlyArray<[number, number]> = [[45, -1], [64, 0], [80, 1], [96, 2], [112, 3], [128, 4], [160, 5], [192, 6], [224, 7], [256, 8], [320, 9], [500, 10]];

/** Bitrate arguments for a lossy target, within what the codec takes at that sample rate (MPEG-2/2.5 layer III top out lower). */
function rateArgs(format: string, kbps: number, sampleRate: number | undefined): string[] {
  if (format === 'ogg') {
    const q = VORBIS_QUALITY.reduce((best, pair) => (Math.abs(pair[0] - kbps) < Math.abs(best[0] - kbps) ? pair : best))[1];
    return ['-q:a', String(q)];
  }
  let rate = kbps;
  if (format === 'mp3' && sampleRate !== undefined) rate = Math.min(rate, sampleRate <= 12_000 ? 64 : sampleRate < 32_000 ? 160 : 320);
  if (format === 'opus') rate = Math.min(rate, 256);
  return ['-b:a', `${Math.round(rate)}k`];
}

/** The sample rates an encoder takes, where it does not take any: a request is fitted to the nearest. */
const SAMPLE_RATES: Readonly<Record<string, readonly number[]>> = {
  mp3: [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000],
  opus: [8000, 12000, 16000, 24000, 48000],
  wma: [8000, 11025, 16000, 22050, 32000, 44100, 48000],
  m4a: [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000, 64000, 88200, 96000],
};

/** `sampleRate` as `format`'s encoder takes it: 96000 for an MP3 is 48000, 22050 for Opus 24000. */
export function fitSampleRate(format: string, sampleRate: number): number {
  const allowed = SAMPLE_RATES[format];
  if (!allowed) return Math.round(sampleRate);
  return allowed.reduce((best, rate) => (Math.abs(rate - sampleRate) < Math.abs(best - sampleRate) ? rate : best));
}

export function convertPresets(roots: MediaRoots, filesAccess: 'read' | 'write' | null, journal: TagJournal | null = null): Record<string, HostFunction> {
  const output = async (options: Record<string, unknown>, format: TargetFormat) => {
    if (filesAccess !== 'write') throw denied('ffmpeg.run: writing an output needs the files write grant');
    const target = await roots.resolve(stringField(options, 'output', 'ffmpeg.run'), { mustExist: false });
    if (target.exists) throw new TagsonicError('conflict', CONFLICT, `ffmpeg.run: ${String(options.output)} already exists`);
    if (path.extname(target.path).slice(1).toLowerCase() !== format.ext) throw invalidArgument(`ffmpeg.run: the output must end in .${format.ext}`);
    return target.path;
  };
  const formatOf = (options: Record<string, unknown>): [string, TargetFormat] => {
    const name = options.format;
    if (typeof name !== 'string' || !Object.hasOwn(CONVERT_FORMATS, name)) throw invalidArgument(`ffmpeg.run: format must be one of ${Object.keys(CONVERT_FORMATS).join(', ')}`);
    return [name, CONVERT_FORMATS[name]!];
  };
  const produce = async (target: string, source: string, args: (temp: string) => string[], call: HostCall) => {
    await mkdir(path.dirname(target), { recursive: true });
    const temp = path.join(path.dirname(target), `.tagsonic-ffmpeg-${randomBytes(6).toString('hex')}${path.extname(target)}`);
    try {
      await runTool('ffmpeg', ['-nostdin', '-hide_banner', '-v', 'error', ...args(temp)], TOOL_TIMEOUT_MS, call.signal);
      if (await lstat(target).then(() => true, () => false)) throw new TagsonicError('conflict', CONFLICT, `ffmpeg.run: ${target} appeared meanwhile`);
      const digest = async () => (await fileDigest(temp))!;
      await placeCreated(roots, journal, call, { file: target, digest, source }, () => rename(temp, target));
      return { path: target };
    } finally {
      await rm(temp, { force: true });
    }
  };
  // Audio, then the first picture stream if the source has one and the target keeps pictures.
  const streams = (format: TargetFormat) =>
    format.picture ? ['-map', '0:a:0', '-map', '0:v:0?', '-c:v', 'copy', '-disposition:v:0', 'attached_pic'] : ['-map', '0:a:0'];
  const id3 = (format: TargetFormat) => (format.muxer === 'mp3' ? ['-id3v2_version', '3'] : []);
  const rateOf = imageRates();

  return {
    transcode: async (args, call) => {
      try {
        const job = optionsOf(args, 'ffmpeg.run');
        const [name, format] = formatOf(job);
        const bitrate = optionalNumber(job, 'bitrateKbps', 'ffmpeg.run', 8, 1411);
        const sampleRate = optionalNumber(job, 'sampleRate', 'ffmpeg.run', 8000, 192_000);
        const from = await audioInput(roots, job, 'input', 'ffmpeg.run');
        const to = await output(job, format);
        const fitted = sampleRate === undefined ? undefined : fitSampleRate(name, sampleRate);
        const resample = fitted === undefined ? [] : ['-ar', String(fitted)];
        const rate = format.lossy ? rateArgs(name, bitrate ?? 320, fitted) : [];
        return await produce(to, from, (temp) => [...NO_NETWORK, '-i', from, ...streams(format), '-map_metadata', '0', ...format.codec, ...rate, ...resample, ...id3(format), '-f', format.muxer, temp], call);
      } catch (error) {
        throw asPluginError(error);
      }
    },
    extract: async (args, call) => {
      try {
        const job = optionsOf(args, 'ffmpeg.run');
        const [name, format] = formatOf(job);
        const start = optionalNumber(job, 'startSample', 'ffmpeg.run', 0, 2 ** 40) ?? 0;
        const end = optionalNumber(job, 'endSample', 'ffmpeg.run', 0, 2 ** 40);
        if (!Number.isInteger(start) || (end !== undefined && (!Number.isInteger(end) || end <= start))) {
          throw invalidArgument('ffmpeg.run: extract needs whole sample numbers, endSample after startSample');
        }
        const bitrate = optionalNumber(job, 'bitrateKbps', 'ffmpeg.run', 8, 1411);
        const tags = job.tags ?? {};
        if (typeof tags !== 'object' || tags === null || Array.isArray(tags)) throw invalidArgument('ffmpeg.run: tags must be an object');
        const metadata: string[] = [];
        for (const [key, value] of Object.entries(tags)) {
          if (!EXTRACT_TAG_KEYS.has(key)) throw invalidArgument(`ffmpeg.run: tag ${key.slice(0, 40)} is not one of ${[...EXTRACT_TAG_KEYS].join(', ')}`);
          if (typeof value !== 'string' || value.length > 2000 || value.includes('\u0000')) throw invalidArgument(`ffmpeg.run: tag ${key} must be text of at most 2000 characters`);
          if (value !== '') metadata.push('-metadata', `${key}=${value}`);
        }
        const from = await audioInput(roots, job, 'input', 'ffmpeg.run');
        const to = await output(job, format);
        const layout = name === 'wav' && path.extname(from).toLowerCase() === '.wav' ? await wavLayout(from) : null;
        if (layout) {
          await mkdir(path.dirname(to), { recursive: true });
          return await cutWav(roots, journal, call, { image: from, layout, start, end, tags: tags as Record<string, string>, target: to });
        }
        const { seek, trim } = await extractWindow(from, start, end, (file) => rateOf(file, call.signal));
        const rate = format.lossy ? rateArgs(name, bitrate ?? 320, undefined) : [];
        return await produce(to, from, (temp) => [...NO_NETWORK, ...seek, '-i', from, ...streams(format), '-af', trim, '-map_metadata', '-1', ...metadata, ...format.codec, ...rate, ...id3(format), '-f', format.muxer, temp], call);
      } catch (error) {
        throw asPluginError(error);
      }
    },
  };
}

/** `caps.ffmpeg` with the conversion presets added: their names go here, every other preset to media-tools.ts. */
export function withConvertPresets(
  base: Record<string, HostFunction>,
  roots: MediaRoots,
  filesAccess: 'read' | 'write' | null,
  journal: TagJournal | null = null,
): Record<string, HostFunction> {
  const presets = convertPresets(roots, filesAccess, journal);
  const baseRun = base.run!;
  return {
    ...base,
    run: async (args, call) => {
      const job = args[0];
      const preset = typeof job === 'object' && job !== null ? (job as Record<string, unknown>).preset : undefined;
      if (typeof preset === 'string' && Object.hasOwn(presets, preset)) return presets[preset]!(args, call);
      return baseRun(args, call);
    },
  };
}
