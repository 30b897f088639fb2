/**
 * Media retrieval: stream (original bytes with ranges, or transcoded by ffmpeg), download, getCoverArt
 * (scaled and cached), getLyrics, getLyricsBySongId (OpenSubsonic songLyrics) and getAvatar. Streaming
 * never counts a play: clients scrobble.
 */
import { createReadStream } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import { Transform, type Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { UserDoc } from '@tagsonic/core/users';
import { notFound, unsupported } from '@tagsonic/core/errors';
import { idKind, type CoverArt, type SongView } from '@tagsonic/core/library';
import { readArtwork } from '@tagsonic/core/tags';
import { avatarPng, profileFor, type CoverImage, type TranscodeTarget, type TranscodedStream } from '@tagsonic/core/transcode';
import { badParam, notAuthorized } from './errors.ts';
import { parseRange } from './media-ranges.ts';
import { albumsPlan, contentDisposition, playlistPlan, sendZip, type ZipPlan } from './media-zip.ts';
import { actorOf } from './playlists.ts';
import { defineGroup, type SubsonicCall } from './registry.ts';
import type { Ctx } from '../deps.ts';
import type { LyricLineBody } from './model.ts';

const COVER_CACHE_CONTROL = 'private, max-age=86400';

export const mediaGroup = defineGroup('media', (api, ctx) => {
  api.extension('transcodeOffset', [1]);
  api.extension('songLyrics', [1]);

  api.method('stream', (call) => stream(ctx, call));

  api.method('download', async ({ params, request, reply, user }) => {
    const id = params.required('id');
    const kind = idKind(id);
    if (kind === 'album' || kind === 'artist' || id.startsWith('pl-')) {
      return sendZip(request, reply, await zipPlan(ctx, id, user), (song) => ctx.library.queries.songPath(song.id));
    }
    if (kind !== 'track') {
      if (kind === null) throw notFound('TAGSONIC_ERR_LIBRARY_NOT_FOUND', `No song, album, artist or playlist with id "${id}".`, { id });
      throw unsupported('TAGSONIC_ERR_MEDIA_DOWNLOAD_KIND', 'Only songs, albums, artists and playlists can be downloaded; download a folder through its album or artist.');
    }
    const song = await ctx.library.queries.song(id);
    const file = await fileOf(ctx, id);
    const name = song.path.split('/').pop() ?? `${song.title}.${song.suffix}`;
    reply.header('content-disposition', contentDisposition(name));
    return sendFile(request, reply, file.path, file.size, file.mtime, song.contentType);
  });

  api.method('getCoverArt', async ({ params, request, reply, user }) => {
    const id = params.required('id');
    const size = params.int('size');
    if (size !== undefined && size <= 0) throw badParam('size', 'a positive whole number');
    let art: CoverArt | null = null;
    if (id.startsWith('pl-')) {
      const list = await ctx.playlists.get(id, actorOf(user));
      art = list.coverArt ? await ctx.library.queries.coverArt(list.coverArt) : null;
    } else art = await ctx.library.queries.coverArt(id);
    const covers = ctx.mediaServices.covers;
    let image: CoverImage | null = null;
    if (art) {
      const found = art;
      const st = await stat(found.path).catch(() => null);
      if (st?.isFile()) {
        image = await covers.get(
          {
            key: `${found.kind}:${found.path}:${st.mtimeMs}:${st.size}`,
            load: async () => (found.kind === 'file' ? new Uint8Array(await readFileLimited(found.path)) : ((await readArtwork(found.path).catch(() => null))?.data ?? null)),
          },
          size ?? null,
        );
      }
    }
    image ??= await covers.defaultCover(size ?? null);
    reply.header('etag', image.etag).header('cache-control', COVER_CACHE_CONTROL);
    if (request.headers['if-none-match'] === image.etag) return reply.code(304).send();
    return reply.header('content-type', image.contentType).header('content-length', image.data.length).send(image.data);
  });

  api.method('getLyrics', async ({ params, user }) => {
    const artist = params.str('artist');
    const title = params.str('title');
    const song = await ctx.library.queries.findSong(artist, title, user._id);
    const lyrics = song ? await ctx.library.queries.lyrics(song.id) : null;
    if (!song || !lyrics) return { lyrics: { value: '' } };
    return { lyrics: { artist: song.artist, title: song.title, value: lyrics.text } };
  });

  api.method('getLyricsBySongId', async ({ params, user }) => {
    const id = params.required('id');
    const song = await ctx.library.queries.song(id, user._id);
    const lyrics = await ctx.library.queries.lyrics(id);
    if (!lyrics) return { lyricsList: { structuredLyrics: [] } };
    const line: LyricLineBody[] = lyrics.lines.map((l) => (l.start === null ? { value: l.value } : { start: l.start, value: l.value }));
    return {
      lyricsList: {
        structuredLyrics: [{ displayArtist: song.artist, displayTitle: song.title, lang: languageOf(song), offset: 0, synced: lyrics.synced, line }],
      },
    };
  });

  api.method('getAvatar', async ({ params, user, reply }) => {
    const username = params.required('username');
    if (username !== user.username && !user.isAdmin) throw notAuthorized("see another user's avatar");
    if (!(await ctx.users.findByName(username))) throw notFound('TAGSONIC_ERR_USER_NOT_FOUND', `No user named "${username}".`);
    const png = avatarPng(username);
    return reply.header('content-type', 'image/png').header('cache-control', COVER_CACHE_CONTROL).header('content-length', png.length).send(png);
  });
});

/** The zip of an album, of an artist's albums (those it is the album artist of, as getArtist lists them) or of a playlist. */
async function zipPlan(ctx: Ctx, id: string, user: UserDoc): Promise<ZipPlan> {
  const q = ctx.library.queries;
  if (id.startsWith('pl-')) {
    const list = await ctx.playlists.get(id, actorOf(user));
    return playlistPlan(list.name, list.songs);
  }
  if (idKind(id) === 'album') {
    const album = await q.albumDetail(id, user._id);
    return albumsPlan(`${album.artist} - ${album.name}`, [album.songs]);
  }
  const artist = await q.artistDetail(id, user._id);
  const albums = [];
  for (const a of artist.albums) if (a.artists.some((x) => x.id === id)) albums.push((await q.albumDetail(a.id, user._id)).songs);
  return albumsPlan(artist.name, albums);
}

/** OpenSubsonic wants an ISO 639 code, or "xxx" when unknown (an .lrc file says nothing). */
function languageOf(song: SongView): string {
  const l = song.language?.trim().toLowerCase();
  return l && /^[a-z]{2,3}$/.test(l) ? l : 'xxx';
}

async function fileOf(ctx: Ctx, id: string): Promise<{ path: string; size: number; mtime: Date; mtimeMs: number }> {
  const path = await ctx.library.queries.songPath(id);
  const st = await stat(path).catch(() => null);
  if (!st?.isFile()) throw notFound('TAGSONIC_ERR_MEDIA_FILE_GONE', `The file of song "${id}" is gone; rescan the library.`, { id });
  return { path, size: st.size, mtime: st.mtime, mtimeMs: st.mtimeMs };
}

const MAX_COVER_FILE = 64 * 1024 * 1024;

async function readFileLimited(path: string): Promise<Buffer> {
  const st = await stat(path);
  if (st.size > MAX_COVER_FILE) throw unsupported('TAGSONIC_ERR_MEDIA_COVER_TOO_LARGE', 'The cover picture is larger than 64 MB.');
  return readFile(path);
}

/** Bodies up to this size are read in one go: far cheaper per request than a file stream (whole songs are often smaller). */
const BUFFERED_BODY = 1024 * 1024;

async function readSlice(path: string, start: number, length: number): Promise<Buffer> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(length);
    let done = 0;
    while (done < length) {
      const { bytesRead } = await fh.read(buf, done, length - done, start + done);
      if (bytesRead === 0) break;
      done += bytesRead;
    }
    return done === length ? buf : buf.subarray(0, done);
  } finally {
    await fh.close();
  }
}

/** The whole file or one byte range of it (206), or 416 when the range starts past the end. */
async function sendFile(request: FastifyRequest, reply: FastifyReply, path: string, size: number, mtime: Date, contentType: string): Promise<FastifyReply> {
  reply.header('accept-ranges', 'bytes').header('content-type', contentType).header('last-modified', mtime.toUTCString());
  const range = parseRange(request.headers.range, size);
  const [start, end] = range.kind === 'partial' ? [range.start, range.end] : [0, size - 1];
  if (range.kind !== 'unsatisfiable' && end - start + 1 <= BUFFERED_BODY) {
    // The file may have shrunk since stat: send what was read, with a length that matches it.
    const body = await readSlice(path, start, end - start + 1);
    if (range.kind === 'partial') reply.code(206).header('content-range', `bytes ${start}-${start + body.length - 1}/${size}`);
    return reply.header('content-length', body.length).send(body);
  }
  return sendRanged(request, reply, size, (r) => createReadStream(path, r ? { start: r.start, end: r.end } : {}));
}

function sendRanged(request: FastifyRequest, reply: FastifyReply, size: number, open: (range?: { start: number; end: number }) => Readable): FastifyReply {
  const range = parseRange(request.headers.range, size);
  if (range.kind === 'unsatisfiable') return reply.code(416).header('content-range', `bytes */${size}`).header('content-length', 0).send();
  if (range.kind === 'partial') {
    return reply
      .code(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
      .header('content-length', range.end - range.start + 1)
      .send(open({ start: range.start, end: range.end }));
  }
  return reply.header('content-length', size).send(open());
}

/** What a stream request asks for: the original bytes (null) or a transcode. */
function target(song: SongView, format: string | undefined, maxBitRate: number, offset: number, decode: { isPlayDecode: boolean; command: string }): TranscodeTarget | null {
  const sourceKbps = song.bitRate > 0 ? song.bitRate : null;
  const underLimit = !maxBitRate || (sourceKbps !== null && sourceKbps <= maxBitRate);
  if (format === 'raw') return null;
  if (format) {
    const profile = profileFor(format);
    // ALAC and AAC share .m4a: only lossy (no bit depth) sources count as the same format.
    const same = profile.suffix === song.suffix.toLowerCase() && !(profile.format === 'm4a' && song.bitDepth !== null);
    if (same && underLimit && offset === 0) return null;
    const kbps = maxBitRate || (profile.defaultBitRate !== null && sourceKbps !== null ? Math.min(profile.defaultBitRate, sourceKbps) : null);
    return { kind: 'profile', profile, maxBitRate: kbps };
  }
  if (decode.isPlayDecode) return { kind: 'template', template: decode.command, maxBitRate: maxBitRate || null };
  if (!underLimit) return { kind: 'profile', profile: profileFor('mp3'), maxBitRate };
  // A start offset needs a decoder; keep the quality of the source where MP3 can.
  if (offset > 0) return { kind: 'profile', profile: profileFor('mp3'), maxBitRate: Math.min(320, sourceKbps ?? 320) };
  return null;
}

async function stream(ctx: Ctx, { params, request, reply }: SubsonicCall): Promise<FastifyReply> {
  const id = params.required('id');
  const song = await ctx.library.queries.song(id);
  const file = await fileOf(ctx, id);
  const format = params.str('format')?.trim().toLowerCase() || undefined;
  const maxBitRate = Math.max(0, params.int('maxBitRate', 0));
  const offsetText = params.str('timeOffset');
  const offset = offsetText === undefined || offsetText === '' ? 0 : Number(offsetText);
  if (!Number.isFinite(offset) || offset < 0) throw badParam('timeOffset', 'a number of seconds, 0 or more');
  const estimate = params.bool('estimateContentLength', false);
  const t = target(song, format, maxBitRate, offset, await ctx.mediaServices.decodeSettings.read());
  if (!t) return sendFile(request, reply, file.path, file.size, file.mtime, song.contentType);

  const out: TranscodedStream = await ctx.mediaServices.transcoder.transcode(
    { id, path: file.path, mtimeMs: file.mtimeMs, size: file.size, duration: song.duration, bitRate: song.bitRate },
    t,
    { offset },
  );
  reply.header('content-type', out.contentType).header('x-content-duration', Math.max(0, song.duration - offset).toFixed(2));
  if (out.size !== null) {
    reply.header('accept-ranges', 'bytes');
    return sendRanged(request, reply, out.size, (range) => out.open(range));
  }
  reply.header('accept-ranges', 'none');
  if (estimate) return reply.header('content-length', out.estimatedSize).send(out.open().pipe(exactly(out.estimatedSize)));
  return reply.send(out.open());
}

/**
 * Makes a transcode exactly `n` bytes long, as `estimateContentLength` promised: cut what goes past,
 * pad with zeros what falls short (decoders skip trailing zeros; a wrong Content-Length breaks the
 * connection instead).
 */
function exactly(n: number): Transform {
  let sent = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      const room = n - sent;
      if (room <= 0) return done();
      const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
      sent += part.length;
      done(null, part);
    },
    flush(done) {
      const pad = n - sent;
      done(null, pad > 0 ? Buffer.alloc(pad) : undefined);
    },
  });
}
