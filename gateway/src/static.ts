import path from 'node:path';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';

/** Paths that are APIs, never the dashboard: unknown ones answer 404 in their own format. */
export const API_PREFIXES = ['/apimt/', '/user/', '/rest/', '/api/', '/healthz', '/logout/'];
/** esbuild's hashed names (`main-3FJ2KQ7A.js`, and its `.br`/`.gz` copies): safe to cache for a year. */
const HASHED = /-[A-Z0-9]{8}\.[a-z0-9]+(\.br|\.gz)?$/;

export const isApiPath = (url: string) => API_PREFIXES.some((p) => url === p.replace(/\/$/, '') || url.startsWith(p));

/**
 * Serves the built dashboard (dashboard/dist): hashed assets with a long cache, index.html never
 * cached, and index.html for the client routes of the single-page app. When the dashboard has not
 * been built, pages answer 503 with a page that says so.
 */
export async function registerDashboard(app: FastifyInstance, dir: string): Promise<(request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>> {
  const index = path.join(dir, 'index.html');
  const built = existsSync(index);
  if (built) {
    await app.register(fastifyStatic, {
      root: dir,
      wildcard: false,
      index: false,
      serveDotFiles: false,
      // The build writes brotli and gzip copies of the text assets (dashboard/build.ts precompress): one of them
      // goes to a browser that accepts it (startup JS ~190 KB instead of ~700 KB over the network).
      preCompressed: true,
      setHeaders(reply, file) {
        reply.header('cache-control', HASHED.test(path.basename(file)) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  return async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    if (!built || !existsSync(index)) {
      return reply.status(503).type('text/html; charset=utf-8').send(NOT_BUILT);
    }
    return reply.type('text/html; charset=utf-8').send(await readFile(index));
  };
}

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Tagsonic — dashboard not built</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 4rem auto; line-height: 1.5">
<h1>The dashboard is not built</h1>
<p>The server is running and its API answers, but the web dashboard has not been built in this installation
(<code>dashboard/dist/</code> is missing). Build it with <code>npm run build -w dashboard</code> and restart Tagsonic.</p>
</body></html>
`;

/**
 * Headers every response carries. Covers found online are shown straight from their sources, http ones
 * too: Kugou's and Kuwo's CDNs and a local mirror's covers are plain http (a page served over https has the
 * browser upgrade them), and the save has the server download the same URL.
 */
export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': [
    "default-src 'self'",
    "script-src 'self'",
    // Blueprint positions popovers with inline styles.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https: http:",
    "media-src 'self' blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; '),
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
};
