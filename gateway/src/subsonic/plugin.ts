/**
 * The encapsulated /rest plugin: routes every registered method (and every not-implemented one) as
 * `<name>` and `<name>.view`, GET and form POST; authenticates; wraps answers and failures in the
 * Subsonic envelope in the format asked for. Failures are HTTP 200 with an error body, as clients expect.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { VERSION } from '@tagsonic/core/config';
import { TagsonicError } from '@tagsonic/core/errors';
import { noteActivity } from '@tagsonic/core/memory';
import type { Ctx } from '../deps.ts';
import { authenticate, checkVersion } from './auth.ts';
import { allowAnyOrigin, subsonicCors } from './cors.ts';
import { ErrorCodes, missingParam, toSubsonicError } from './errors.ts';
import { API_VERSION, SERVER_TYPE, type ResponseBody, type SubsonicErrorBody, type SubsonicResponse } from './model.ts';
import { NOT_IMPLEMENTED } from './not-implemented.ts';
import { Params } from './params.ts';
import { buildRegistry, type Endpoint, type PublicCall, type Registry, type SubsonicGroup } from './registry.ts';
import { formatOf, serialize } from './serialize.ts';

const FORM_LIMIT = 1024 * 1024;

function envelope(serverVersion: string, body: ResponseBody | undefined, error?: SubsonicErrorBody): SubsonicResponse {
  return {
    status: error ? 'failed' : 'ok',
    version: API_VERSION,
    type: SERVER_TYPE,
    serverVersion,
    openSubsonic: true,
    ...(error ? { error } : body),
  };
}

/** A form body as name → values (names may repeat), like the query string. */
function parseForm(body: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of new URLSearchParams(body)) (out[k] ??= []).push(v);
  return out;
}

const paramsOf = (request: FastifyRequest) =>
  new Params(request.query as Record<string, unknown>, typeof request.body === 'object' ? (request.body as Record<string, unknown>) : undefined);

export async function subsonicRoutes(rest: FastifyInstance, ctx: Ctx, groups: readonly SubsonicGroup[]): Promise<Registry> {
  const registry = await buildRegistry(groups, ctx, new Set(NOT_IMPLEMENTED.keys()));
  const serverVersion = `${VERSION.display} (${ctx.buildId})`;

  const send = (request: FastifyRequest, reply: FastifyReply, body: ResponseBody | undefined, failure?: unknown): FastifyReply => {
    const params = paramsOf(request);
    let status = 200;
    let error: SubsonicErrorBody | undefined;
    if (failure !== undefined) {
      const mapped = toSubsonicError(failure);
      if (mapped.internal) request.log.error({ err: failure }, 'subsonic request failed');
      status = mapped.status;
      error = mapped.body;
    }
    const out = serialize(envelope(serverVersion, body, error), formatOf(params.str('f')), params.str('callback'));
    return reply.status(status).header('content-type', out.contentType).send(out.body);
  };

  subsonicCors(rest);
  rest.removeAllContentTypeParsers();
  rest.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_LIMIT }, (_request, body, done) => {
    done(null, parseForm(body as string));
  });
  // Some clients POST with no or another content type and all parameters in the query: ignore such bodies.
  rest.addContentTypeParser('*', { bodyLimit: FORM_LIMIT }, (_request, _payload, done) => done(null, undefined));

  rest.setErrorHandler((error, request, reply) => {
    allowAnyOrigin(reply);
    return send(request, reply, undefined, error);
  });
  rest.setNotFoundHandler((request, reply) => {
    allowAnyOrigin(reply);
    const name = request.url.split('?')[0]!.replace(/^\/rest\/?/, '').replace(/\.view$/, '');
    return send(request, reply, undefined, new TagsonicError('not_found', ErrorCodes.UNKNOWN_METHOD, `Unknown Subsonic method "${name}".`));
  });

  const handle = (endpoint: Endpoint) => async (request: FastifyRequest, reply: FastifyReply) => {
    // A burst of calls leaves garbage in the old generation: collected once the clients go quiet.
    noteActivity();
    allowAnyOrigin(reply);
    try {
      const params = paramsOf(request);
      const call: PublicCall = {
        params,
        ctx,
        request,
        reply,
        client: params.str('c') ?? '',
        format: formatOf(params.str('f')),
        baseUrl: `${request.protocol}://${request.host}`,
        registry,
      };
      let result;
      if (endpoint.public) result = await endpoint.handler(call);
      else {
        checkVersion(params.str('v'));
        if (!call.client) throw missingParam('c');
        const user = await authenticate(params, ctx.subsonic, { throttle: ctx.subsonicThrottle, ip: request.ip });
        request.log.debug({ subsonicUser: user.username, method: endpoint.name }, 'subsonic call');
        result = await endpoint.handler({ ...call, user });
      }
      if (result === reply || reply.sent) return reply;
      return send(request, reply, (result ?? undefined) as ResponseBody | undefined);
    } catch (e) {
      if (reply.sent) {
        request.log.error({ err: e }, 'subsonic request failed after the answer started');
        return reply;
      }
      return send(request, reply, undefined, e);
    }
  };

  const route = (name: string, handler: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>) => {
    for (const url of [`/${name}`, `/${name}.view`]) rest.route({ method: ['GET', 'POST'], url, handler });
  };
  for (const endpoint of registry.endpoints.values()) route(endpoint.name, handle(endpoint));
  for (const [name, reason] of NOT_IMPLEMENTED) {
    route(name, async (request, reply) => {
      allowAnyOrigin(reply);
      return send(request, reply, undefined, new TagsonicError('unsupported', ErrorCodes.NOT_IMPLEMENTED, `${name} is not implemented. ${reason}`));
    });
  }
  return registry;
}
