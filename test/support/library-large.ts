/**
 * Big libraries (size N): a few base files per format are encoded once with ffmpeg, then every track is
 * a copy of one of them with its own tags and cover written by taglib-wasm in memory.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { TagLib, type Picture } from 'taglib-wasm';
import { absolute, ensureDir, pad2, writeRelative, type BuildContext } from './library-context.ts';
import { writeLrc } from './library-extras.ts';
import { encodeBatch, type EncodeRequest } from './library-encode.ts';
import { chunk, makeImages, outputSampleRate, randomVoice, runLimited, type ImageSpec, type Voice } from './library-media.ts';
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
import { applyTaglibTags } from './library-tags.ts';
import { FORMAT_EXTENSION, type AudioFormat, type ImageInfo, type LibraryFile, type TrackTags } from './library-types.ts';

const POOL_PER_FORMAT = 4;
const MAX_PENDING_WRITES = 32;

const FORMAT_WEIGHTS: Record<AudioFormat, number> = { mp3: 35, flac: 25, 'm4a-aac': 15, 'm4a-alac': 5, ogg: 8, opus: 7, wav: 5 };
const SCRIPT_WEIGHTS: [Script, number][] = [
  ['zh-Hans', 30],
  ['zh-Hant', 15],
  ['en', 25],
  ['latin', 10],
  ['ja', 10],
  ['ko', 10],
];

const weighted = <T>(random: Random, entries: readonly (readonly [T, number])[]): T => {
  const total = entries.reduce((sum, [, w]) => sum + w, 0);
  let roll = random.next() * total;
  for (const [value, weight] of entries) {
    roll -= weight;
    if (roll < 0) return value;
  }
  return entries[entries.length - 1][0];
};

/** Splits `total` tracks over `albums` albums: ~equal, with seeded unevenness, none empty. */
const albumSizes = (random: Random, total: number, albums: number): number[] => {
  const base = Math.floor(total / albums);
  const sizes = Array.from({ length: albums }, (_, i) => base + (i < total % albums ? 1 : 0));
  for (let i = 0; i + 1 < albums; i += 2) {
    const shift = Math.min(random.int(0, 4), sizes[i + 1] - 1);
    sizes[i] += shift;
    sizes[i + 1] -= shift;
  }
  return sizes;
};

let taglibPromise: Promise<TagLib> | undefined;
const taglib = (): Promise<TagLib> => (taglibPromise ??= TagLib.initialize());

interface PoolEntry {
  data: Uint8Array;
  voice: Voice;
  id: string;
}

interface CoverEntry {
  data: Uint8Array;
  info: ImageInfo;
}

const encodePool = async (ctx: BuildContext, random: Random, formats: AudioFormat[]): Promise<Map<AudioFormat, PoolEntry[]>> => {
  const scratch = relative(ctx.root, ctx.scratch).split(sep).join('/');
  const requests: (EncodeRequest & { id: string })[] = formats.flatMap((format) =>
    Array.from({ length: POOL_PER_FORMAT }, (_, k) => ({
      id: `pool-${format}-${k}`,
      path: `${scratch}/pool-${format}-${k}.${FORMAT_EXTENSION[format]}`,
      format,
      voices: [{ voice: randomVoice(random.fork(`pool-${format}-${k}`)), durationSec: ctx.options.durationSec }],
      tags: undefined,
    })),
  );
  await runLimited(chunk(requests, Math.ceil(requests.length / 2)).map((batch) => () => encodeBatch(ctx, batch)), 2);
  const pool = new Map<AudioFormat, PoolEntry[]>();
  for (const request of requests) {
    const data = new Uint8Array(await readFile(absolute(ctx, request.path)));
    pool.set(request.format, [...(pool.get(request.format) ?? []), { data, voice: request.voices[0].voice, id: request.id }]);
  }
  return pool;
};

const makeCoverPool = async (ctx: BuildContext, random: Random): Promise<CoverEntry[]> => {
  const specs: ImageSpec[] = [300, 500, 600, 400].map((size, i) => ({ mime: 'image/jpeg', width: size, height: size, source: i % 2 === 0 ? 'waves' : 'mandelbrot', seed: random.int(1, 10_000) }));
  specs.push(...[200, 256, 320, 400].map((size, i): ImageSpec => ({ mime: 'image/png', width: size, height: size, source: i % 2 === 0 ? 'cellauto' : 'testsrc2', seed: random.int(1, 10_000) })));
  const images = specs.map((spec, i) => ({ spec, path: join(ctx.scratch, `cover-${i}.${spec.mime === 'image/png' ? 'png' : 'jpg'}`) }));
  const infos = await makeImages(images);
  return Promise.all(images.map(async ({ path }, i) => ({ data: new Uint8Array(await readFile(path)), info: infos[i] })));
};

export const buildLargeLibrary = async (ctx: BuildContext, count: number): Promise<void> => {
  const random = ctx.random.fork('large');
  const formats = ctx.options.formats;
  const formatWeights = formats.map((f) => [f, FORMAT_WEIGHTS[f]] as const);
  const [pool, covers, tl] = await Promise.all([encodePool(ctx, random, formats), makeCoverPool(ctx, random), taglib()]);

  const takenArtists = new Set<string>(['Various Artists']);
  const artists = Array.from({ length: Math.max(1, Math.round(count / 40)) }, () => {
    const script = weighted(random, SCRIPT_WEIGHTS);
    return { script, name: uniqueName(takenArtists, () => artistName(script, random)) };
  });
  const albumCount = Math.max(1, Math.min(count, Math.round(count / 10)));
  const sizes = albumSizes(random, count, albumCount);
  const takenAlbums = new Set<string>();

  // Tagging is synchronous wasm work; file writes overlap with it, a bounded number at a time.
  const pending = new Set<Promise<void>>();
  let writeError: unknown;
  const write = async (path: string, data: Uint8Array) => {
    while (pending.size >= MAX_PENDING_WRITES) await Promise.race(pending);
    if (writeError !== undefined) throw writeError;
    const p: Promise<void> = writeFile(path, data)
      .catch((error: unknown) => {
        writeError ??= error;
      })
      .finally(() => pending.delete(p));
    pending.add(p);
  };

  for (let a = 0; a < albumCount; a++) {
    const owner = artists[Math.floor((a * artists.length) / albumCount)];
    const compilation = albumCount >= 10 && random.chance(0.03);
    const script = owner.script;
    const album = uniqueName(takenAlbums, () => phrase(script, random));
    const albumArtist = compilation ? 'Various Artists' : owner.name;
    const format = weighted(random, formatWeights);
    const poolFiles = pool.get(format) ?? [];
    const year = random.int(1965, 2025);
    const multiGenre = random.chance(0.2);
    // wav keeps one RIFF INFO genre; write the list as one value there.
    const genreList = multiGenre ? genresFor(script, random, random.int(2, 3)) : [genreFor(script, random)];
    const genre: TrackTags['genre'] = genreList.length === 1 ? genreList[0] : format === 'wav' ? genreList.join('; ') : genreList;
    const language = languageFor(script, random);
    const size = sizes[a];
    const twoDiscs = size >= 6 && random.chance(0.05);
    const discTags = twoDiscs || random.chance(0.5);
    const cover = random.chance(0.6) ? random.pick(covers) : undefined;
    const picture: Picture | undefined = cover && { mimeType: cover.info.mime, data: cover.data, type: 'FrontCover', description: 'Cover' };
    const folder = `${safeFileName(albumArtist)}/${safeFileName(album)}`;
    await ensureDir(ctx, absolute(ctx, folder));
    if (random.chance(0.4)) {
      const folderCover = random.pick(covers);
      const name = folderCover.info.mime === 'image/png' ? 'front.png' : random.pick(['cover.jpg', 'folder.jpg']);
      await writeRelative(ctx, `${folder}/${name}`, folderCover.data);
      ctx.files.push({ path: `${folder}/${name}`, kind: 'image', role: 'folder-cover', image: folderCover.info });
    }
    const perDisc = twoDiscs ? Math.ceil(size / 2) : size;

    for (let i = 0; i < size; i++) {
      const disc = twoDiscs ? Math.floor(i / perDisc) + 1 : 1;
      const number = twoDiscs ? (i % perDisc) + 1 : i + 1;
      const lead = compilation ? random.pick(artists) : owner;
      const title = phrase(lead.script, random);
      const separator = random.chance(0.08) ? random.pick(ARTIST_SEPARATORS) : undefined;
      const names = separator === undefined ? [lead.name] : [lead.name, random.pick(artists).name];
      if (names[1] === names[0]) names.pop();
      const noTags = random.chance(0.01);
      const tags: TrackTags = {
        title: random.chance(0.02) ? undefined : title,
        artist: names.join(separator ?? ''),
        album,
        albumartist: albumArtist,
        genre,
        year,
        track: number,
        trackTotal: twoDiscs ? (disc === 1 ? perDisc : size - perDisc) : size,
        disc: discTags ? disc : undefined,
        discTotal: discTags ? (twoDiscs ? 2 : 1) : undefined,
        composer: random.chance(0.7) ? artistName(lead.script, random) : undefined,
        lyricist: random.chance(0.5) ? artistName(lead.script, random) : undefined,
        comment: random.chance(0.3) ? commentText(random) : undefined,
        lyrics: random.chance(0.15) ? lyricLines(lead.script, random, 4).join('\n') : undefined,
        language: random.chance(0.9) ? language : undefined,
        compilation: compilation ? true : undefined,
      };
      for (const key of Object.keys(tags) as (keyof TrackTags)[]) if (tags[key] === undefined) delete tags[key];
      const base = poolFiles[random.int(0, poolFiles.length - 1)];
      const path = `${folder}/${twoDiscs ? `Disc ${disc}/` : ''}${pad2(number)} ${safeFileName(title)}.${FORMAT_EXTENSION[format]}`;
      const target = absolute(ctx, path);
      if (twoDiscs) await ensureDir(ctx, dirname(target));

      const file = await tl.open(base.data);
      let written: ReturnType<typeof applyTaglibTags> = { tags: undefined, nonStandard: undefined };
      try {
        if (!noTags) {
          written = applyTaglibTags(file, format, tags);
          if (picture !== undefined) file.addPicture(picture);
        }
        file.save();
        await write(target, file.getFileBuffer());
      } finally {
        file.dispose();
      }
      const entry: LibraryFile = {
        path,
        kind: 'audio',
        format,
        writer: 'taglib-wasm',
        durationSec: ctx.options.durationSec,
        sampleRate: outputSampleRate(format, base.voice),
        channels: base.voice.channels,
        audioId: base.id,
      };
      if (format === 'mp3' && !noTags) entry.id3v2Version = 4;
      if (written.tags !== undefined) {
        entry.tags = written.tags;
        if (written.nonStandard !== undefined) entry.nonStandard = written.nonStandard;
        if (separator !== undefined && names.length > 1) Object.assign(entry, { artists: names, separator });
        if (genreList.length > 1) entry.genres = genreList;
        if (cover !== undefined) entry.cover = { ...cover.info, via: 'taglib-wasm' };
      }
      ctx.files.push(entry);
      if (!noTags && random.chance(0.03))
        ctx.files.push(await writeLrc(ctx, path, { artist: tags.artist, title: tags.title, album }, lyricLines(lead.script, random, 5), ctx.options.durationSec));
    }
  }
  await Promise.all(pending);
  if (writeError !== undefined) throw writeError;
};
