import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
// Subsonic clients send credentials in the query string (`p`, `t`+`s`, `apiKey`): never into a log.
import { redactUrl as redactQuery } from './subsonic/auth.ts';

const line = (request: FastifyRequest, reply: FastifyReply) =>
  `${request.method} ${redactQuery(request.url)} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)} ms`;
const debugging = (reply: FastifyReply) => reply.log.level === 'debug' || reply.log.level === 'trace';

/**
 * Fastify's per-request log lines, made for a console people read: nothing when a request starts and one
 * debug line when it ends (`GET /rest/ping.view?u=alice&t=[redacted]&s=[redacted] 200 0.4 ms`). Fastify's
 * default, two info lines per request with the raw URL, drowned every other message.
 */
export class RequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) reply.log.error({ err: error }, line(request, reply));
    else if (debugging(reply)) reply.log.debug(line(request, reply));
  }

  override defaultErrorLog(error: Error, request: FastifyRequest, reply: FastifyReply): void {
    if (reply.statusCode >= 500) reply.log.error({ err: error }, line(request, reply));
    else if (debugging(reply)) reply.log.debug(`${line(request, reply)}: ${error.message}`);
  }

  override routeNotFound(request: FastifyRequest, reply: FastifyReply): void {
    if (debugging(reply)) reply.log.debug(`${request.method} ${redactQuery(request.url)}: no such route`);
  }
}
