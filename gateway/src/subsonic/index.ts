import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../deps.ts';
import { redactUrl } from './auth.ts';
import { GROUPS } from './groups.ts';
import { subsonicRoutes } from './plugin.ts';
import { sharePages } from './share-page.ts';

export { defineGroup, type SubsonicGroup, type SubsonicCall, type PublicCall, type Handler, type GroupApi } from './registry.ts';
export * from './model.ts';

const redactedRequest = (req: { method: string; url: string; ip?: string }) => ({ method: req.method, url: redactUrl(req.url), remoteAddress: req.ip });

/**
 * Mounts the Subsonic API at /rest as one encapsulated plugin (its own body parsers, error and
 * not-found handlers). Its request logs show URLs with p, t, s and apiKey redacted. Also serves the
 * public share pages (/share/<id>).
 */
export async function registerSubsonic(app: FastifyInstance, ctx: Ctx): Promise<void> {
  await app.register(
    async (rest) => {
      await subsonicRoutes(rest, ctx, GROUPS);
    },
    {
      prefix: '/rest',
      // Fastify types serializers as returning strings; pino accepts objects (its default req serializer returns one).
      logSerializers: { req: redactedRequest as unknown as (value: unknown) => string },
    },
  );
  await sharePages(app, ctx);
}
