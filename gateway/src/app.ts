import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { registerAuth } from './auth.ts';
import { useEnvelopeErrors } from './envelope.ts';
import type { GatewayDeps } from './deps.ts';
import { healthRoutes } from './routes/health.ts';
import { tokenRoutes } from './routes/token.ts';
import { updateId3Routes } from './routes/update-id3.ts';
import { eventRoutes } from './routes/events.ts';

/**
 * Builds the Fastify app without listening (tests call `inject()`; the cli calls `listen()`).
 * Each surface is an encapsulated plugin with its own error handler and envelope.
 */
export async function buildApp(deps: GatewayDeps, options: FastifyServerOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    trustProxy: deps.config.trustedProxies.length ? deps.config.trustedProxies : false,
    bodyLimit: 32 * 1024 * 1024,
    // Unknown keys must be a 400 where a schema says additionalProperties: false (NOTES.md).
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false } },
    ...options,
  });
  await registerAuth(app, deps.secrets.jwtKey);
  await app.register(async (dashboardApi) => {
    useEnvelopeErrors(dashboardApi);
    await tokenRoutes(dashboardApi, deps);
    await updateId3Routes(dashboardApi, deps);
    await eventRoutes(dashboardApi, deps);
  });
  await healthRoutes(app, deps);
  return app;
}
