/** The non-audio files of a library: LRC sidecars, CUE sheets, and the broken or odd files scanners meet. */
import { readFile } from 'node:fs/promises';
import iconv from 'iconv-lite';
import { invalid } from '@tagsonic/core/errors';
import { absolute, writeRelative, type BuildContext } from './library-context.ts';
import type { Random } from './library-random.ts';
import type { CueSheet, CueTrack, LibraryFile, LrcLine } from './library-types.ts';

const lrcTime = (seconds: number): string => {
  const centis = Math.round(seconds * 100);
  const minutes = Math.floor(centis / 6000);
  const rest = centis - minutes * 6000;
  return `${String(minutes).padStart(2, '0')}:${String(Math.floor(rest / 100)).padStart(2, '0')}.${String(rest % 100).padStart(2, '0')}`;
};

/** Writes `<audio without extension>.lrc` with timed lines spread over the track. */
export const writeLrc = async (
  ctx: BuildContext,
  audioPath: string,
  meta: { artist?: string; title?: string; album?: string },
  texts: string[],
  durationSec: number,
): Promise<LibraryFile> => {
  const path = audioPath.replace(/\.[^./]+$/, '.lrc');
  const lines: LrcLine[] = texts.map((text, i) => ({ timeSec: Math.round(((durationSec * 0.9 * i) / texts.length) * 100) / 100, text }));
  const header = [
    meta.artist === undefined ? undefined : `[ar:${meta.artist}]`,
    meta.title === undefined ? undefined : `[ti:${meta.title}]`,
    meta.album === undefined ? undefined : `[al:${meta.album}]`,
    '[by:tagsonic-test]',
  ].filter((line) => line !== undefined);
  const body = lines.map((line) => `[${lrcTime(line.timeSec)}]${line.text}`);
  await writeRelative(ctx, path, `${[...header, ...body].join('\n')}\n`);
  return { path, kind: 'lyrics', sidecarOf: audioPath, lrc: lines };
};

/** `MM:SS:FF`, 75 frames per second, as CUE sheets count. */
const cueTime = (seconds: number): string => {
  const frames = Math.round(seconds * 75);
  const minutes = Math.floor(frames / (75 * 60));
  const secs = Math.floor((frames - minutes * 75 * 60) / 75);
  const rest = frames % 75;
  return [minutes, secs, rest].map((n) => String(n).padStart(2, '0')).join(':');
};

/** Track lengths in whole CUE frames, so every INDEX 01 is exact. */
export const cueDurations = (random: Random, count: number, around: number): number[] =>
  Array.from({ length: count }, () => Math.round(random.float(around * 0.6, around * 1.4) * 75) / 75);

export const buildCueTracks = (titles: { title: string; performer: string }[], durations: number[]): CueTrack[] => {
  let start = 0;
  return titles.map((t, i) => {
    const track: CueTrack = { number: i + 1, title: t.title, performer: t.performer, startSec: Math.round(start * 1000) / 1000, index01: cueTime(start), durationSec: Math.round(durations[i] * 1000) / 1000 };
    start += durations[i];
    return track;
  });
};

const quote = (text: string): string => `"${text.replace(/"/g, "'")}"`;

/** Writes the sheet in UTF-8 or GBK (as Chinese rippers did), CRLF like EAC. */
export const writeCue = async (ctx: BuildContext, sheet: CueSheet): Promise<LibraryFile> => {
  const imageName = sheet.image.slice(sheet.image.lastIndexOf('/') + 1);
  const lines = [
    `REM GENRE ${quote(sheet.genre)}`,
    `REM DATE ${sheet.year}`,
    'REM COMMENT "tagsonic test library"',
    `PERFORMER ${quote(sheet.performer)}`,
    `TITLE ${quote(sheet.title)}`,
    // Rippers write WAVE for FLAC images too.
    `FILE ${quote(imageName)} WAVE`,
  ];
  for (const track of sheet.tracks) {
    lines.push(`  TRACK ${String(track.number).padStart(2, '0')} AUDIO`, `    TITLE ${quote(track.title)}`, `    PERFORMER ${quote(track.performer)}`);
    // A short pregap before later tracks, as real rips have; INDEX 01 stays the track start.
    if (track.number > 1 && track.number % 2 === 0) lines.push(`    INDEX 00 ${cueTime(Math.max(0, track.startSec - 0.4))}`);
    lines.push(`    INDEX 01 ${track.index01}`);
  }
  const text = `${lines.join('\r\n')}\r\n`;
  let content: Uint8Array;
  if (sheet.encoding === 'gbk') {
    content = iconv.encode(text, 'gbk');
    if (iconv.decode(Buffer.from(content), 'gbk') !== text)
      throw invalid('TAGSONIC_ERR_TESTLIB_GBK', 'A CUE sheet meant for GBK holds characters GBK cannot encode.');
  } else {
    content = Buffer.from(text, 'utf8');
  }
  await writeRelative(ctx, sheet.path, content);
  ctx.cues.push(sheet);
  return { path: sheet.path, kind: 'cue' };
};

/** Random bytes without any 0xFF, so no MPEG frame sync can appear and no decoder finds audio in it. */
export const writeCorruptMp3 = async (ctx: BuildContext, path: string, random: Random): Promise<LibraryFile> => {
  const bytes = new Uint8Array(6_000);
  for (let i = 0; i < bytes.length; i++) bytes[i] = random.int(0, 254);
  bytes[0] = 0x00;
  await writeRelative(ctx, path, bytes);
  return { path, kind: 'corrupt', format: 'mp3', problem: 'random-bytes' };
};

/** Keeps the first half of an already written FLAC: STREAMINFO intact, audio cut off. */
export const truncateInPlace = async (ctx: BuildContext, entry: LibraryFile): Promise<LibraryFile> => {
  const full = await readFile(absolute(ctx, entry.path));
  await writeRelative(ctx, entry.path, full.subarray(0, Math.floor(full.length / 2)));
  return { path: entry.path, kind: 'corrupt', format: entry.format, problem: 'truncated', durationSec: entry.durationSec };
};

export const writeEmpty = async (ctx: BuildContext, path: string): Promise<LibraryFile> => {
  await writeRelative(ctx, path, new Uint8Array(0));
  return { path, kind: 'corrupt', format: 'm4a-aac', problem: 'empty' };
};

export const writeStrm = async (ctx: BuildContext, path: string, url: string): Promise<LibraryFile> => {
  await writeRelative(ctx, path, `${url}\n`);
  return { path, kind: 'strm', url };
};

export const writeOther = async (ctx: BuildContext, path: string, text: string): Promise<LibraryFile> => {
  await writeRelative(ctx, path, text);
  return { path, kind: 'other' };
};

export const albumNfo = (album: string, artist: string, year: number): string =>
  [
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>',
    '<album>',
    `  <title>${escapeXml(album)}</title>`,
    `  <artist>${escapeXml(artist)}</artist>`,
    `  <year>${year}</year>`,
    '  <review>Generated for Tagsonic tests.</review>',
    '</album>',
    '',
  ].join('\n');

const escapeXml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
