/**
 * CORS for /rest only: web Subsonic clients (airsonic-refix, feishin web…) are served from their own
 * origin and call the API with fetch and <audio>, so every origin may call it, as Navidrome allows.
 * Credentials travel in the query or form (u/t/s, apiKey), never in cookies, so `*` without
 * `Access-Control-Allow-Credentials` is safe; the cookie-authenticated dashboard API (/apimt) is not
 * touched and stays same-origin.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';

/** Request headers a web client may send: ranges for seeking, forms for formPost, the usual caching ones. */
const ALLOWED_HEADERS = [
  'Accept',
  'Accept-Language',
  'Authorization',
  'Cache-Control',
  'Content-Type',
  'If-Modified-Since',
  'If-None-Match',
  'If-Range',
  'Range',
  'X-Requested-With',
].join(', ');

/** Response headers a script may read: what a player needs to seek and size a stream. */
const EXPOSED_HEADERS = 'Content-Range, Content-Length, Accept-Ranges, Content-Type, Content-Disposition, X-Content-Duration';

/** How long a browser may reuse a preflight answer (seconds). */
const PREFLIGHT_MAX_AGE = 86400;

/**
 * Marks an answer readable from any origin. Called by every /rest handler, the not-found and the error
 * handler (no hook: a hook on every call cost ~10 % of ping's throughput).
 */
export function allowAnyOrigin(reply: FastifyReply): void {
  reply.header('access-control-allow-origin', '*').header('access-control-expose-headers', EXPOSED_HEADERS);
}

/** Answers preflights for any path under /rest; `allowAnyOrigin` does the rest per answer. */
export function subsonicCors(rest: FastifyInstance): void {
  // A preflight carries no credentials: it is answered for any path under /rest, before authentication.
  rest.route({
    method: 'OPTIONS',
    url: '/*',
    handler: async (_request, reply) => {
      allowAnyOrigin(reply);
      return reply
        .code(204)
        .header('access-control-allow-methods', 'GET, POST, HEAD, OPTIONS')
        .header('access-control-allow-headers', ALLOWED_HEADERS)
        .header('access-control-max-age', PREFLIGHT_MAX_AGE)
        .send();
    },
  });
}
