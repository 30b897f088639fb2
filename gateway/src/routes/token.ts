import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { TagsonicError } from '@tagsonic/core/errors';
import { effectiveRole } from '@tagsonic/core/users';
import { verifyLicense } from '@tagsonic/core/license';
import { ok } from '../envelope.ts';
import { startSession } from '../auth.ts';
import { TokenRequest, TokenResponse } from '../schemas/auth.ts';
import { ErrorEnvelope } from '../schemas/common.ts';
import type { Ctx } from '../deps.ts';

/**
 * POST /apimt/token/: username + password (+ an optional activation code) → a session: the token in
 * the body (`token`, for header clients) and in the HttpOnly `AUTHORIZATION` cookie, with the
 * readable `csrftoken` cookie the page echoes in `X-CSRFToken`. Failed attempts are counted (core's
 * LoginThrottle): an address is refused (429) after too many failures for one account or for all, and
 * an account under attack from many addresses is only slowed down, never locked.
 */
export async function tokenRoutes(app: FastifyInstance, ctx: Ctx): Promise<void> {
  app.withTypeProvider<TypeBoxTypeProvider>().post(
    '/apimt/token/',
    { schema: { body: TokenRequest, response: { 200: TokenResponse, '4xx': ErrorEnvelope } } },
    async (request, reply) => {
      const { username, password, code } = request.body;
      await ctx.throttle.check(request.ip, username);
      let user = await ctx.throttle.attempt(request.ip, username, () => ctx.users.authenticate(username, password));
      if (!user) throw new TagsonicError('unauthorized', 'TAGSONIC_ERR_AUTH_BAD_CREDENTIALS', 'Wrong username or password.');
      if (code && code.trim() !== '') {
        const grant = verifyLicense(ctx.secrets.licensePublicKey, code);
        user = await ctx.users.activate(user.username, { codeId: grant.id, isForever: grant.isForever, expiresAt: grant.expiresAt });
      }
      const session = await startSession(request, reply, user);
      return {
        ...ok(
          { username: user.username, role: effectiveRole(user), is_admin: user.isAdmin, is_forever: user.isForever, csrf_token: session.csrf },
          '登录成功',
        ),
        token: session.token,
      };
    },
  );
}
