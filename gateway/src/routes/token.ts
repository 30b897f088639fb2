import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { TagsonicError } from '@tagsonic/core/errors';
import { ok } from '../envelope.ts';
import { TokenRequest, TokenResponse } from '../schemas/auth.ts';
import { ErrorEnvelope } from '../schemas/common.ts';
import type { GatewayDeps } from '../deps.ts';

/** POST /apimt/token/: username + password → session token (`AUTHORIZATION: jwt <token>`). */
export async function tokenRoutes(app: FastifyInstance, deps: GatewayDeps): Promise<void> {
  app.withTypeProvider<TypeBoxTypeProvider>().post(
    '/apimt/token/',
    { schema: { body: TokenRequest, response: { 200: TokenResponse, '4xx': ErrorEnvelope } } },
    async (request) => {
      const user = await deps.users.authenticate(request.body.username, request.body.password);
      if (!user) throw new TagsonicError('unauthorized', 'TAGSONIC_ERR_AUTH_BAD_CREDENTIALS', 'Wrong username or password.');
      const token = await app.jwt.sign({ sub: user._id, username: user.username, role: user.role, isAdmin: user.isAdmin });
      return { ...ok({ username: user.username, role: user.role, is_admin: user.isAdmin }, '登录成功'), token };
    },
  );
}
