/** The small library: ~55 files, every case tests need, all tags written by ffmpeg. */
import { join } from 'node:path';
import { absolute, ensureDir, pad2, type BuildContext } from './library-context.ts';
import { encodeBatch, type CoverImage, type EncodeRequest } from './library-encode.ts';
import {
  albumNfo,
  buildCueTracks,
  cueDurations,
  truncateInPlace,
  writeCorruptMp3,
  writeCue,
  writeEmpty,
  writeLrc,
  writeOther,
  writeStrm,
} from './library-extras.ts';
import { chunk, makeImages, randomVoice, runLimited, type ImageSpec } from './library-media.ts';
import {
  ARTIST_SEPARATORS,
  artistName,
  commentText,
  genreFor,
  genresFor,
  languageFor,
  lyricLines,
  phrase,
  safeFileName,
  uniqueName,
  type Script,
} from './library-names.ts';
import type { Random } from './library-random.ts';
import { FORMAT_EXTENSION, type AudioFormat, type CueSheet, type ImageInfo, type LibraryFile, type TrackTags } from './library-types.ts';

type Mime = 'image/jpeg' | 'image/png';

interface AlbumPlan {
  script: Script;
  format: AudioFormat;
  id3v2Version?: 3 | 4;
  tracks: number;
  /** Two discs in `Disc 1/` and `Disc 2/` folders. */
  twoDiscs?: boolean;
  embedded?: Mime;
  folderCover?: 'cover.jpg' | 'folder.jpg' | 'front.png';
  compilation?: boolean;
  /** Track index → separator joining the main artist and a guest. */
  multiArtist?: Record<number, string>;
  lrc?: number[];
  lyrics?: number[];
  multiGenre?: boolean;
  scan?: boolean;
  nfo?: boolean;
}

const [SLASH, AMPERSAND, IDEOGRAPHIC_COMMA, COMMA, FULLWIDTH_COMMA, FEAT] = ARTIST_SEPARATORS;

// Fixed cases, seeded names: every seed yields every case below.
const ALBUMS: AlbumPlan[] = [
  { script: 'zh-Hans', format: 'mp3', id3v2Version: 4, tracks: 4, embedded: 'image/jpeg', folderCover: 'cover.jpg', multiArtist: { 1: SLASH, 3: FEAT }, lrc: [0, 2], lyrics: [0, 1], scan: true },
  { script: 'zh-Hant', format: 'flac', tracks: 4, embedded: 'image/png', folderCover: 'folder.jpg', multiArtist: { 2: IDEOGRAPHIC_COMMA }, lrc: [1], multiGenre: true, nfo: true },
  { script: 'latin', format: 'm4a-aac', tracks: 3, embedded: 'image/jpeg', multiArtist: { 0: AMPERSAND }, lyrics: [2] },
  { script: 'ja', format: 'm4a-alac', tracks: 3, embedded: 'image/png', folderCover: 'front.png', multiArtist: { 1: FULLWIDTH_COMMA } },
  { script: 'ko', format: 'ogg', tracks: 3, embedded: 'image/jpeg', lyrics: [0], lrc: [2] },
  { script: 'en', format: 'opus', tracks: 3, embedded: 'image/png', multiArtist: { 2: COMMA }, multiGenre: true },
  { script: 'en', format: 'mp3', id3v2Version: 3, tracks: 3, embedded: 'image/png', multiGenre: true, lyrics: [1] },
  { script: 'zh-Hans', format: 'flac', tracks: 4, twoDiscs: true, embedded: 'image/jpeg', folderCover: 'cover.jpg' },
  { script: 'en', format: 'flac', tracks: 4, compilation: true, embedded: 'image/jpeg' },
  { script: 'latin', format: 'wav', tracks: 2 },
];

const GENRE_SEPARATORS = [';', '; ', ', '];
/** Files per ffmpeg run: amortises ffmpeg's start-up while two runs still share the work evenly. */
const ENCODES_PER_FFMPEG = 5;
const COMPILATION_SCRIPTS: Script[] = ['zh-Hans', 'zh-Hant', 'ja', 'ko', 'latin', 'en'];

const coverSpec = (random: Random, mime: Mime, use: 'embedded' | 'ogg' | 'folder'): ImageSpec => {
  const sizes = mime === 'image/jpeg' ? [300, 400, 500, 640] : [200, 256, 320, 400];
  const size = random.pick(sizes) * (use === 'folder' ? 2 : 1);
  // Smooth colour fields make big PNGs and noisy sources big JPEGs; Ogg/Opus pictures travel as one
  // command-line argument, and mandelbrot is slow at folder-cover sizes.
  const sources: ImageSpec['source'][] =
    mime === 'image/png' ? ['testsrc2', 'cellauto'] : use === 'embedded' ? ['waves', 'mandelbrot', 'testsrc2'] : ['waves', 'testsrc2'];
  return { mime, width: size, height: size, source: random.pick(sources), seed: random.int(1, 10_000) };
};

interface Job {
  request: EncodeRequest;
  extra: Partial<LibraryFile>;
  /** Runs once the file is written; returns the manifest entries to record (default: the file itself). */
  finish?: (entry: LibraryFile) => Promise<LibraryFile[]>;
}

export const buildSmallLibrary = async (ctx: BuildContext): Promise<void> => {
  const { formats, durationSec } = ctx.options;
  const formatFor = (preferred: AudioFormat, index: number): AudioFormat =>
    formats.includes(preferred) ? preferred : formats[index % formats.length];
  const takenArtists = new Set<string>(['Various Artists']);
  const takenAlbums = new Set<string>();
  const images: { path: string; spec: ImageSpec; done: (info: ImageInfo) => void }[] = [];
  const folders: string[] = [];
  const jobs: Job[] = [];
  const extras: (() => Promise<LibraryFile | LibraryFile[]>)[] = [];
  let voiceCounter = 0;
  const voiceFor = (random: Random) => ({ voice: randomVoice(random), id: `v${pad2(++voiceCounter)}` });

  ALBUMS.forEach((plan, albumIndex) => {
    const random = ctx.random.fork(`album-${albumIndex}`);
    const format = formatFor(plan.format, albumIndex);
    const ext = FORMAT_EXTENSION[format];
    const mainArtist = uniqueName(takenArtists, () => artistName(plan.script, random));
    const albumArtist = plan.compilation ? 'Various Artists' : mainArtist;
    const album = uniqueName(takenAlbums, () => phrase(plan.script, random));
    const year = random.int(1979, 2024);
    const folder = `${safeFileName(albumArtist)}/${safeFileName(album)}`;
    const genres = plan.multiGenre ? genresFor(plan.script, random, 2) : [genreFor(plan.script, random)];
    const genre = genres.length > 1 ? genres.join(random.pick(GENRE_SEPARATORS)) : genres[0];
    const language = languageFor(plan.script, random);

    let cover: CoverImage | undefined;
    if (plan.embedded !== undefined && format !== 'wav') {
      const spec = coverSpec(random, plan.embedded, format === 'ogg' || format === 'opus' ? 'ogg' : 'embedded');
      const path = join(ctx.scratch, `cover-${albumIndex}.${spec.mime === 'image/png' ? 'png' : 'jpg'}`);
      const image: CoverImage = { path, info: { mime: spec.mime, width: spec.width, height: spec.height, bytes: 0 } };
      cover = image;
      images.push({ path, spec, done: (info) => (image.info = info) });
    }
    if (plan.folderCover !== undefined) {
      const name = plan.folderCover;
      const big = coverSpec(random, name.endsWith('.png') ? 'image/png' : 'image/jpeg', 'folder');
      const relative = `${folder}/${name}`;
      folders.push(folder);
      images.push({ path: absolute(ctx, relative), spec: big, done: (image) => ctx.files.push({ path: relative, kind: 'image', role: 'folder-cover', image }) });
    }
    if (plan.scan) {
      const relative = `${folder}/Scans/booklet-01.jpg`;
      const spec: ImageSpec = { mime: 'image/jpeg', width: 800, height: 600, source: 'waves', seed: random.int(1, 10_000) };
      folders.push(`${folder}/Scans`);
      images.push({ path: absolute(ctx, relative), spec, done: (image) => ctx.files.push({ path: relative, kind: 'image', role: 'scan', image }) });
    }
    if (plan.nfo) extras.push(() => writeOther(ctx, `${folder}/album.nfo`, albumNfo(album, albumArtist, year)));

    const perDisc = plan.twoDiscs ? Math.ceil(plan.tracks / 2) : plan.tracks;
    for (let i = 0; i < plan.tracks; i++) {
      const disc = plan.twoDiscs ? Math.floor(i / perDisc) + 1 : 1;
      const number = plan.twoDiscs ? (i % perDisc) + 1 : i + 1;
      const trackTotal = plan.twoDiscs ? (disc === 1 ? perDisc : plan.tracks - perDisc) : plan.tracks;
      const trackScript = plan.compilation ? COMPILATION_SCRIPTS[i % COMPILATION_SCRIPTS.length] : plan.script;
      const lead = plan.compilation ? uniqueName(takenArtists, () => artistName(trackScript, random)) : mainArtist;
      const separator = plan.multiArtist?.[i];
      const artists = separator === undefined ? [lead] : [lead, uniqueName(takenArtists, () => artistName(trackScript, random))];
      const title = phrase(trackScript, random);
      const tags: TrackTags = {
        title,
        artist: artists.join(separator ?? ''),
        album,
        albumartist: albumArtist,
        genre,
        year,
        track: number,
        trackTotal,
        disc,
        discTotal: plan.twoDiscs ? 2 : 1,
        composer: random.chance(0.5) ? lead : artistName(trackScript, random),
        lyricist: artistName(trackScript, random),
        language: plan.compilation ? languageFor(trackScript, random) : language,
      };
      if (random.chance(0.5)) tags.comment = commentText(random);
      if (plan.lyrics?.includes(i)) tags.lyrics = lyricLines(trackScript, random, 4).join('\n');
      if (plan.compilation) tags.compilation = true;
      const path = `${folder}/${plan.twoDiscs ? `Disc ${disc}/` : ''}${pad2(number)} ${safeFileName(title)}.${ext}`;
      const { voice, id } = voiceFor(random.fork(`voice-${i}`));
      const lrcTexts = plan.lrc?.includes(i) ? lyricLines(trackScript, random, 5) : undefined;
      jobs.push({
        request: { path, format, id3v2Version: plan.id3v2Version, voices: [{ voice, durationSec }], tags, cover },
        extra: {
          audioId: id,
          ...(separator === undefined ? {} : { artists, separator }),
          ...(genres.length > 1 ? { genres } : {}),
        },
        finish:
          lrcTexts === undefined
            ? undefined
            : async (entry) => [entry, await writeLrc(ctx, entry.path, { artist: tags.artist, title, album }, lrcTexts, durationSec)],
      });
    }
  });

  planLooseFiles(ctx, jobs, extras, formatFor, voiceFor, takenArtists);
  planCueAlbums(ctx, jobs, takenArtists, takenAlbums, voiceFor);

  for (const folder of folders) await ensureDir(ctx, absolute(ctx, folder));
  await runLimited(
    chunk(images, Math.ceil(images.length / 2)).map((batch) => async () => {
      const infos = await makeImages(batch);
      batch.forEach((image, i) => image.done(infos[i]));
    }),
    2,
  );
  const encoded = await runLimited(
    chunk(jobs, ENCODES_PER_FFMPEG).map((batch) => async () => {
      const entries = await encodeBatch(ctx, batch.map((job) => job.request));
      const out: LibraryFile[] = [];
      for (const [i, job] of batch.entries()) {
        const entry = { ...entries[i], ...job.extra };
        out.push(...(job.finish === undefined ? [entry] : await job.finish(entry)));
      }
      return out;
    }),
    2,
  );
  ctx.files.push(...encoded.flat());
  for (const extra of extras) ctx.files.push(...[await extra()].flat());
  ctx.notes.push(
    'wav: ffmpeg 5.1 writes RIFF INFO only (title, artist, album, date, genre, comment, language, track) and cannot embed pictures; wav covers are left to the tag engine.',
    'mp3 (ffmpeg): comment, lyrics and compilation are TXXX frames (see nonStandard); m4a (ffmpeg): lyricist and language are not written; vorbis: ffmpeg stores comment as DESCRIPTION.',
  );
};

type FormatFor = (preferred: AudioFormat, index: number) => AudioFormat;
type VoiceFor = (random: Random) => { voice: ReturnType<typeof randomVoice>; id: string };

const planLooseFiles = (
  ctx: BuildContext,
  jobs: Job[],
  extras: (() => Promise<LibraryFile | LibraryFile[]>)[],
  formatFor: FormatFor,
  voiceFor: VoiceFor,
  takenArtists: Set<string>,
): void => {
  const random = ctx.random.fork('loose');
  const { durationSec } = ctx.options;
  const folder = 'Unsorted';
  const add = (name: string, preferred: AudioFormat, index: number, tags: TrackTags | undefined, cover?: CoverImage) => {
    const format = formatFor(preferred, index);
    const { voice, id } = voiceFor(random.fork(`loose-${index}`));
    jobs.push({
      request: { path: `${folder}/${name}.${FORMAT_EXTENSION[format]}`, format, id3v2Version: 4, voices: [{ voice, durationSec }], tags, cover },
      extra: { audioId: id },
    });
  };
  const artist = uniqueName(takenArtists, () => artistName('zh-Hans', random));
  add('track01', 'mp3', 0, { artist, album: phrase('zh-Hans', random), genre: genreFor('zh-Hans', random) });
  const lonelyTitle = phrase('zh-Hant', random);
  add(safeFileName(lonelyTitle), 'flac', 1, { title: lonelyTitle, year: random.int(1990, 2020) });
  add(`录音 ${random.int(2015, 2023)}-0${random.int(1, 9)}-1${random.int(0, 9)}`, 'mp3', 2, undefined);
  add('voice memo', 'm4a-aac', 3, undefined);
  const enArtist = uniqueName(takenArtists, () => artistName('en', random));
  const enTitle = phrase('en', random);
  add(`${safeFileName(enArtist)} - ${safeFileName(enTitle)}`, 'opus', 4, { title: enTitle, artist: enArtist });

  // A FLAC that gets cut in half once written.
  jobs.push({
    request: { path: `${folder}/truncated.flac`, format: 'flac', voices: [{ voice: voiceFor(random.fork('truncated')).voice, durationSec }], tags: { title: 'Truncated', artist } },
    extra: {},
    finish: async (entry) => [await truncateInPlace(ctx, entry)],
  });
  extras.push(
    () => writeCorruptMp3(ctx, `${folder}/corrupt.mp3`, random.fork('corrupt')),
    () => writeEmpty(ctx, `${folder}/empty.m4a`),
    () => writeOther(ctx, `${folder}/notes.txt`, '这些文件还没有整理。\nThese files are not sorted yet.\n'),
    () => writeStrm(ctx, `Streams/${safeFileName(phrase('en', random))}.strm`, `http://media.example.invalid/stream/${random.int(1000, 9999)}.mp3`),
  );
};

const planCueAlbums = (ctx: BuildContext, jobs: Job[], takenArtists: Set<string>, takenAlbums: Set<string>, voiceFor: VoiceFor): void => {
  const { durationSec } = ctx.options;
  const cueAlbum = (label: string, script: Script, format: 'flac' | 'wav', encoding: 'utf-8' | 'gbk', trackCount: number) => {
    const random = ctx.random.fork(label);
    const performer = uniqueName(takenArtists, () => artistName(script, random));
    const title = uniqueName(takenAlbums, () => phrase(script, random));
    const genre = genreFor(script, random);
    const year = random.int(1985, 2015);
    const folder = `${safeFileName(performer)}/${safeFileName(title)}`;
    const durations = cueDurations(random, trackCount, durationSec);
    const tracks = buildCueTracks(
      Array.from({ length: trackCount }, () => ({ title: phrase(script, random), performer })),
      durations,
    );
    const image = `${folder}/${safeFileName(title)}.${format}`;
    const sheet: CueSheet = { path: `${folder}/${safeFileName(title)}.cue`, image, encoding, performer, title, genre, year, tracks };
    const voices = durations.map((d, i) => ({ voice: voiceFor(random.fork(`cue-${i}`)).voice, durationSec: d }));
    jobs.push({
      request: { path: image, format, voices, tags: { album: title, artist: performer, albumartist: performer, genre, year } },
      extra: { audioId: `${label}-image`, cue: sheet.path },
      finish: async (entry) => [entry, await writeCue(ctx, sheet)],
    });
  };
  cueAlbum('cue-utf8', 'latin', 'flac', 'utf-8', 4);
  cueAlbum('cue-gbk', 'zh-Hans', 'wav', 'gbk', 3);
};
