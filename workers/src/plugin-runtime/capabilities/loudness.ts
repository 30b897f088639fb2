/**
 * `caps.ffmpeg.run({ preset: 'loudness-album', inputs })`: ReplayGain 2.0 of an album's tracks and of the album
 * as a whole, EBU R128 measured by ffmpeg's ebur128 filter.
 *
 * Why not the `loudness` preset's summary: ffmpeg prints the integrated loudness and the true peak with one
 * decimal only, and an album's loudness cannot be derived from its tracks' integrated values (the power mean of
 * the tracks misses the album's own relative gate: a quiet interlude inside a loud album is gated out of the
 * album but counted by the mean — 0.3 dB off on three generated tracks), nor measured well over a concatenation
 * (blocks straddle the joins and every track is decoded twice). So each track is decoded once with the filter's
 * per-100 ms metadata (momentary loudness of the 400 ms block ending there, true peak), and the gating of
 * BS.1770-4 is done here: per track over its blocks, per album over the union of its tracks' blocks — exactly
 * what libebur128 (loudgain, foobar2000) computes for an album.
 *
 * Gains are against the ReplayGain 2.0 reference of −18 LUFS; peaks are linear true peaks (max over channels).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { MediaRoots } from '@tagsonic/core/media';
import { Limiter } from '@tagsonic/core/transcode';
import { isAudioName } from '@tagsonic/core/files';
import type { HostFunction } from '../../plugin-host/index.ts';
import { asPluginError, failed, invalidArgument, limit, optionsOf } from './args.ts';
import { toolPath } from '@tagsonic/core';

export const REPLAYGAIN_REFERENCE_LUFS = -18;
/** One album per call; more tracks than this is not an album (and would hold the worker's slots for long). */
export const MAX_ALBUM_TRACKS = 200;
const TIMEOUT_MS = 10 * 60_000;
const QUEUE_WAIT_MS = 5 * 60_000;
const ABSOLUTE_GATE = -70;
const RELATIVE_GATE = -10;
/**
 * Two analyses at a time per worker: an album's tracks share them, so a 12-track album uses both cores of a
 * small NAS without queueing behind itself for minutes.
 */
const limiter = new Limiter(2);

/** One track's measurement: its 400 ms blocks' energies (above the absolute gate) and its true peak. */
export interface TrackLoudness {
  energies: number[];
  peak: number;
}

/** BS.1770 block energy → loudness (LUFS). */
const lufs = (energy: number) => -0.691 + 10 * Math.log10(energy);
const energyOf = (momentary: number) => 10 ** ((momentary + 0.691) / 10);

/**
 * Integrated loudness of the given blocks (BS.1770-4 gating: absolute −70 LUFS, then relative −10 LU below the
 * mean of the blocks above the absolute gate); null when nothing is above the absolute gate (silence).
 */
export function gatedLoudness(energies: readonly number[]): number | null {
  if (energies.length === 0) return null;
  let sum = 0;
  for (const e of energies) sum += e;
  const threshold = energyOf(lufs(sum / energies.length) + RELATIVE_GATE);
  let kept = 0;
  let keptSum = 0;
  for (const e of energies) {
    if (e > threshold) {
      kept++;
      keptSum += e;
    }
  }
  return kept === 0 ? null : lufs(keptSum / kept);
}

export const formatGain = (loudness: number): string => {
  const gain = REPLAYGAIN_REFERENCE_LUFS - loudness;
  return `${gain >= 0 ? '+' : ''}${gain.toFixed(2)} dB`;
};
export const formatPeak = (peak: number): string => peak.toFixed(6);

/**
 * Tracks measured by one ffmpeg process: a process per track cost more than the measuring of a short track (the
 * 10k library's 5 s tracks: ~4× loudgain's time), so up to 32 tracks share one. Each track's chain is
 * `ebur128` in metadata mode → `ametadata` printing to its own pipe (fd 3, 4 …), so the lines of the tracks never
 * mix; the chains are joined by `concat`, which pulls one input after the other.
 */
const TRACKS_PER_PROCESS = 32;

/** Decodes each file once through ebur128 (metadata mode) and reads its blocks and true peak from its pipe. */
async function measure(files: string[], signal?: AbortSignal): Promise<TrackLoudness[]> {
  const release = await limiter.acquire(QUEUE_WAIT_MS).catch(() => {
    throw limit('ffmpeg: too many loudness analyses are queued; try again later');
  });
  try {
    return await new Promise<TrackLoudness[]>((resolve, reject) => {
      const args = ['-nostdin', '-hide_banner', '-nostats', '-v', 'info'];
      for (const file of files) args.push('-protocol_whitelist', 'file', '-i', file);
      // A fixed filter graph; `pipe:N` is ametadata's file option, escaped twice: for the option parser and the graph
      // parser. `aresample` after the measurement: concat needs one format for all its inputs, and without a
      // converter there lavfi converts each track before ebur128 instead (a 48 kHz noise track resampled to 44.1 kHz
      // measured 0.16 dB quieter, a mono track upmixed). Info level for each filter's summary (its true peak in dBFS:
      // the precise one for quiet tracks).
      const chains = files.map((_, i) => `[${i}:a:0]ebur128=metadata=1:peak=true,ametadata=mode=print:file=pipe\\\\:${i + 3},aresample[m${i}]`);
      const joined = `${files.map((_, i) => `[m${i}]`).join('')}concat=n=${files.length}:v=0:a=1[out]`;
      args.push('-filter_complex', [...chains, joined].join(';'), '-map', '[out]', '-f', 'null', '-');
      const child = spawn(toolPath('ffmpeg'), args, { stdio: ['ignore', 'ignore', 'pipe', ...files.map(() => 'pipe' as const)] });
      const tracks = files.map(() => ({ energies: [] as number[], peak: 0 }));
      let stderr = '';
      let why: string | null = null;
      const stop = (reason: string) => {
        why ??= reason;
        child.kill('SIGKILL');
      };
      const timer = setTimeout(() => stop(`did not finish within ${TIMEOUT_MS / 60_000} minutes`), TIMEOUT_MS);
      const onAbort = () => stop('the plugin invocation ended');
      signal?.addEventListener('abort', onAbort, { once: true });
      const rests = files.map(() => '');
      const line = (i: number, text: string) => {
        // Streamed, never buffered whole: a two-hour mix prints ~20 MB of metadata lines.
        if (text.startsWith('lavfi.r128.M=')) {
          const m = Number(text.slice(13));
          if (m > ABSOLUTE_GATE) tracks[i]!.energies.push(energyOf(m));
        } else if (text.startsWith('lavfi.r128.true_peak=')) {
          const p = Number(text.slice(21));
          if (p > tracks[i]!.peak) tracks[i]!.peak = p;
        }
      };
      files.forEach((_, i) => {
        const out = child.stdio[i + 3] as NodeJS.ReadableStream;
        out.setEncoding('utf8');
        out.on('data', (chunk: string) => {
          const lines = (rests[i] + chunk).split('\n');
          rests[i] = lines.pop() ?? '';
          for (const l of lines) line(i, l);
        });
      });
      child.stderr!.on('data', (chunk: Buffer) => {
        // The tail only: the inputs' tags (lyrics …) come first and may be long; the summaries and errors come last.
        stderr = (stderr + chunk.toString()).slice(-64_000);
      });
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      child.once('error', (error) => {
        done();
        reject(failed(`ffmpeg could not be started: ${error.message}`));
      });
      child.once('close', (code) => {
        done();
        rests.forEach((rest, i) => line(i, rest));
        const last = stderr.trim().split('\n').pop()?.slice(0, 300) ?? '';
        const names = files.map((f) => path.basename(f)).join(', ');
        if (why) reject(failed(`ffmpeg ${why}`));
        else if (code !== 0) reject(failed(`ffmpeg could not measure ${names} (exit ${code}): ${last}`));
        // Chain i's ebur128 is the graph's filter 3i (each chain: ebur128, ametadata, aresample).
        else resolve(tracks.map((t, i) => ({ energies: t.energies, peak: precisePeak(t.peak, summaryOf(stderr, `Parsed_ebur128_${3 * i} `)) })));
      });
    });
  } finally {
    release();
  }
}

/**
 * The summary one ebur128 instance printed (its lines follow its `[Parsed_ebur128_N @ …] Summary:` line). The last
 * one: ffmpeg configures the graph once before the real run, and that first graph prints empty summaries.
 */
function summaryOf(stderr: string, instance: string): string {
  const at = stderr.lastIndexOf(`[${instance}`);
  if (at < 0) return '';
  const from = stderr.indexOf('Summary:', at);
  if (from < 0) return '';
  const next = stderr.indexOf('[Parsed_', from);
  return stderr.slice(from, next < 0 ? undefined : next);
}

/**
 * The metadata's true peak has three decimals (±0.0005: 5 % of a quiet track's 0.009); the summary's has one
 * decimal of dBFS (±0.6 % whatever the level). The better of the two: the metadata's above 0.1, the summary's below.
 */
function precisePeak(fromMetadata: number, summaryText: string): number {
  if (fromMetadata >= 0.1) return fromMetadata;
  const summary = /True peak:\s+Peak:\s+(-?[\d.]+|-inf) dBFS/.exec(summaryText);
  if (!summary) return fromMetadata;
  return summary[1] === '-inf' ? 0 : 10 ** (Number(summary[1]) / 20);
}

/** The `loudness-album` preset: checked inputs → each track's gain/peak and the album's. */
export async function albumLoudness(roots: MediaRoots, inputs: unknown, signal?: AbortSignal) {
  if (!Array.isArray(inputs) || inputs.length === 0 || !inputs.every((i) => typeof i === 'string')) {
    throw invalidArgument('ffmpeg.run: loudness-album needs inputs, a list of audio file paths');
  }
  if (inputs.length > MAX_ALBUM_TRACKS) throw invalidArgument(`ffmpeg.run: loudness-album takes at most ${MAX_ALBUM_TRACKS} tracks`);
  const files: string[] = [];
  for (const input of inputs as string[]) {
    const target = await roots.resolve(input);
    if (!isAudioName(path.basename(target.path))) throw invalidArgument(`ffmpeg.run: ${input} is not an audio file`);
    files.push(target.path);
  }
  const chunks: string[][] = [];
  for (let i = 0; i < files.length; i += TRACKS_PER_PROCESS) chunks.push(files.slice(i, i + TRACKS_PER_PROCESS));
  const measured = (await Promise.all(chunks.map((chunk) => measure(chunk, signal)))).flat();
  const tracks = measured.map((m, i) => {
    const loudness = gatedLoudness(m.energies);
    return {
      input: files[i]!,
      loudness: loudness === null ? null : Math.round(loudness * 100) / 100,
      trackGain: loudness === null ? null : formatGain(loudness),
      trackPeak: formatPeak(m.peak),
    };
  });
  const album = gatedLoudness(measured.flatMap((m) => m.energies));
  return {
    tracks,
    albumLoudness: album === null ? null : Math.round(album * 100) / 100,
    albumGain: album === null ? null : formatGain(album),
    albumPeak: formatPeak(Math.max(0, ...measured.map((m) => m.peak))),
  };
}

/** Adds the `loudness-album` preset to the ffmpeg capability; the other presets are media-tools.ts's. */
export function withAlbumLoudness(roots: MediaRoots, ffmpeg: Record<string, HostFunction>): Record<string, HostFunction> {
  const run = ffmpeg.run!;
  return {
    ...ffmpeg,
    run: async (args, call) => {
      const job = optionsOf(args, 'ffmpeg.run');
      if (job.preset !== 'loudness-album') return run(args, call);
      try {
        return await albumLoudness(roots, job.inputs, call.signal);
      } catch (error) {
        throw asPluginError(error);
      }
    },
  };
}
