/**
 * Playlists: the Subsonic calls (getPlaylists, getPlaylist, createPlaylist, updatePlaylist,
 * deletePlaylist) with the spec's extensions — `getPlaylist id=random`, the smart-playlist form of
 * createPlaylist, updatePlaylistOrder, updatePlaylistProps, duplicatePlaylist (dedupe),
 * exportPlaylist (a signed link to an .m3u8 file) and importPlaylist (M3U/M3U8 upload).
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { invalid, notFound, TagsonicError } from '@tagsonic/core/errors';
import type { Actor, PlaylistDetail, PlaylistView } from '@tagsonic/core/playlists';
import type { UserDoc } from '@tagsonic/core/users';
import type { Ctx } from '../deps.ts';
import { child } from './mappers.ts';
import type { PlaylistBody, PlaylistWithSongsBody } from './model.ts';
import { defineGroup } from './registry.ts';

export const actorOf = (user: UserDoc): Actor => ({ id: user._id, name: user.username, isAdmin: user.isAdmin });

/** Export links stay valid this long (the dashboard opens them at once). */
const EXPORT_LINK_TTL_MS = 60 * 60_000;
const MAX_IMPORT_BYTES = 8 * 1024 * 1024;

function playlistBody(p: PlaylistView): PlaylistBody {
  const body: PlaylistBody = {
    id: p.id,
    name: p.name,
    comment: p.comment,
    owner: p.owner,
    public: p.public,
    songCount: p.songCount,
    duration: p.duration,
    created: p.created,
    changed: p.changed,
    coverArt: p.coverArt ?? undefined,
    readonly: p.readonly,
    // The spec's playlist fields (dynamic badge, filter list), beside Subsonic's.
    isSmart: p.isSmart,
    isDynamic: p.isDynamic,
    privacyLevel: p.privacyLevel,
  };
  if (p.smart) {
    body.conditions = JSON.stringify(p.smart.conditions);
    body.limit = p.smart.limit;
    body.orderBy = p.smart.orderBy;
  }
  return body;
}

const withSongs = (p: PlaylistDetail): PlaylistWithSongsBody => ({ ...playlistBody(p), entry: p.songs.map(child) });

/** Signs export links with a key derived from the session key: no credentials in the link, and it expires. */
function exportKey(ctx: Ctx): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(ctx.secrets.jwtKey), Buffer.alloc(0), 'tagsonic playlist export links v1', 32));
}

const signExport = (ctx: Ctx, id: string, userId: string, expires: number): string =>
  createHmac('sha256', exportKey(ctx)).update(`${id}\u0000${userId}\u0000${expires}`).digest('base64url');

/** The m3u text of an importPlaylist call: a multipart `file`, or a form/query `playlist` field. */
async function importText(request: FastifyRequest, form: string | undefined): Promise<{ text: string; fileName: string | null }> {
  const type = String(request.headers['content-type'] ?? '');
  if (type.toLowerCase().startsWith('multipart/form-data')) {
    // The /rest plugin only parses url-encoded forms and leaves other bodies unread: read it here.
    const raw = request.raw;
    if (raw.readableEnded) throw invalid('TAGSONIC_ERR_PLAYLIST_IMPORT_BODY', 'The upload could not be read.');
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const c of raw as AsyncIterable<Buffer>) {
      size += c.length;
      if (size > MAX_IMPORT_BYTES) throw invalid('TAGSONIC_ERR_PLAYLIST_IMPORT_TOO_LARGE', `The playlist file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB.`);
      chunks.push(c);
    }
    let data: FormData;
    try {
      data = await new Response(Buffer.concat(chunks), { headers: { 'content-type': type } }).formData();
    } catch {
      throw invalid('TAGSONIC_ERR_PLAYLIST_IMPORT_BODY', 'The upload is not valid multipart/form-data.');
    }
    const file = data.get('file');
    if (!file || typeof file === 'string') throw invalid('TAGSONIC_ERR_PLAYLIST_IMPORT_BODY', 'Send the playlist in the multipart field "file".');
    return { text: decodeText(Buffer.from(await file.arrayBuffer())), fileName: file.name || null };
  }
  if (form === undefined || form === '') throw invalid('TAGSONIC_ERR_PLAYLIST_IMPORT_BODY', 'Send the playlist as a multipart field "file" or a form field "playlist".');
  return { text: form, fileName: null };
}

/** M3U8 is UTF-8; old .m3u files are often Latin-1. UTF-16 (with BOM) comes from some Windows players. */
export function decodeText(buf: Buffer): string {
  if (buf[0] === 0xff && buf[1] === 0xfe) return buf.subarray(2).toString('utf16le');
  if (buf[0] === 0xfe && buf[1] === 0xff) return Buffer.from(buf.subarray(2)).swap16().toString('utf16le');
  const utf8 = new TextDecoder('utf-8', { fatal: false }).decode(buf);
  return utf8.includes('\uFFFD') ? buf.toString('latin1') : utf8;
}

export const baseName = (fileName: string | null): string | undefined => fileName?.replace(/\.(m3u8?|txt)$/i, '').trim() || undefined;

export const playlistsGroup = defineGroup('playlists', (api, ctx) => {
  const pl = ctx.playlists;

  api.method('getPlaylists', async ({ params, user }) => {
    const sort = params.oneOf('type', ['recently-added', 'a-z'] as const);
    const lists = await pl.list(actorOf(user), { owner: params.str('username') || undefined, sort });
    return { playlists: { playlist: lists.map(playlistBody) } };
  });

  api.method('getPlaylist', async ({ params, user }) => {
    const id = params.required('id');
    return { playlist: withSongs(await pl.get(id, actorOf(user), { size: params.int('size') })) };
  });

  api.method('createPlaylist', async ({ params, user }) => {
    const actor = actorOf(user);
    const conditions = params.str('conditions');
    if (conditions !== undefined) {
      const isDynamic = params.str('is_dynamic') ?? params.str('isDynamic');
      const created = await pl.createSmart(actor, {
        name: params.required('name'),
        conditions,
        limit: params.str('limit'),
        orderBy: params.str('order_by') ?? params.str('orderBy'),
        isDynamic: isDynamic === undefined ? false : ['1', 'true', 'yes', 'on'].includes(isDynamic.toLowerCase()),
        comment: params.str('comment'),
        public: params.bool('public'),
      });
      return { playlist: withSongs(created) };
    }
    const songIds = params.all('songId');
    const playlistId = params.str('playlistId');
    if (playlistId) return { playlist: withSongs(await pl.replace(actor, playlistId, { name: params.str('name'), trackIds: songIds })) };
    return { playlist: withSongs(await pl.create(actor, { name: params.required('name'), trackIds: songIds })) };
  });

  api.method('updatePlaylist', async ({ params, user }) => {
    await pl.update(actorOf(user), params.required('playlistId'), {
      name: params.str('name'),
      comment: params.str('comment'),
      public: params.bool('public'),
      add: params.all('songIdToAdd'),
      removeIndexes: params.ints('songIndexToRemove'),
    });
  });

  api.method('deletePlaylist', async ({ params, user }) => {
    await pl.delete(actorOf(user), params.required('id'));
  });

  // The spec's drag-and-drop save: one move (oldIndex → newIndex), or the whole new order as song ids.
  api.method('updatePlaylistOrder', async ({ params, user }) => {
    const id = params.required('id');
    const ids = params.all('songId').length ? params.all('songId') : params.all('ids').flatMap((x) => x.split(',')).map((x) => x.trim()).filter(Boolean);
    if (ids.length) await pl.reorder(actorOf(user), id, ids);
    else await pl.move(actorOf(user), id, params.requiredInt('oldIndex'), params.requiredInt('newIndex'));
  });

  api.method('updatePlaylistProps', async ({ params, user }) => {
    await pl.setProps(actorOf(user), params.required('id'), params.required('props'));
  });

  // "Dedupe" in the spec's playlist menu: answers the playlist as it is afterwards.
  api.method('duplicatePlaylist', async ({ params, user }) => {
    const id = params.required('id');
    await pl.dedupe(actorOf(user), id);
    return { playlist: withSongs(await pl.get(id, actorOf(user))) };
  });

  api.method('exportPlaylist', async ({ params, user, baseUrl }) => {
    const id = params.required('id');
    const { fileName } = await pl.exportM3u8(actorOf(user), id);
    const expires = Date.now() + EXPORT_LINK_TTL_MS;
    const q = new URLSearchParams({ id, u: user._id, expires: String(expires), signature: signExport(ctx, id, user._id, expires) });
    return { playlistExport: { url: `${baseUrl}/rest/downloadPlaylist?${q}`, fileName, expires: new Date(expires) } };
  });

  // The link exportPlaylist hands out: its signature is the credential (opened in a browser tab).
  api.publicMethod('downloadPlaylist', async ({ params, reply }) => {
    const id = params.required('id');
    const userId = params.required('u');
    const expires = Number(params.required('expires'));
    const given = Buffer.from(params.required('signature'));
    const expected = Buffer.from(signExport(ctx, id, userId, expires));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new TagsonicError('unauthorized', 'TAGSONIC_ERR_PLAYLIST_BAD_LINK', 'This export link is not valid.');
    }
    if (!Number.isFinite(expires) || expires < Date.now()) throw new TagsonicError('unauthorized', 'TAGSONIC_ERR_PLAYLIST_LINK_EXPIRED', 'This export link has expired; export the playlist again.');
    const user = await ctx.users.findById(userId);
    if (!user) throw notFound('TAGSONIC_ERR_USER_NOT_FOUND', 'The user of this export link no longer exists.');
    const { fileName, text } = await pl.exportM3u8(actorOf(user), id);
    return reply
      .header('content-type', 'audio/x-mpegurl; charset=utf-8')
      .header('content-disposition', `attachment; filename="${fileName.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`)
      .header('cache-control', 'no-store')
      .send(text);
  });

  api.method('importPlaylist', async ({ params, user, request }) => {
    const { text, fileName } = await importText(request, params.str('playlist'));
    const report = await pl.importM3u(actorOf(user), { text, name: params.str('name') || baseName(fileName) });
    return {
      playlistImport: {
        matched: report.matched,
        unmatchedCount: report.unmatched.length,
        playlist: playlistBody(report.playlist),
        unmatched: report.unmatched.slice(0, 200).map((u) => ({ line: u.line, location: u.location, reason: u.reason })),
      },
    };
  });

});
