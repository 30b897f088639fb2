import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { TagsonicError } from '@tagsonic/core/errors';
import { effectiveRole, type UserDoc } from '@tagsonic/core/users';
import { ok } from '../envelope.ts';
import { requireAdmin, requireUser } from '../auth.ts';
import { forgetBackground } from './logo.ts';
import {
  CreateKeyRequest,
  CreateUserRequest,
  EmptyResponse,
  KeyListResponse,
  KeyParams,
  NewKeyResponse,
  PasswordRequest,
  SetAdminRequest,
  SetRoleRequest,
  SubsonicPasswordRequest,
  UserListResponse,
  UserParams,
  UserResponse,
} from '../schemas/admin.ts';
import { ErrorEnvelope } from '../schemas/common.ts';
import { RadioStationListResponse } from '../schemas/radio.ts';
import { RadioStations } from '../subsonic/radio-store.ts';
import type { Ctx } from '../deps.ts';

/**
 * The admin backend's API (`/apimt/admin/*`, administrators only): accounts, editions, passwords,
 * each account's Subsonic password and API keys, and the internet radio stations (managed by Subsonic
 * clients; listed here so an administrator sees what every client shows).
 */
export async function adminRoutes(app: FastifyInstance, ctx: Ctx): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const gate = { onRequest: [requireUser, requireAdmin] };
  const errors = { '4xx': ErrorEnvelope };

  const view = async (u: UserDoc) => ({
    id: u._id,
    username: u.username,
    role: u.role,
    effective_role: effectiveRole(u),
    is_admin: u.isAdmin,
    is_forever: u.isForever,
    active_until: u.activeUntil ? new Date(u.activeUntil).toISOString() : null,
    has_subsonic_password: await ctx.subsonic.hasPassword(u.username),
    api_key_count: (await ctx.subsonic.listApiKeys(u.username)).length,
    created_at: new Date(u.createdAt).toISOString(),
  });
  const mustFind = async (username: string) => {
    const u = await ctx.users.findByName(username);
    if (!u) throw new TagsonicError('not_found', 'TAGSONIC_ERR_USER_NOT_FOUND', `No user named "${username}".`);
    return u;
  };

  r.get('/apimt/admin/users/', { ...gate, schema: { response: { 200: UserListResponse, ...errors } } }, async () =>
    ok({ users: await Promise.all((await ctx.users.list()).map(view)) }),
  );

  r.post('/apimt/admin/users/', { ...gate, schema: { body: CreateUserRequest, response: { 200: UserResponse, ...errors } } }, async (request) => {
    const b = request.body;
    let user = await ctx.users.create({ username: b.username, password: b.password, isAdmin: b.is_admin ?? false });
    if (b.role === 'V2') user = await ctx.users.setRole(user.username, 'V2');
    return ok(await view(user), '创建成功！');
  });

  r.delete('/apimt/admin/users/:username/', { ...gate, schema: { params: UserParams, response: { 200: EmptyResponse, ...errors } } }, async (request) => {
    if (request.params.username === request.user.username) {
      throw new TagsonicError('conflict', 'TAGSONIC_ERR_USER_DELETE_SELF', 'You cannot delete the account you are signed in with.');
    }
    const doomed = await ctx.users.findByName(request.params.username);
    await ctx.users.delete(request.params.username);
    if (doomed) await forgetBackground(ctx, doomed);
    return ok(null, '删除成功！');
  });

  r.post(
    '/apimt/admin/users/:username/role/',
    { ...gate, schema: { params: UserParams, body: SetRoleRequest, response: { 200: UserResponse, ...errors } } },
    async (request) => {
      const until = request.body.active_until ? new Date(request.body.active_until) : null;
      if (until && until.getTime() <= Date.now()) {
        throw new TagsonicError('invalid', 'TAGSONIC_ERR_USER_BAD_DATE', 'active_until must be in the future.');
      }
      return ok(await view(await ctx.users.setRole(request.params.username, request.body.role, { activeUntil: until })), '修改成功！');
    },
  );

  r.post(
    '/apimt/admin/users/:username/admin/',
    { ...gate, schema: { params: UserParams, body: SetAdminRequest, response: { 200: UserResponse, ...errors } } },
    async (request) => ok(await view(await ctx.users.setAdmin(request.params.username, request.body.is_admin)), '修改成功！'),
  );

  r.post(
    '/apimt/admin/users/:username/password/',
    { ...gate, schema: { params: UserParams, body: PasswordRequest, response: { 200: EmptyResponse, ...errors } } },
    async (request) => {
      await ctx.users.setPassword(request.params.username, request.body.password);
      return ok(null, '密码已重置');
    },
  );

  r.post(
    '/apimt/admin/users/:username/subsonic_password/',
    { ...gate, schema: { params: UserParams, body: SubsonicPasswordRequest, response: { 200: UserResponse, ...errors } } },
    async (request) => {
      await ctx.subsonic.setPassword(request.params.username, request.body.password);
      return ok(await view(await mustFind(request.params.username)), 'Subsonic 密码已设置');
    },
  );

  r.delete(
    '/apimt/admin/users/:username/subsonic_password/',
    { ...gate, schema: { params: UserParams, response: { 200: UserResponse, ...errors } } },
    async (request) => {
      await ctx.subsonic.clearPassword(request.params.username);
      return ok(await view(await mustFind(request.params.username)), 'Subsonic 密码已清除');
    },
  );

  const keyView = (k: { id: string; name: string; prefix: string; createdAt: Date; lastUsedAt: Date | null }) => ({
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    created_at: new Date(k.createdAt).toISOString(),
    last_used_at: k.lastUsedAt ? new Date(k.lastUsedAt).toISOString() : null,
  });

  r.get('/apimt/admin/users/:username/api_keys/', { ...gate, schema: { params: UserParams, response: { 200: KeyListResponse, ...errors } } }, async (request) =>
    ok({ keys: (await ctx.subsonic.listApiKeys(request.params.username)).map(keyView) }),
  );

  r.post(
    '/apimt/admin/users/:username/api_keys/',
    { ...gate, schema: { params: UserParams, body: CreateKeyRequest, response: { 200: NewKeyResponse, ...errors } } },
    async (request) => {
      const created = await ctx.subsonic.createApiKey(request.params.username, request.body.name);
      return ok({ ...keyView(created), key: created.key }, 'API 密钥已创建（只显示这一次）');
    },
  );

  r.delete(
    '/apimt/admin/users/:username/api_keys/:id/',
    { ...gate, schema: { params: KeyParams, response: { 200: EmptyResponse, ...errors } } },
    async (request) => {
      await ctx.subsonic.revokeApiKey(request.params.username, request.params.id);
      return ok(null, 'API 密钥已吊销');
    },
  );

  const radio = new RadioStations(ctx.store);
  r.get('/apimt/admin/radio_stations/', { ...gate, schema: { response: { 200: RadioStationListResponse, ...errors } } }, async () =>
    ok({
      stations: (await radio.list()).map((s) => ({
        id: s._id,
        name: s.name,
        stream_url: s.streamUrl,
        home_page_url: s.homePageUrl,
        created_at: new Date(s.createdAt).toISOString(),
        updated_at: new Date(s.updatedAt).toISOString(),
      })),
    }),
  );
}
