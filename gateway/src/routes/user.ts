import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { VERSION } from '@tagsonic/core/config';
import { effectiveRole, type UserDoc } from '@tagsonic/core/users';
import { verifyLicense } from '@tagsonic/core/license';
import { readSettings } from '@tagsonic/core/settings';
import { ok } from '../envelope.ts';
import { endSession, requireUser } from '../auth.ts';
import { ActivateRequest, ActivateResponse, LogoutResponse, UserInfoResponse } from '../schemas/auth.ts';
import { ErrorEnvelope } from '../schemas/common.ts';
import { backgroundUrl } from './logo.ts';
import type { Ctx } from '../deps.ts';

/** The shell's account calls: GET /user/info/, POST /user/active/, POST /logout/. */
export async function userRoutes(app: FastifyInstance, ctx: Ctx): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get('/user/info/', { onRequest: requireUser, schema: { response: { 200: UserInfoResponse, '4xx': ErrorEnvelope } } }, async (request) => {
    const user = request.account!;
    const { salt, hash } = await ctx.subsonic.tokenFor(user.username);
    return ok({
      username: user.username,
      role: effectiveRole(user),
      is_forever: effectiveRole(user) === 'V2' && user.isForever,
      active_until: activeUntil(user),
      is_admin: user.isAdmin,
      salt,
      hash,
      sys_dict: { mi_play_in_pl: await miPlayInPl(ctx), background_url: await backgroundUrl(ctx, user) },
      version: { display: VERSION.display, project: VERSION.project },
    });
  });

  r.post(
    '/user/active/',
    { onRequest: requireUser, schema: { body: ActivateRequest, response: { 200: ActivateResponse, '4xx': ErrorEnvelope } } },
    async (request) => {
      const grant = verifyLicense(ctx.secrets.licensePublicKey, request.body.code);
      const user = await ctx.users.activate(request.user.username, { codeId: grant.id, isForever: grant.isForever, expiresAt: grant.expiresAt });
      return ok({ role: effectiveRole(user), is_forever: user.isForever, active_until: activeUntil(user) }, '激活成功！');
    },
  );

  // No session needed: signing out must work with an expired one too. It only clears cookies.
  r.post('/logout/', { schema: { response: { 200: LogoutResponse } } }, async (request, reply) => {
    endSession(request, reply);
    return ok(null, '已退出登录');
  });
}

const activeUntil = (user: UserDoc): string | null =>
  effectiveRole(user) === 'V2' && !user.isForever && user.activeUntil ? new Date(user.activeUntil).toISOString() : null;

/** The smart-speaker flag of the system settings, as the spec's client reads it (1 or 0). */
async function miPlayInPl(ctx: Ctx): Promise<number> {
  return (await readSettings(ctx.store)).mi_play_in_pl ? 1 : 0;
}
