/** Makes audio and images with Debian's ffmpeg from lavfi sources, varied per seed. */
import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { TagsonicError, unavailable } from '@tagsonic/core/errors';
import { createRandom, type Random } from './library-random.ts';
import type { AudioFormat, ImageInfo } from './library-types.ts';

const FFMPEG_BASE = ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y'];

export const runFfmpeg = (args: readonly string[]): Promise<void> =>
  new Promise((resolve, reject) => {
    const child = spawn('ffmpeg', [...FFMPEG_BASE, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 8_000) stderr += chunk;
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'ENOENT'
          ? unavailable('TAGSONIC_ERR_TESTLIB_FFMPEG_MISSING', 'ffmpeg is not installed or not on PATH; the test library needs it.', error)
          : error,
      );
    });
    child.on('close', (code) => {
      if (code === 0) resolve();
      else
        reject(
          new TagsonicError('internal', 'TAGSONIC_ERR_TESTLIB_FFMPEG_FAILED', `ffmpeg exited with code ${code}: ${stderr.trim().slice(-1_000)}`, {
            details: { args: args.join(' ') },
          }),
        );
    });
  });

/** Runs at most `concurrency` tasks at a time (the machine has 2 cores shared with others). */
export const runLimited = async <T>(tasks: readonly (() => Promise<T>)[], concurrency: number): Promise<T[]> => {
  const results = new Array<T>(tasks.length);
  let nextIndex = 0;
  const worker = async (): Promise<void> => {
    while (nextIndex < tasks.length) {
      const index = nextIndex++;
      results[index] = await tasks[index]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, tasks.length) }, worker));
  return results;
};

/** Splits items into groups of at most `size`. */
export const chunk = <T>(items: readonly T[], size: number): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
};

/** Parameters of one synthetic piece of audio; the same voice always renders the same samples. */
export interface Voice {
  baseHz: number;
  notesPerSec: number;
  /** The melody walks a scale: note n is semitone `mod(n * stride + offset, length) * step`. */
  stride: number;
  offset: number;
  length: number;
  step: number;
  harmonic: number;
  noise: number;
  tremoloHz: number;
  sampleRate: number;
  channels: 1 | 2;
}

export const randomVoice = (random: Random, options: { sampleRate?: number; channels?: 1 | 2 } = {}): Voice => {
  const length = random.int(5, 9);
  return {
    baseHz: random.int(110, 392),
    notesPerSec: random.float(2, 6),
    stride: random.int(1, length - 1),
    offset: random.int(0, length - 1),
    length,
    step: random.int(1, 3),
    harmonic: random.float(0.05, 0.3),
    noise: random.float(0.004, 0.03),
    tremoloHz: random.float(0.2, 3),
    sampleRate: options.sampleRate ?? random.pick([44100, 44100, 48000]),
    channels: options.channels ?? (random.chance(0.8) ? 2 : 1),
  };
};

const fixed = (value: number): string => value.toFixed(4);

// Evaluating an expression per sample is ffmpeg's slow part: render at a low rate (the melody stays far
// below its Nyquist limit; chromaprint itself listens at 11025 Hz), then resample.
const RENDER_RATE = 11025;

/**
 * A stepped melody with a harmonic, per-note decay, tremolo and a little noise. Pure sines give empty
 * chromaprint fingerprints; note changes and transients give each voice its own fingerprint.
 */
const voiceExpression = (voice: Voice): string => {
  const note = `floor(t*${fixed(voice.notesPerSec)})`;
  const freq = `${voice.baseHz}*pow(2,mod(${note}*${voice.stride}+${voice.offset},${voice.length})*${voice.step}/12)`;
  const decay = `(1-0.6*mod(t*${fixed(voice.notesPerSec)},1))`;
  const tremolo = `(0.75+0.25*sin(2*PI*${fixed(voice.tremoloHz)}*t))`;
  return (
    `st(1,${freq});` +
    `0.3*${decay}*${tremolo}*(sin(2*PI*ld(1)*t)+${fixed(voice.harmonic)}*sin(4*PI*ld(1)*t))` +
    `+${fixed(voice.noise)}*(2*random(0)-1)`
  );
};

/** A lavfi input (`-f lavfi -i <this>`) rendering the voice for `durationSec`. */
export const voiceSource = (voice: Voice, durationSec: number): string => {
  // Quoting keeps the expression's commas and semicolons from splitting the filtergraph.
  const source = `aevalsrc=exprs='${voiceExpression(voice)}':s=${RENDER_RATE}:d=${durationSec}`;
  const layout = voice.channels === 2 ? ',pan=stereo|c0=c0|c1=0.85*c0' : '';
  return `${source},aresample=${voice.sampleRate}${layout}`;
};

/** The sample rate the encoder will actually produce (libopus only does 48 kHz here). */
export const outputSampleRate = (format: AudioFormat, voice: Voice): number => (format === 'opus' ? 48000 : voice.sampleRate);

export const codecArgs = (format: AudioFormat): string[] => {
  switch (format) {
    case 'mp3':
      return ['-c:a', 'libmp3lame', '-q:a', '6'];
    case 'flac':
      return ['-c:a', 'flac', '-compression_level', '5'];
    case 'm4a-aac':
      return ['-c:a', 'aac', '-b:a', '96k'];
    case 'm4a-alac':
      return ['-c:a', 'alac'];
    case 'ogg':
      return ['-c:a', 'libvorbis', '-q:a', '2'];
    case 'opus':
      return ['-c:a', 'libopus', '-b:a', '64k', '-ar', '48000'];
    case 'wav':
      return ['-c:a', 'pcm_s16le'];
  }
};

/** Keeps output identical across runs: no encoder version tags, no timestamps. */
export const BITEXACT = ['-fflags', '+bitexact', '-flags:a', '+bitexact'];

export interface ImageSpec {
  mime: 'image/jpeg' | 'image/png';
  width: number;
  height: number;
  source: 'waves' | 'mandelbrot' | 'testsrc2' | 'cellauto';
  seed: number;
}

const imageSource = (spec: ImageSpec): string => {
  const size = `s=${spec.width}x${spec.height}`;
  switch (spec.source) {
    case 'waves': {
      // ffmpeg's own `gradients` source is not reproducible between runs; geq is. It is slow per pixel,
      // so paint a small canvas and scale it up (the picture is smooth anyway).
      const r = createRandom(spec.seed);
      const c = () => fixed(r.float(1, 12));
      const p = () => fixed(r.float(0, 6.28));
      const geq =
        `geq=r='128+127*sin(X*${c()}/W+Y*${c()}/H+${p()})'` +
        `:g='128+127*sin(hypot(X-W*${fixed(r.next())},Y-H*${fixed(r.next())})*${c()}/W+${p()})'` +
        `:b='128+127*cos(X*Y*${c()}/(W*H)+${p()})'`;
      return `color=c=black:s=96x96:d=1,format=rgb24,${geq},scale=${spec.width}:${spec.height}:flags=bicubic`;
    }
    case 'mandelbrot':
      return `mandelbrot=${size}:maxiter=256:start_x=${fixed(-0.75 + (spec.seed % 7) * 0.01)}:start_y=${fixed(0.1 + (spec.seed % 5) * 0.002)}:start_scale=${fixed(0.2 + (spec.seed % 9) * 0.3)}:end_pts=1`;
    case 'testsrc2':
      return `testsrc2=${size}`;
    case 'cellauto':
      return `cellauto=${size}:rule=${[18, 30, 90, 110, 150][spec.seed % 5]}:seed=${spec.seed}`;
  }
};

/** Renders several images in one ffmpeg run. */
export const makeImages = async (images: readonly { path: string; spec: ImageSpec }[]): Promise<ImageInfo[]> => {
  if (images.length === 0) return [];
  const inputs = images.flatMap(({ spec }) => ['-f', 'lavfi', '-i', imageSource(spec)]);
  const outputs = images.flatMap(({ path, spec }, i) => [
    '-map',
    `${i}:v`,
    '-frames:v',
    '1',
    '-fflags',
    '+bitexact',
    ...(spec.mime === 'image/jpeg' ? ['-pix_fmt', 'yuvj420p', '-q:v', '4'] : ['-pix_fmt', 'rgb24']),
    '-update',
    '1',
    path,
  ]);
  await runFfmpeg([...inputs, ...outputs]);
  return Promise.all(
    images.map(async ({ path, spec }) => ({ mime: spec.mime, width: spec.width, height: spec.height, bytes: (await stat(path)).size })),
  );
};

/**
 * The base64 FLAC PICTURE block that Ogg Vorbis and Opus carry as a METADATA_BLOCK_PICTURE comment
 * (ffmpeg 5.1's ogg muxer cannot take a picture stream).
 */
export const metadataBlockPicture = (data: Uint8Array, info: ImageInfo, description = 'Cover'): string => {
  const mime = Buffer.from(info.mime, 'ascii');
  const desc = Buffer.from(description, 'utf8');
  const block = Buffer.alloc(32 + mime.length + desc.length + data.length);
  let at = 0;
  const u32 = (value: number) => {
    block.writeUInt32BE(value, at);
    at += 4;
  };
  u32(3); // front cover
  u32(mime.length);
  at += mime.copy(block, at);
  u32(desc.length);
  at += desc.copy(block, at);
  u32(info.width);
  u32(info.height);
  u32(24); // colour depth: we only make yuvj420p JPEGs and rgb24 PNGs
  u32(0); // not indexed
  u32(data.length);
  Buffer.from(data.buffer, data.byteOffset, data.byteLength).copy(block, at);
  return block.toString('base64');
};
