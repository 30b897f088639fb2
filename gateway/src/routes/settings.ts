/**
 * The system settings (spec doc 2 §7 "System": getSysDict, UpdateSys: key, value; §3 "System settings keys"):
 * GET /apimt/sys_dict/ and POST /apimt/update_sys/. The keys, their types, defaults and checks live in core/settings;
 * this is the HTTP edge. Secrets are write-only: an empty value keeps the stored one, `clear: true` empties it (and
 * puts any other key back to its default).
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { publicSettings, readSettings, updateSetting, withoutSecrets } from '@tagsonic/core/settings';
import { ok } from '../envelope.ts';
import { requireAdmin, requireUser } from '../auth.ts';
import { ErrorEnvelope } from '../schemas/common.ts';
import { SysDictResponse, UpdateSysRequest, UpdateSysResponse } from '../schemas/settings.ts';
import type { Ctx } from '../deps.ts';

export async function settingsRoutes(app: FastifyInstance, ctx: Ctx): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get('/apimt/sys_dict/', { onRequest: requireUser, schema: { response: { 200: SysDictResponse, '4xx': ErrorEnvelope } } }, async (request) => {
    const settings = await readSettings(ctx.store);
    if (!request.user.isAdmin) return ok({ ...publicSettings(settings), secrets_set: [] });
    const { values, secretsSet } = withoutSecrets(settings);
    return ok({ ...values, secrets_set: secretsSet });
  });

  r.post(
    '/apimt/update_sys/',
    { onRequest: [requireUser, requireAdmin], schema: { body: UpdateSysRequest, response: { 200: UpdateSysResponse, '4xx': ErrorEnvelope } } },
    async (request) => {
      const { key, value, clear } = request.body;
      const updated = await updateSetting({ store: ctx.store, roots: ctx.roots, bus: ctx.bus }, key, value, request.user.username, { clear });
      // This process's streams use the change at once; other processes' readers within their few seconds' cache.
      ctx.mediaServices.decodeSettings.invalidate();
      return ok(updated, '修改成功！');
    },
  );
}
