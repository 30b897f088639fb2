/**
 * How endpoint groups plug into /rest: a group is `defineGroup(name, (api, ctx) => { api.method(...) })`.
 * Each method is served as `/rest/<name>` and `/rest/<name>.view`, GET and POST (form), after the
 * auth hook (unless registered with `publicMethod`). A handler returns the response element(s)
 * (`{ album: … }`), nothing for an empty ok, or the Fastify reply after sending binary data itself.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { UserDoc } from '@tagsonic/core/users';
import type { Ctx } from '../deps.ts';
import type { ResponseBody } from './model.ts';
import type { Params } from './params.ts';
import type { Format } from './serialize.ts';

export interface PublicCall {
  params: Params;
  ctx: Ctx;
  request: FastifyRequest;
  reply: FastifyReply;
  /** The `c` parameter (client name), '' when absent. */
  client: string;
  format: Format;
  /** The server's own base URL as the client reached it (scheme://host[:port]), for links in answers. */
  baseUrl: string;
  /** Every registered method and declared extension (getOpenSubsonicExtensions reads it). */
  registry: Registry;
}

export interface SubsonicCall extends PublicCall {
  user: UserDoc;
}

export type HandlerResult = ResponseBody | void | FastifyReply;
export type Handler = (call: SubsonicCall) => Promise<HandlerResult> | HandlerResult;
export type PublicHandler = (call: PublicCall) => Promise<HandlerResult> | HandlerResult;

export interface GroupApi {
  /** An authenticated method. */
  method(name: string, handler: Handler): void;
  /** A method answered without credentials (getOpenSubsonicExtensions). */
  publicMethod(name: string, handler: PublicHandler): void;
  /** Declares an OpenSubsonic extension this group implements (listed by getOpenSubsonicExtensions). */
  extension(name: string, versions: readonly number[]): void;
}

export interface SubsonicGroup {
  name: string;
  register(api: GroupApi, ctx: Ctx): void | Promise<void>;
}

export const defineGroup = (name: string, register: SubsonicGroup['register']): SubsonicGroup => ({ name, register });

export type Endpoint = { name: string; group: string } & ({ public: false; handler: Handler } | { public: true; handler: PublicHandler });

export interface Registry {
  endpoints: Map<string, Endpoint>;
  extensions: Map<string, readonly number[]>;
}

/** Runs every group's registration; a method registered twice (or also listed as not implemented) is a programming error. */
export async function buildRegistry(groups: readonly SubsonicGroup[], ctx: Ctx, reserved: ReadonlySet<string>): Promise<Registry> {
  const endpoints = new Map<string, Endpoint>();
  const extensions = new Map<string, readonly number[]>();
  for (const group of groups) {
    const add = (e: Endpoint) => {
      if (endpoints.has(e.name) || reserved.has(e.name)) throw new Error(`Subsonic method ${e.name} is registered twice (group ${group.name}).`);
      endpoints.set(e.name, e);
    };
    await group.register(
      {
        method: (name, handler) => add({ name, group: group.name, public: false, handler }),
        publicMethod: (name, handler) => add({ name, group: group.name, public: true, handler }),
        extension: (name, versions) => extensions.set(name, [...versions]),
      },
      ctx,
    );
  }
  return { endpoints, extensions };
}
