import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import fastifyCompress from '@fastify/compress';
import fastifyMultipart from '@fastify/multipart';
import { constants as zlibConstants } from 'node:zlib';
import { registerAuth } from './auth.ts';
import { errorEnvelope, notFoundEnvelope, useEnvelopeErrors } from './envelope.ts';
import type { GatewayDeps } from './deps.ts';
import { buildContext } from './services.ts';
import { isApiPath, registerDashboard, SECURITY_HEADERS } from './static.ts';
import { healthRoutes } from './routes/health.ts';
import { tokenRoutes } from './routes/token.ts';
import { userRoutes } from './routes/user.ts';
import { adminRoutes } from './routes/admin.ts';
import { fileListRoutes } from './routes/file-list.ts';
import { fileId3ListRoutes } from './routes/file-id3-list.ts';
import { musicId3Routes } from './routes/music-id3.ts';
import { mediaRoutes } from './routes/media.ts';
import { imageRoutes } from './routes/images.ts';
import { logoRoutes } from './routes/logo.ts';
import { updateId3Routes } from './routes/update-id3.ts';
import { undoRoutes } from './routes/undo.ts';
import { folderStateRoutes } from './routes/folder-state.ts';
import { previewRegexRoutes } from './routes/preview-regex.ts';
import { recordRoutes } from './routes/record.ts';
import { statsRoutes } from './routes/stats.ts';
import { eventRoutes } from './routes/events.ts';
import { scrapeRoutes } from './routes/scrape.ts';
import { pluginRoutes } from './routes/plugins.ts';
import { taskRoutes } from './routes/tasks.ts';
import { artistTaskRoutes } from './routes/artist-tasks.ts';
import { libraryTaskRoutes } from './routes/library-tasks.ts';
import { auditLogRoutes } from './routes/audit-log.ts';
import { deleteFilesRoutes } from './routes/delete-files.ts';
import { runtimeLogRoutes } from './routes/runtime-log.ts';
import { deleteTrackRoutes } from './routes/delete-track.ts';
import { watcherRoutes } from './routes/watcher.ts';
import { strmStreamRoutes } from './routes/strm-stream.ts';
import { settingsRoutes } from './routes/settings.ts';
import { libraryEntityRoutes } from './routes/library-entities.ts';
import { registerSubsonic } from './subsonic/index.ts';
import { RequestLog } from './request-log.ts';

/**
 * Builds the Fastify app without listening (tests call `inject()`; the cli calls `listen()`).
 * Each surface is an encapsulated plugin with its own error handler and envelope.
 */
export async function buildApp(deps: GatewayDeps, options: FastifyServerOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    logController: new RequestLog(),
    trustProxy: deps.config.trustedProxies.length ? deps.config.trustedProxies : false,
    bodyLimit: 32 * 1024 * 1024,
    // Unknown keys must be a 400 where a schema says additionalProperties: false (NOTES.md).
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false } },
    ...options,
  });
  const ctx = await buildContext(deps);
  await registerAuth(app, { jwtKey: deps.secrets.jwtKey, csrfSecret: deps.secrets.csrfSecret, users: deps.users });
  app.addHook('onSend', async (_request, reply) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) reply.header(name, value);
  });
  // Answers of 1 KB and more in a text type (JSON, Subsonic XML, the page) go compressed to a client that accepts
  // br or gzip: a phone on a mobile network gets Subsonic lists ~5× smaller. Audio, pictures, archives, ranges (206)
  // and the event stream (hijacked) are sent as they are; the dashboard's assets come precompressed from the build
  // (static.ts). Fastest levels, compressed in one go up to 1 MiB: bench/subsonic/run.ts --accept-encoding gzip
  // measured gzip 6 through zlib streams at a third of the uncompressed req/s with p99 ~20 ms; these keep p99 ≤ 3 ms
  // on the lists (bench/README.md).
  await app.register(fastifyCompress, {
    global: true,
    encodings: ['br', 'gzip'],
    threshold: 1024,
    syncThreshold: 1 << 20,
    zlibOptions: { level: 1 },
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 1 } },
  });

  await app.register(async (dashboardApi) => {
    useEnvelopeErrors(dashboardApi);
    await dashboardApi.register(fastifyMultipart, { limits: { files: 1, fields: 10, fileSize: 10 * 1024 * 1024 } });
    await tokenRoutes(dashboardApi, ctx);
    await userRoutes(dashboardApi, ctx);
    await adminRoutes(dashboardApi, ctx);
    await fileListRoutes(dashboardApi, ctx);
    await fileId3ListRoutes(dashboardApi, ctx);
    await musicId3Routes(dashboardApi, ctx);
    await mediaRoutes(dashboardApi, ctx);
    await imageRoutes(dashboardApi, ctx);
    await logoRoutes(dashboardApi, ctx);
    await updateId3Routes(dashboardApi, ctx);
    await undoRoutes(dashboardApi, ctx);
    await folderStateRoutes(dashboardApi, ctx);
    await previewRegexRoutes(dashboardApi);
    await recordRoutes(dashboardApi, ctx);
    await statsRoutes(dashboardApi, ctx);
    await eventRoutes(dashboardApi, ctx);
    await scrapeRoutes(dashboardApi, ctx);
    await pluginRoutes(dashboardApi, ctx);
    await taskRoutes(dashboardApi, ctx);
    await artistTaskRoutes(dashboardApi, ctx);
    await libraryTaskRoutes(dashboardApi, ctx);
    await auditLogRoutes(dashboardApi, ctx);
    await deleteFilesRoutes(dashboardApi, ctx);
    await runtimeLogRoutes(dashboardApi, ctx);
    await deleteTrackRoutes(dashboardApi, ctx);
    await watcherRoutes(dashboardApi, ctx);
    await strmStreamRoutes(dashboardApi, ctx);
    await settingsRoutes(dashboardApi, ctx);
    await libraryEntityRoutes(dashboardApi, ctx);
  });
  await healthRoutes(app, ctx);
  await registerSubsonic(app, ctx);

  const page = await registerDashboard(app, ctx.dashboardDir);
  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url.split('?')[0];
    if (isApiPath(url) || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.status(404).send(notFoundEnvelope(request.method, url));
    }
    return page(request, reply);
  });
  // Outside the dashboard API (healthz, static files): same rule, 5xx details never reach a client.
  app.setErrorHandler((error, request, reply) => {
    const { status, body } = errorEnvelope(error);
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    return reply.status(status).send(body);
  });
  return app;
}
