/**
 * Encodes tagged audio files with ffmpeg: synthetic audio + tags + embedded cover per file, several files
 * per ffmpeg run (starting ffmpeg costs more than encoding a few seconds of audio).
 */
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { invalid } from '@tagsonic/core/errors';
import { absolute, ensureDir, type BuildContext } from './library-context.ts';
import { BITEXACT, codecArgs, metadataBlockPicture, outputSampleRate, runFfmpeg, voiceSource, type Voice } from './library-media.ts';
import { ffmpegTagArgs } from './library-tags.ts';
import type { AudioFormat, EmbeddedCover, ImageInfo, LibraryFile, TrackTags } from './library-types.ts';

export interface CoverImage {
  /** Absolute path of the image file. */
  path: string;
  info: ImageInfo;
}

export interface EncodeRequest {
  path: string;
  format: AudioFormat;
  id3v2Version?: 3 | 4;
  /** One voice, or several played one after another (a CUE image). */
  voices: { voice: Voice; durationSec: number }[];
  tags: TrackTags | undefined;
  cover?: CoverImage;
}

// Linux caps one argument at 128 KiB; the base64 picture travels as a single -metadata argument.
const MAX_PICTURE_ARGUMENT = 120_000;

const round3 = (value: number): number => Math.round(value * 1000) / 1000;

/** Encodes every request in one ffmpeg run (one output file per request). */
export const encodeBatch = async (ctx: BuildContext, requests: readonly EncodeRequest[]): Promise<LibraryFile[]> => {
  const inputs: string[] = [];
  const graphs: string[] = [];
  const outputs: string[] = [];
  const entries: LibraryFile[] = [];
  let inputCount = 0;

  for (const [index, request] of requests.entries()) {
    const { format } = request;
    const id3v2Version = format === 'mp3' ? (request.id3v2Version ?? 4) : undefined;
    const plan = ffmpegTagArgs(format, request.tags, id3v2Version);
    const first = request.voices[0].voice;

    const audioInputs = request.voices.map(({ voice, durationSec }) => {
      inputs.push('-f', 'lavfi', '-i', voiceSource(voice, durationSec));
      return inputCount++;
    });
    let audioMap = `${audioInputs[0]}:a`;
    if (audioInputs.length > 1) {
      // Voices may differ in rate and layout; normalise them before concatenating one image.
      const layout = first.channels === 2 ? 'stereo' : 'mono';
      const normalised = audioInputs.map((input, i) => `[${input}:a]aresample=${first.sampleRate},aformat=channel_layouts=${layout}[n${index}_${i}]`);
      const labels = audioInputs.map((_, i) => `[n${index}_${i}]`).join('');
      graphs.push('-filter_complex', `${normalised.join(';')};${labels}concat=n=${audioInputs.length}:v=0:a=1[out${index}]`);
      audioMap = `[out${index}]`;
    }

    const output: string[] = ['-map', audioMap];
    let cover: EmbeddedCover | undefined;
    if (request.cover !== undefined && format !== 'wav') {
      const { path, info } = request.cover;
      if (format === 'ogg' || format === 'opus') {
        // ffmpeg 5.1's ogg muxer takes no picture stream: write the FLAC picture block as a comment.
        const picture = metadataBlockPicture(new Uint8Array(await readFile(path)), info);
        if (picture.length > MAX_PICTURE_ARGUMENT)
          throw invalid('TAGSONIC_ERR_TESTLIB_COVER_TOO_BIG', `A ${info.bytes}-byte cover is too big to pass to ffmpeg as a METADATA_BLOCK_PICTURE argument; use a smaller image for Ogg/Opus.`);
        output.push('-metadata', `METADATA_BLOCK_PICTURE=${picture}`);
        cover = { ...info, via: 'metadata_block_picture' };
      } else {
        inputs.push('-i', path);
        output.push('-map', `${inputCount++}:v`, '-c:v', 'copy', '-disposition:v:0', 'attached_pic', '-metadata:s:v', 'title=Cover', '-metadata:s:v', 'comment=Cover (front)');
        cover = { ...info, via: 'attached_pic' };
      }
    }
    output.push(...codecArgs(format), '-map_metadata', '-1', ...BITEXACT, ...plan.args);
    const tagged = plan.tags !== undefined || cover !== undefined;
    // Version 0 makes the mp3 muxer write no ID3v2 tag at all, for the "no tags" files.
    if (format === 'mp3') output.push('-id3v2_version', tagged ? String(id3v2Version) : '0');
    const target = absolute(ctx, request.path);
    await ensureDir(ctx, dirname(target));
    outputs.push(...output, target);

    const entry: LibraryFile = {
      path: request.path,
      kind: 'audio',
      format,
      writer: 'ffmpeg',
      durationSec: round3(request.voices.reduce((sum, v) => sum + v.durationSec, 0)),
      sampleRate: outputSampleRate(format, first),
      channels: first.channels,
    };
    if (id3v2Version !== undefined && tagged) entry.id3v2Version = id3v2Version as 3 | 4;
    if (plan.tags !== undefined) entry.tags = plan.tags;
    if (plan.nonStandard !== undefined) entry.nonStandard = plan.nonStandard;
    if (cover !== undefined) entry.cover = cover;
    entries.push(entry);
  }
  await runFfmpeg([...inputs, ...graphs, ...outputs]);
  return entries;
};
