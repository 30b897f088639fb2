/**
 * Entity edits of the library screens (spec doc 2 §7 "Entity edits"): the album, artist, genre and playlist
 * screens' EDIT drawers and DELETE dialogs, the artist drawer's online lookup, the genre drawer's cover
 * suggestions, the playlist import and the discover page's hot artists.
 *
 * Two ways to edit an album or artist:
 * - without `write_metadata`: the library's own overlay (core/library entity-meta.ts; an artist's picture and
 *   biography in artist-meta.ts). getAlbum, the lists, getCoverArt, getArtistInfo2 show it; no file is touched. Once a
 *   write_metadata task has written its fields, the overlay of those fields gives way (same id) or is copied to the
 *   new id (a rename), see {@link followWrite}.
 * - `write_metadata: true`: a task of the built-in manual edit (batch-update-id3) under the action name 修改专辑 /
 *   修改艺术家, one item per track with that track's new values, written through the journaled safe writer —
 *   visible in /log, undone by undo_task. The library follows the writes (about 1 s), and the album or artist then
 *   has the id its new name gives (`data.id`, derived like the scanner does). An artist rename writes `artist`
 *   where a track names the artist (only that part of "A/B" or "A; B") and `albumartist` likewise.
 *
 * Deletes move files to their root's trash as a `files.delete` task (like delete_track's delete_file: never
 * unlinked, undone by undo_task) and rescan the roots after; `dry_run: true` answers what would go without doing
 * anything, for the confirm dialog's count. delete_artist takes the tracks of the albums the artist's page lists
 * as its own — those where it is an album artist — and leaves its guest appearances on other artists' albums.
 * delete_genre removes the genre from every track's genre tag (a task of the manual edit, 删除流派, undoable);
 * a track whose only genre it was is left without one.
 *
 * Who may: any signed-in dashboard user, as for delete_track and the batch actions (the tasks are theirs to undo);
 * playlists only by their owner (core Playlists checks).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { newId } from '@tagsonic/core';
import { invalid, notFound } from '@tagsonic/core/errors';
import { toJpeg } from '@tagsonic/core/files';
import { readArtwork, sniffImage } from '@tagsonic/core/tags';
import { albumIdFor, artistIdFor, fold, idKind, renameArtistIn, UNKNOWN_ARTIST, VARIOUS_ARTISTS, type AlbumDoc, type ArtistDoc, type GenreDoc, type TrackDoc } from '@tagsonic/core/library';
import { SUBJECTS } from '@tagsonic/core/tasks';
import { CLEAR_PLACEHOLDER } from '@tagsonic/core/templates';
import type { UserDoc } from '@tagsonic/core/users';
import type { JsonValue } from '@tagsonic/sdk';
import { ok } from '../envelope.ts';
import { requireUser } from '../auth.ts';
import { ErrorEnvelope } from '../schemas/common.ts';
import {
  DeleteEntityRequest,
  DeleteEntityResponse,
  EntityEditResponse,
  FetchArtistsRequest,
  FetchArtistsResponse,
  GenreCoverQuery,
  GenreCoverResponse,
  HotArtistsResponse,
  IdResponse,
  ImportPlaylistResponse,
  PostAlbumRequest,
  PostArtistRequest,
  PostGenreRequest,
  PutPlaylistRequest,
} from '../schemas/library-entities.ts';
import { actorOf, baseName, decodeText } from '../subsonic/playlists.ts';
import { DELETE_TASK_KIND } from './delete-files.ts';
import { rescanAfter } from './delete-track.ts';
import { lookUpArtist } from './scrape.ts';
import { createActionTask, requireAction, type BatchItem } from './tasks.ts';
import { coverFrom, remoteCovers } from './update-id3.ts';
import type { Ctx } from '../deps.ts';

const SAVED = '修改成功！';
const DELETED = '删除成功！';
const NOT_FOUND = 'TAGSONIC_ERR_LIBRARY_NOT_FOUND';
/** The built-in manual edit writes the tags of every metadata edit. */
const MANUAL_EDIT = 'batch-update-id3';
/** Cover suggestions of a genre (the drawer shows one row). */
const GENRE_COVERS = 20;
const HOT_ARTISTS = 10;
/** An m3u upload larger than this is no playlist (the /rest importPlaylist's limit). */
const MAX_IMPORT_BYTES = 8 * 1024 * 1024;
/** How long a rename is followed to carry the library's own data to the new id. */
const FOLLOW_MS = 10 * 60_000;
const FOLLOW_EVERY_MS = 250;

export async function libraryEntityRoutes(app: FastifyInstance, ctx: Ctx): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.post('/apimt/post_album/', { onRequest: requireUser, schema: { body: PostAlbumRequest, response: { 200: EntityEditResponse, '4xx': ErrorEnvelope } } }, async (request) => {
    const body = request.body;
    const album = await albumOf(ctx, body.id);
    const name = body.name?.trim();
    const rename = name !== undefined && name !== '' && name !== album.name ? name : undefined;
    const actor = request.user.username;
    if (!body.write_metadata) {
      const image = await pictureOf(ctx, body.album_img);
      await ctx.library.entities.set('album', album._id, {
        ...(name !== undefined ? { name: name === album.name ? null : name } : {}),
        ...(body.comment !== undefined ? { comment: body.comment } : {}),
        ...image,
        by: actor,
      });
      return ok({ id: album._id, task_id: null }, SAVED);
    }
    const info: Record<string, JsonValue> = {};
    if (rename) info.album = rename;
    if (body.comment !== undefined) info.comment = body.comment.trim() === '' ? CLEAR_PLACEHOLDER : body.comment;
    if (body.album_img !== undefined) info.album_img = await artworkOf(ctx, body.album_img);
    if (Object.keys(info).length === 0) return ok({ id: album._id, task_id: null }, SAVED);
    const tracks = ctx.library.catalog.view().albumTracks.get(album._id) ?? [];
    const task = await writeTask(ctx, '修改专辑', 'post_album', actor, tracks.map((t) => ({ key: t.path, paths: [t.path] })), info);
    const newId = rename ? albumIdFor(album.artist, rename) : album._id;
    const written = { name: info.album !== undefined, comment: info.comment !== undefined, image: info.album_img !== undefined };
    void followWrite(ctx, task._id, 'album', album._id, newId, written).catch((e: unknown) => request.log.warn({ err: e }, 'post_album: the overlay after the write'));
    return ok({ id: newId, task_id: task._id }, SAVED);
  });

  r.post('/apimt/delete_album/', { onRequest: requireUser, schema: { body: DeleteEntityRequest, response: { 200: DeleteEntityResponse, '4xx': ErrorEnvelope } } }, async (request) => {
    const album = await albumOf(ctx, request.body.id);
    const tracks = ctx.library.catalog.view().albumTracks.get(album._id) ?? [];
    return ok(await deleteTracks(ctx, request, request.body.dry_run === true, tracks, '删除专辑', album.name), DELETED);
  });

  r.post('/apimt/post_artist/', { onRequest: requireUser, schema: { body: PostArtistRequest, response: { 200: EntityEditResponse, '4xx': ErrorEnvelope } } }, async (request) => {
    const body = request.body;
    const artist = await artistOf(ctx, body.id);
    const actor = request.user.username;
    const name = body.name?.trim();
    const rename = name !== undefined && name !== '' && name !== artist.name ? name : undefined;
    // The picture and biography are the library's in either case: no tag holds them.
    if (body.artist_img !== undefined || body.description !== undefined) {
      const image = await pictureOf(ctx, body.artist_img);
      await ctx.library.artists.set(artist._id, { name: artist.name, ...image, ...(body.description !== undefined ? { description: body.description } : {}), source: 'user' });
    }
    if (!body.write_metadata || !rename) {
      if (name !== undefined) await ctx.library.entities.set('artist', artist._id, { name: name === artist.name || name === '' ? null : name, by: actor });
      return ok({ id: artist._id, task_id: null }, SAVED);
    }
    const items: BatchItem[] = [];
    for (const t of ctx.library.catalog.view().artistTracks.get(artist._id) ?? []) {
      const fields: Record<string, JsonValue> = {};
      const a = renameArtistIn(t.artist, artist.name, rename);
      if (a !== null) fields.artist = a;
      const aa = t.albumArtistTag === null ? null : renameArtistIn(t.albumArtistTag, artist.name, rename);
      if (aa !== null) fields.albumartist = aa;
      if (Object.keys(fields).length) items.push({ key: t.path, paths: [t.path], data: { music_info: fields } });
    }
    if (items.length === 0) {
      await ctx.library.entities.set('artist', artist._id, { name: rename, by: actor });
      return ok({ id: artist._id, task_id: null }, SAVED);
    }
    const task = await writeTask(ctx, '修改艺术家', 'post_artist', actor, items, {});
    const newId = artistIdFor(rename);
    void followWrite(ctx, task._id, 'artist', artist._id, newId, { name: true, comment: false, image: false }).catch((e: unknown) => request.log.warn({ err: e }, 'post_artist: the overlay after the write'));
    return ok({ id: newId, task_id: task._id }, SAVED);
  });

  r.post('/apimt/fetch_artists/', { onRequest: requireUser, schema: { body: FetchArtistsRequest, response: { 200: FetchArtistsResponse, '4xx': ErrorEnvelope } } }, async (request) => {
    const found = await lookUpArtist(ctx, request.body);
    return ok(found, found.length ? '获取成功！' : '未找到歌手');
  });

  r.post('/apimt/delete_artist/', { onRequest: requireUser, schema: { body: DeleteEntityRequest, response: { 200: DeleteEntityResponse, '4xx': ErrorEnvelope } } }, async (request) => {
    const artist = await artistOf(ctx, request.body.id);
    const view = ctx.library.catalog.view();
    // Its own albums (album artist), not the albums it only appears on.
    const own = (view.artistAlbums.get(artist._id) ?? []).filter((a) => a.artistIds.includes(artist._id));
    const tracks = own.flatMap((a) => view.albumTracks.get(a._id) ?? []);
    return ok(await deleteTracks(ctx, request, request.body.dry_run === true, tracks, '删除艺术家', artist.name), DELETED);
  });

  r.post('/apimt/post_genre/', { onRequest: requireUser, schema: { body: PostGenreRequest, response: { 200: IdResponse, '4xx': ErrorEnvelope } } }, async (request) => {
    const genre = await genreOf(ctx, request.body.id);
    await ctx.library.entities.set('genre', genre.name, { ...(await pictureOf(ctx, request.body.genre_img)), by: request.user.username });
    return ok({ id: genre.name }, SAVED);
  });

  r.post('/apimt/delete_genre/', { onRequest: requireUser, schema: { body: DeleteEntityRequest, response: { 200: DeleteEntityResponse, '4xx': ErrorEnvelope } } }, async (request) => {
    const genre = await genreOf(ctx, request.body.id);
    const gone = fold(genre.name);
    const tracks = ctx.library.catalog.view().genreTracks.get(gone) ?? [];
    const paths = tracks.map((t) => t.path);
    if (request.body.dry_run) return ok({ task_id: null, total: paths.length, paths }, 'ok');
    if (tracks.length === 0) throw invalid('TAGSONIC_ERR_TASK_NOTHING_SELECTED', `No song has the genre "${genre.name}".`);
    const items: BatchItem[] = tracks.map((t) => {
      const left = t.genres.filter((g) => fold(g) !== gone);
      return { key: t.path, paths: [t.path], data: { music_info: { genre: left.length ? left.join('; ') : CLEAR_PLACEHOLDER } } };
    });
    const task = await writeTask(ctx, '删除流派', 'delete_genre', request.user.username, items, {});
    await ctx.library.entities.remove('genre', genre.name);
    return ok({ task_id: task._id, total: task.total, paths }, DELETED);
  });

  r.post('/apimt/put_playlist/', { onRequest: requireUser, schema: { body: PutPlaylistRequest, response: { 200: IdResponse, '4xx': ErrorEnvelope } } }, async (request) => {
    const { id, name, description, playlist_img } = request.body;
    const actor = actorOf(account(request));
    // Core checks the owner (and the name) before anything changes, even when only the picture is new.
    await ctx.playlists.update(actor, id, { ...(name !== undefined ? { name } : {}), ...(description !== undefined ? { comment: description } : {}) });
    if (playlist_img !== undefined) await ctx.library.entities.set('playlist', id, { ...(await pictureOf(ctx, playlist_img)), by: actor.name });
    return ok({ id }, SAVED);
  });

  r.get('/apimt/genre_playlist_cover/', { onRequest: requireUser, schema: { querystring: GenreCoverQuery, response: { 200: GenreCoverResponse, '4xx': ErrorEnvelope } } }, async (request) => {
    const genre = await genreOf(ctx, request.query.id);
    const albums = await ctx.library.queries.albumList({ type: 'byGenre', genre: genre.name, size: GENRE_COVERS });
    return ok(albums.filter((a) => a.hasCover).map((a) => ({ coverArt: a.coverArt, artist: a.artist, album: a.name })), '获取成功！');
  });

  r.post('/apimt/import_playlist/', { onRequest: requireUser, schema: { response: { 200: ImportPlaylistResponse, '4xx': ErrorEnvelope } } }, async (request) => {
    const { text, fileName, name } = await playlistUpload(request);
    const report = await ctx.playlists.importM3u(actorOf(account(request)), { text, name: name || baseName(fileName) });
    return ok({
      id: report.playlist.id,
      name: report.playlist.name,
      matched: report.matched,
      unmatched: report.unmatched.map((u) => ({ line: u.line, entry: u.location })),
    }, '导入成功！');
  });

  r.get('/apimt/hot_artists/', { onRequest: requireUser, schema: { response: { 200: HotArtistsResponse, '4xx': ErrorEnvelope } } }, async (request) => {
    const userId = account(request)._id;
    await ctx.library.catalog.sync();
    const artists = ctx.library.catalog.artists;
    const named = (a: ArtistDoc | undefined): a is ArtistDoc => a !== undefined && a.name !== VARIOUS_ARTISTS && a.name !== UNKNOWN_ARTIST;
    const played = (await ctx.library.annotations.ordered(userId, 'artist', 'playCount', 0, HOT_ARTISTS * 4))
      .map((mark) => ({ doc: artists.get(mark.itemId), plays: mark.playCount }))
      .filter((x): x is { doc: ArtistDoc; plays: number } => named(x.doc))
      .slice(0, HOT_ARTISTS);
    // Nobody played anything yet: the artists with the most albums.
    const list = played.length
      ? played
      : (await ctx.library.queries.artists({ sort: 'most_albums', size: HOT_ARTISTS + 2 })).items
        .map((v) => ({ doc: artists.get(v.id), plays: 0 }))
        .filter((x): x is { doc: ArtistDoc; plays: number } => named(x.doc))
        .slice(0, HOT_ARTISTS);
    await ctx.library.entities.synced();
    return ok(list.map(({ doc, plays }) => ({
      id: doc._id,
      name: ctx.library.entities.artist(doc).name,
      cover: doc._id,
      play_count: plays,
      album_count: doc.albumCount,
    })), '获取成功！');
  });
}

/** The signed-in account (requireUser set it). */
const account = (request: FastifyRequest): UserDoc => request.account!;

async function albumOf(ctx: Ctx, id: string): Promise<AlbumDoc> {
  await ctx.library.catalog.sync();
  const album = ctx.library.catalog.albums.get(id);
  if (!album) throw notFound(NOT_FOUND, `No album with id "${id}".`, { id });
  return album;
}

async function artistOf(ctx: Ctx, id: string): Promise<ArtistDoc> {
  await ctx.library.catalog.sync();
  const artist = ctx.library.catalog.artists.get(id);
  if (!artist) throw notFound(NOT_FOUND, `No artist with id "${id}".`, { id });
  return artist;
}

/** A genre by its id (the name; case is folded as everywhere in the library). */
async function genreOf(ctx: Ctx, id: string): Promise<GenreDoc> {
  await ctx.library.catalog.sync();
  const genres = ctx.library.catalog.genres;
  const genre = genres.get(id) ?? [...genres.values()].find((g) => fold(g.name) === fold(id));
  if (!genre) throw notFound(NOT_FOUND, `No genre "${id}".`, { id });
  return genre;
}

/** A picture field of the overlay: absent → unchanged, '' → removed, else the named picture's bytes. */
async function pictureOf(ctx: Ctx, img: string | undefined): Promise<{ image?: Uint8Array | null; imageUrl?: string | null }> {
  if (img === undefined) return {};
  if (img.trim() === '') return { image: null };
  const { base64 } = await pictureFrom(ctx, img.trim());
  return { image: new Uint8Array(Buffer.from(base64, 'base64')), imageUrl: /^https?:\/\//i.test(img.trim()) ? img.trim() : null };
}

/**
 * The bytes a picture field names: a cover id of the library (the `coverArt` of a suggestion — an album, song or
 * artist id: read here, no download, no credentials in a URL) or what the editor's cover copy takes (an upload URL,
 * a data: URL, a source's http(s) URL).
 */
async function pictureFrom(ctx: Ctx, img: string): Promise<{ mime: string; base64: string }> {
  const kind = idKind(img);
  if (kind !== 'track' && kind !== 'album' && kind !== 'artist') return coverFrom(ctx, img, remoteCovers(ctx));
  const art = await ctx.library.queries.coverArt(img);
  const data = !art ? null : art.kind === 'file' ? new Uint8Array(await readFile(art.path)) : ((await readArtwork(art.path))?.data ?? null);
  const mime = data ? sniffImage(data)?.mime : undefined;
  if (!data || !mime) throw invalid('TAGSONIC_ERR_TAGS_BAD_COVER', `The library has no picture for "${img}".`, { id: img });
  return { mime, base64: Buffer.from(data).toString('base64') };
}

/** A picture field for the manual edit: '' clears the covers; else a JPEG or PNG data: URL (others become JPEG). */
async function artworkOf(ctx: Ctx, img: string): Promise<string> {
  if (img.trim() === '') return CLEAR_PLACEHOLDER;
  const { mime, base64 } = await pictureFrom(ctx, img.trim());
  if (mime === 'image/jpeg' || mime === 'image/png') return `data:${mime};base64,${base64}`;
  return `data:image/jpeg;base64,${Buffer.from(await toJpeg(new Uint8Array(Buffer.from(base64, 'base64')))).toString('base64')}`;
}

/** A manual-edit task writing `info` (and each item's own fields) into the items' tracks; journaled, undoable. */
async function writeTask(ctx: Ctx, action: string, route: string, actor: string, items: BatchItem[], info: Record<string, JsonValue>) {
  if (items.length === 0) throw invalid('TAGSONIC_ERR_TASK_NOTHING_SELECTED', 'No song to write.');
  await requireAction(ctx, MANUAL_EDIT);
  const options: Record<string, JsonValue> = { music_info: info };
  return createActionTask(ctx, { pluginId: MANUAL_EDIT, action }, actor, items, { pluginId: MANUAL_EDIT, route, options, dryRun: false, rate: null });
}

/** A `files.delete` task moving the tracks (with their .lrc) into their roots' trash; a dry run only counts them. */
async function deleteTracks(ctx: Ctx, request: FastifyRequest, dryRun: boolean, tracks: readonly TrackDoc[], action: string, extra: string) {
  const files: string[] = [];
  for (const t of tracks) files.push((await ctx.roots.resolve(t.path)).path);
  if (dryRun) return { task_id: null, total: files.length, paths: files };
  if (files.length === 0) throw invalid('TAGSONIC_ERR_TASK_NOTHING_TO_DELETE', 'There is no song to delete.');
  const actor = request.user.username;
  const task = await ctx.tasks.create({
    id: newId(),
    kind: DELETE_TASK_KIND,
    action,
    actor,
    subject: SUBJECTS.filesDelete,
    fields: { sourceTaskId: null, mode: 'library', targetDir: null },
    extra,
    items: files.map((file) => ({ path: file, payload: { path: file, actor, targetDir: null } })),
  });
  for (const root of new Set(tracks.map((t) => t.root))) {
    void rescanAfter(ctx, task, root, actor).catch((e: unknown) => request.log.warn({ err: e }, `${action}: rescan after the delete`));
  }
  return { task_id: task._id, total: task.total, paths: files };
}

/**
 * After an edit written into the files (write_metadata), once its task has ended with something written and the
 * library has followed it:
 * - same id: the overlay of the fields just written goes, so the readers show what the files now say;
 * - a rename (new id): every user's stars, ratings and plays are copied to it (Annotations.copyMarks), and what the
 *   library kept for the old id goes with the new one — an artist's picture and
 *   biography, an album's picture and comment where they were not written — copied, not moved, so undoing the rename
 *   brings the old id back with them; nothing is copied over what the new id has of its own (an artist the rename
 *   merged into). The old id's overlay is left for the same reason.
 * A task that wrote nothing (every item failed) leaves the overlay as it was.
 */
async function followWrite(
  ctx: Ctx,
  taskId: string,
  kind: 'album' | 'artist',
  fromId: string,
  toId: string,
  written: { name: boolean; comment: boolean; image: boolean },
): Promise<void> {
  const until = Date.now() + FOLLOW_MS;
  const arrived = async () => {
    const task = await ctx.tasks.get(taskId);
    if (task.status === 'running') return false;
    if (task.counts.success === 0) return null;
    await ctx.library.catalog.sync();
    return (kind === 'album' ? ctx.library.catalog.albums : ctx.library.catalog.artists).has(toId);
  };
  for (let state = await arrived(); state !== true; state = await arrived()) {
    if (state === null || Date.now() > until) return;
    await new Promise((resolve) => setTimeout(resolve, FOLLOW_EVERY_MS));
  }
  const own = ctx.library.entities;
  // Stars, ratings and plays follow a rename (copied: the old id keeps its own for an undo).
  await ctx.library.annotations.copyMarks(kind, fromId, toId);
  if (fromId === toId) {
    const by = (await own.get(kind, fromId))?.by;
    if (by === undefined) return;
    await own.set(kind, fromId, { ...(written.name ? { name: null } : {}), ...(written.comment ? { comment: null } : {}), ...(written.image ? { image: null } : {}), by });
    return;
  }
  if (kind === 'artist') {
    const meta = ctx.library.artists;
    const from = await meta.get(fromId);
    if (!from || (!from.image && !from.description) || (await meta.get(toId))) return;
    const image = from.image && meta.canServe ? new Uint8Array(await readFile(meta.imagePath(from.image))) : undefined;
    const name = ctx.library.catalog.artists.get(toId)!.name;
    await meta.set(toId, { name, ...(image ? { image, imageUrl: from.image?.url ?? null } : {}), description: from.description, source: from.source ?? 'user' });
    return;
  }
  const from = await own.get('album', fromId);
  const comment = written.comment ? null : (from?.comment ?? null);
  const picture = written.image ? null : (from?.image ?? null);
  if (!from || (comment === null && picture === null) || (await own.get('album', toId))) return;
  const image = picture ? new Uint8Array(await readFile(own.imagePath(picture))) : undefined;
  await own.set('album', toId, { comment, ...(image ? { image, imageUrl: picture?.url ?? null } : {}), by: from.by });
}

/** The multipart `file` (an .m3u / .m3u8) and the optional `name` field of import_playlist. */
async function playlistUpload(request: FastifyRequest): Promise<{ text: string; fileName: string | null; name: string }> {
  if (!request.isMultipart()) throw invalid('TAGSONIC_ERR_PLAYLIST_IMPORT_BODY', 'Send the playlist as multipart/form-data in the field "file".');
  let text: string | null = null;
  let fileName: string | null = null;
  let name = '';
  for await (const part of request.parts({ limits: { fileSize: MAX_IMPORT_BYTES, files: 1, fields: 5 } })) {
    if (part.type === 'field') {
      if (part.fieldname === 'name' && typeof part.value === 'string') name = part.value.trim();
      continue;
    }
    if (part.fieldname !== 'file') {
      part.file.resume();
      continue;
    }
    let buf: Buffer;
    try {
      buf = await part.toBuffer();
    } catch (e) {
      if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
        throw invalid('TAGSONIC_ERR_PLAYLIST_IMPORT_TOO_LARGE', `The playlist file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB.`);
      }
      throw e;
    }
    text = decodeText(buf);
    fileName = part.filename ? path.basename(part.filename) : null;
  }
  if (text === null) throw invalid('TAGSONIC_ERR_PLAYLIST_IMPORT_BODY', 'Send the playlist in the multipart field "file".');
  return { text, fileName, name };
}
