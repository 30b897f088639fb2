import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { VERSION } from '@tagsonic/core/config';
import { HealthResponse } from '../schemas/health.ts';
import type { Ctx as GatewayDeps } from '../deps.ts';

/** GET /healthz: versions, mode, store and bus drivers with their health. 503 when either is down. */
export async function healthRoutes(app: FastifyInstance, deps: GatewayDeps): Promise<void> {
  const started = Date.now();
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/healthz',
    { schema: { response: { 200: HealthResponse, 503: HealthResponse } } },
    async (_req, reply) => {
      const [store, bus] = await Promise.all([deps.store.health(), deps.bus.health()]);
      const healthy = store.ok && bus.ok;
      return reply.status(healthy ? 200 : 503).send({
        status: healthy ? 'ok' : 'degraded',
        version: { ...VERSION, build: deps.buildId },
        mode: deps.store.driver === 'mongodb' || deps.bus.driver === 'nats' ? 'distributed' : 'embedded',
        store,
        bus,
        uptimeSec: Math.round((Date.now() - started) / 1000),
      });
    },
  );
}
