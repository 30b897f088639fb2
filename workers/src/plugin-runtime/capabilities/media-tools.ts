/**
 * `caps.ffmpeg` and `caps.fingerprint`: fixed, reviewed commands on confined paths. Plugins name a preset
 * and its few typed parameters; they never pass an ffmpeg argument, so no `-i http://…`, no filter graph that
 * reads another file, no output outside the roots. Processes are spawned directly (no shell), with a time
 * limit, a cap on what is read from them and a small concurrency limit, as core/src/transcode does.
 */
import { spawn } from 'node:child_process';
import { lstat, mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { MediaRoots } from '@tagsonic/core/media';
import { Limiter } from '@tagsonic/core/transcode';
import { isAudioName } from '@tagsonic/core/files';
import { TagsonicError } from '@tagsonic/core/errors';
import { fileDigest, type TagJournal } from '@tagsonic/core/tags';
import type { HostCall, HostFunction } from '../../plugin-host/index.ts';
import { placeCreated } from './created.ts';
import { asPluginError, CONFLICT, denied, failed, invalidArgument, limit, optionalNumber, optionsOf, stringField } from './args.ts';
import { toolPath, type ToolName } from '@tagsonic/core';

/** One ffmpeg/fpcalc run may take this long (a long FLAC converts in well under a minute here). */
export const TOOL_TIMEOUT_MS = 5 * 60_000;
const FPCALC_TIMEOUT_MS = 60_000;
const MAX_STDOUT_BYTES = 16 * 1024 * 1024;
const QUEUE_WAIT_MS = 60_000;
/** Shared by every plugin in the process: two tool processes at a time, the rest wait (then `…_LIMIT`). */
const limiter = new Limiter(2);

const FORMATS = {
  mp3: { args: ['-c:a', 'libmp3lame'], ext: 'mp3', lossy: true },
  flac: { args: ['-c:a', 'flac'], ext: 'flac', lossy: false },
  m4a: { args: ['-c:a', 'aac'], ext: 'm4a', lossy: true },
  ogg: { args: ['-c:a', 'libvorbis'], ext: 'ogg', lossy: true },
  opus: { args: ['-c:a', 'libopus'], ext: 'opus', lossy: true },
  wav: { args: ['-c:a', 'pcm_s16le'], ext: 'wav', lossy: false },
} as const;
type Format = keyof typeof FORMATS;

interface RunResult {
  stdout: Buffer;
  stderr: string;
}

/** Characters of a tool's stderr kept (its end). */
const STDERR_KEPT = 64 * 1024;

/** Runs a tool with fixed arguments; non-zero exit, a timeout or a missing binary is `…_FAILED`. */
/** The tools resolved through <data>/bin first (core/tools.ts); anything else (a test's sh) is spawned as named. */
const TOOLS: ReadonlySet<string> = new Set<ToolName>(['ffmpeg', 'ffprobe', 'fpcalc']);

export async function runTool(command: ToolName | (string & {}), args: string[], timeoutMs: number, signal?: AbortSignal, okExit: (code: number | null) => boolean = (code) => code === 0): Promise<RunResult> {
  const release = await limiter.acquire(QUEUE_WAIT_MS).catch(() => {
    throw limit(`${command}: too many ${command} runs are queued; try again later`);
  });
  try {
    return await new Promise<RunResult>((resolve, reject) => {
      const child = spawn(TOOLS.has(command) ? toolPath(command as ToolName) : command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      const chunks: Buffer[] = [];
      let size = 0;
      let stderr = '';
      let why: string | null = null;
      const stop = (reason: string) => {
        why ??= reason;
        child.kill('SIGKILL');
      };
      const timer = setTimeout(() => stop(`did not finish within ${Math.round(timeoutMs / 1000)} s`), timeoutMs);
      const onAbort = () => stop('the plugin invocation ended');
      signal?.addEventListener('abort', onAbort, { once: true });
      child.stdout.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_STDOUT_BYTES) stop(`wrote more than ${MAX_STDOUT_BYTES} bytes`);
        else chunks.push(chunk);
      });
      // The end of stderr is what matters (ffmpeg's loudness summary, the last error); a file's long tags
      // (lyrics) printed first must not push it out, so the last STDERR_KEPT characters are kept.
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.length > STDERR_KEPT * 2) stderr = stderr.slice(-STDERR_KEPT);
      });
      child.once('error', (error) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        reject(failed(`${command} could not be started: ${error.message}`));
      });
      child.once('close', (code) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (why) reject(failed(`${command} ${why}`));
        else if (!okExit(code)) reject(failed(`${command} failed (exit ${code}): ${lastLine(stderr)}`));
        else resolve({ stdout: Buffer.concat(chunks), stderr: stderr.slice(-STDERR_KEPT) });
      });
    });
  } finally {
    release();
  }
}

/**
 * A tool's input: inside the roots and named as audio. ffmpeg picks a demuxer by content, and some (HLS, concat
 * lists) would read other files or URLs named inside; refusing non-audio names keeps a plugin from pointing the
 * tools at a playlist, and `-protocol_whitelist file` keeps ffmpeg off the network whatever a file says.
 */
export async function audioInput(roots: MediaRoots, options: Record<string, unknown>, key: string, what: string): Promise<string> {
  const target = await roots.resolve(stringField(options, key, what));
  if (!isAudioName(path.basename(target.path))) throw invalidArgument(`${what}: ${String(options[key])} is not an audio file`);
  return target.path;
}

export const NO_NETWORK = ['-protocol_whitelist', 'file'];

export function fingerprintCapability(roots: MediaRoots): Record<string, HostFunction> {
  return {
    compute: async (args, call) => {
      try {
        const file = await audioInput(roots, optionsOf(args, 'fingerprint.compute'), 'path', 'fingerprint.compute');
        // `--` ends options: a file named "-length" is a file.
        // fpcalc exits 3 when the last frames do not decode but still prints the fingerprint of the rest.
        const { stdout } = await runTool('fpcalc', ['-json', '--', file], FPCALC_TIMEOUT_MS, call.signal, (code) => code === 0 || code === 3);
        let parsed: { duration?: unknown; fingerprint?: unknown } = {};
        try {
          parsed = JSON.parse(stdout.toString('utf8')) as typeof parsed;
        } catch {
          // no JSON: reported below
        }
        if (typeof parsed.fingerprint !== 'string' || typeof parsed.duration !== 'number') throw failed('fpcalc gave no fingerprint for this file');
        return { fingerprint: parsed.fingerprint, duration: parsed.duration };
      } catch (error) {
        throw asPluginError(error);
      }
    },
  };
}

/**
 * `files: write` decides whether a preset may write its `output` (convert, cut); reading presets need only
 * the `ffmpeg` grant. Outputs are written to a temp name beside the target and renamed, never over a file; for a
 * task the output is journaled as created (created.ts), so undo_task moves it into the task's trash.
 */
export function ffmpegCapability(roots: MediaRoots, filesAccess: 'read' | 'write' | null, journal: TagJournal | null = null): Record<string, HostFunction> {
  const input = (options: Record<string, unknown>) => audioInput(roots, options, 'input', 'ffmpeg.run');
  const output = async (options: Record<string, unknown>, format: Format) => {
    if (filesAccess !== 'write') throw denied('ffmpeg.run: writing an output needs the files write grant');
    const target = await roots.resolve(stringField(options, 'output', 'ffmpeg.run'), { mustExist: false });
    if (target.exists) throw new TagsonicError('conflict', CONFLICT, `ffmpeg.run: ${String(options.output)} already exists`);
    if (path.extname(target.path).slice(1).toLowerCase() !== FORMATS[format].ext) {
      throw invalidArgument(`ffmpeg.run: the output of a ${format} file must end in .${FORMATS[format].ext}`);
    }
    return target.path;
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

  return {
    run: async (args, call) => {
      const job = optionsOf(args, 'ffmpeg.run');
      try {
        switch (job.preset) {
          case 'probe': {
            const file = await input(job);
            const { stdout } = await runTool('ffprobe', [...NO_NETWORK, '-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', '-select_streams', 'a:0', '--', file], TOOL_TIMEOUT_MS, call.signal);
            const info = JSON.parse(stdout.toString('utf8')) as { format?: { duration?: string; bit_rate?: string }; streams?: Array<{ codec_name?: string; sample_rate?: string; channels?: number }> };
            const stream = info.streams?.[0];
            if (!stream) throw invalidArgument(`ffmpeg.run: ${String(job.input)} has no audio stream`);
            return {
              duration: Number(info.format?.duration ?? 0),
              codec: stream.codec_name ?? '',
              bitrate: Number(info.format?.bit_rate ?? 0),
              sampleRate: Number(stream.sample_rate ?? 0),
              channels: stream.channels ?? 0,
            };
          }
          case 'convert': {
            const format = job.format as Format;
            if (typeof format !== 'string' || !Object.hasOwn(FORMATS, format)) throw invalidArgument(`ffmpeg.run: format must be one of ${Object.keys(FORMATS).join(', ')}`);
            const bitrate = optionalNumber(job, 'bitrateKbps', 'ffmpeg.run', 32, 512);
            const from = await input(job);
            const to = await output(job, format);
            const rate = FORMATS[format].lossy ? ['-b:a', `${Math.round(bitrate ?? 320)}k`] : [];
            return await produce(to, from, (temp) => [...NO_NETWORK, '-i', from, '-map', '0:a:0', '-map_metadata', '0', ...FORMATS[format].args, ...rate, '-f', muxerOf(format), temp], call);
          }
          case 'cut': {
            const start = optionalNumber(job, 'start', 'ffmpeg.run', 0, 24 * 3600) ?? 0;
            const end = optionalNumber(job, 'end', 'ffmpeg.run', 0, 24 * 3600);
            if (end === undefined || end <= start) throw invalidArgument('ffmpeg.run: cut needs an end after its start (seconds)');
            const from = await input(job);
            const ext = path.extname(String(job.output)).slice(1).toLowerCase() as Format;
            if (!Object.hasOwn(FORMATS, ext)) throw invalidArgument(`ffmpeg.run: the output must end in one of .${Object.keys(FORMATS).join(', .')}`);
            const to = await output(job, ext);
            return await produce(to, from, (temp) => [...NO_NETWORK, '-ss', String(start), '-to', String(end), '-i', from, '-map', '0:a:0', '-map_metadata', '0', ...FORMATS[ext].args, '-f', muxerOf(ext), temp], call);
          }
          case 'loudness': {
            const file = await input(job);
            const { stderr } = await runTool('ffmpeg', ['-nostdin', '-hide_banner', '-v', 'info', ...NO_NETWORK, '-i', file, '-map', '0:a:0', '-af', 'ebur128=peak=true', '-f', 'null', '-'], TOOL_TIMEOUT_MS, call.signal);
            const integrated = /I:\s+(-?[\d.]+) LUFS/.exec(stderr.slice(stderr.lastIndexOf('Summary:')));
            const peak = /Peak:\s+(-?[\d.]+|-inf) dBFS/.exec(stderr.slice(stderr.lastIndexOf('Summary:')));
            if (!integrated) throw failed('ffmpeg did not report the loudness of this file');
            // ReplayGain 2.0: reference −18 LUFS; the peak as a linear amplitude.
            const gain = -18 - Number(integrated[1]);
            const peakLinear = !peak || peak[1] === '-inf' ? 0 : 10 ** (Number(peak[1]) / 20);
            return { trackGain: `${gain >= 0 ? '+' : ''}${gain.toFixed(2)} dB`, trackPeak: peakLinear.toFixed(6) };
          }
          case 'extract-cover': {
            const file = await input(job);
            // ffmpeg fails on a file without a picture stream; asking first tells "no cover" from a broken file.
            const streams = await runTool('ffprobe', [...NO_NETWORK, '-v', 'error', '-select_streams', 'v', '-show_entries', 'stream=index', '-of', 'csv=p=0', '--', file], TOOL_TIMEOUT_MS, call.signal);
            if (streams.stdout.toString('utf8').trim() === '') return null;
            const { stdout } = await runTool('ffmpeg', ['-nostdin', '-hide_banner', '-v', 'error', ...NO_NETWORK, '-i', file, '-map', '0:v:0?', '-frames:v', '1', '-c:v', 'mjpeg', '-f', 'image2pipe', '-'], TOOL_TIMEOUT_MS, call.signal);
            return stdout.length === 0 ? null : { mime: 'image/jpeg', data: new Uint8Array(stdout) };
          }
          default:
            throw invalidArgument('ffmpeg.run: preset must be one of probe, convert, cut, loudness, extract-cover');
        }
      } catch (error) {
        throw asPluginError(error);
      }
    },
  };
}

const muxerOf = (format: Format): string => (format === 'm4a' ? 'ipod' : format === 'opus' ? 'opus' : format);

function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  return (lines[lines.length - 1] ?? '').slice(0, 300);
}
