/**
 * The public side of shares, without login: `/share/<id>` (an HTML page with a player per song, or
 * JSON with `?f=json` / `Accept: application/json`) and `/share/<id>/stream/<songId>` (the file,
 * with HTTP ranges). Unknown shares are 404, expired ones 410; only songs of the share stream.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SongView } from '@tagsonic/core/library';
import type { Ctx } from '../deps.ts';
import { parseRange } from '../routes/media.ts';
import { ShareStore } from './share-store.ts';

const ID = /^[A-Za-z0-9_-]{1,64}$/;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function gone(reply: FastifyReply, status: 404 | 410, json: boolean): FastifyReply {
  const message = status === 404 ? 'This share does not exist.' : 'This share has expired.';
  reply.status(status).header('cache-control', 'no-store');
  if (json) return reply.send({ error: status === 404 ? 'TAGSONIC_ERR_SHARE_NOT_FOUND' : 'TAGSONIC_ERR_SHARE_EXPIRED', message });
  return reply.type('text/html; charset=utf-8').send(page('Tagsonic', `<p>${message}</p>`));
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 42rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5">
${body}
</body></html>
`;
}

const minutes = (sec: number) => `${Math.floor(sec / 60)}:${String(Math.round(sec % 60)).padStart(2, '0')}`;

export async function sharePages(app: FastifyInstance, ctx: Ctx): Promise<void> {
  const shares = new ShareStore(ctx.store, ctx.library);
  await shares.init();

  app.get<{ Params: { id: string }; Querystring: { f?: string } }>('/share/:id', async (request, reply) => {
    const json = request.query.f === 'json' || (request.headers.accept ?? '').includes('application/json');
    const { id } = request.params;
    const found = ID.test(id) ? await shares.visit(id, true) : null;
    if (!found) return gone(reply, 404, json);
    if (found.expired) return gone(reply, 410, json);
    const { doc } = found;
    const songs = await shares.songs(doc);
    const streamUrl = (s: SongView) => `/share/${doc._id}/stream/${s.id}`;
    reply.header('cache-control', 'no-store');
    if (json) {
      return reply.send({
        id: doc._id,
        description: doc.description,
        username: doc.username,
        created: doc.createdAt,
        expires: doc.expiresAt,
        entries: songs.map((s) => ({ id: s.id, title: s.title, artist: s.artist, album: s.album, duration: Math.round(s.duration), contentType: s.contentType, url: streamUrl(s) })),
      });
    }
    const title = doc.description || `Shared by ${doc.username}`;
    const items = songs
      .map(
        (s) =>
          `<li><strong>${escapeHtml(s.title)}</strong> — ${escapeHtml(s.artist)} · ${escapeHtml(s.album)} (${minutes(s.duration)})<br>` +
          `<audio controls preload="none" src="${escapeHtml(streamUrl(s))}"></audio></li>`,
      )
      .join('\n');
    const expiry = doc.expiresAt ? `<p>Available until ${escapeHtml(doc.expiresAt.toISOString())}.</p>` : '';
    return reply
      .type('text/html; charset=utf-8')
      .send(page(title, `<h1>${escapeHtml(title)}</h1><p>Shared by ${escapeHtml(doc.username)} with Tagsonic.</p>${expiry}<ol>${items}</ol>`));
  });

  app.get<{ Params: { id: string; songId: string } }>('/share/:id/stream/:songId', async (request, reply) => {
    const { id, songId } = request.params;
    const found = ID.test(id) ? await shares.visit(id, false) : null;
    if (!found) return gone(reply, 404, true);
    if (found.expired) return gone(reply, 410, true);
    const song = (await shares.songs(found.doc)).find((s) => s.id === songId);
    if (!song) return reply.status(404).send({ error: 'TAGSONIC_ERR_SHARE_NOT_FOUND', message: 'This song is not part of the share.' });
    const file = await ctx.library.queries.songPath(song.id);
    const { size } = await stat(file);
    const range = parseRange(request.headers.range, size);
    reply.header('accept-ranges', 'bytes').header('content-type', song.contentType).header('cache-control', 'no-store');
    if (range === 'unsatisfiable') return reply.status(416).header('content-range', `bytes */${size}`).send();
    if (range === null) return reply.header('content-length', size).send(createReadStream(file));
    return reply
      .status(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
      .header('content-length', range.end - range.start + 1)
      .send(createReadStream(file, { start: range.start, end: range.end }));
  });
}
