import type { FastifyInstance } from 'fastify';
import { EVENT_PATTERN } from '@tagsonic/core/tasks';
import { requireUser } from '../auth.ts';
import type { Ctx as GatewayDeps } from '../deps.ts';

const HEARTBEAT_MS = 15_000;

/**
 * GET /apimt/events/: Server-Sent Events carrying the bus's events (task progress, track updates)
 * to the browser, one `event: <subject>` per message. A heartbeat comment keeps proxies from
 * closing an idle stream.
 */
export async function eventRoutes(app: FastifyInstance, deps: GatewayDeps): Promise<void> {
  app.get('/apimt/events/', { onRequest: requireUser }, async (request, reply) => {
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write(': connected\n\n');
    const sub = deps.bus.subscribe(EVENT_PATTERN, (subject, payload) => {
      res.write(`event: ${subject}\ndata: ${JSON.stringify(payload)}\n\n`);
    });
    const beat = setInterval(() => res.write(': ping\n\n'), HEARTBEAT_MS);
    beat.unref();
    request.raw.on('close', () => {
      clearInterval(beat);
      void sub.close();
    });
  });
}
