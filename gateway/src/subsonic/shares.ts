/**
 * Shares: getShares, createShare, updateShare, deleteShare. The public page a share's `url` points
 * to is share-page.ts (no login; expired shares answer 410).
 */
import { child } from './mappers.ts';
import type { ShareBody } from './model.ts';
import type { Params } from './params.ts';
import { defineGroup } from './registry.ts';
import { ShareStore, type ShareDoc } from './share-store.ts';

const shareUrl = (baseUrl: string, id: string) => `${baseUrl}/share/${id}`;

/** `expires` in ms since 1970; 0 or empty means never. */
function expiresParam(params: Params): Date | null | undefined {
  if (!params.has('expires')) return undefined;
  const ms = params.int('expires');
  return ms === undefined || ms <= 0 ? null : new Date(ms);
}

export const sharesGroup = defineGroup('shares', async (api, ctx) => {
  const shares = new ShareStore(ctx.store, ctx.library);
  await shares.init();

  const body = async (doc: ShareDoc, baseUrl: string, userId: string): Promise<ShareBody> => ({
    id: doc._id,
    url: shareUrl(baseUrl, doc._id),
    description: doc.description,
    username: doc.username,
    created: doc.createdAt,
    ...(doc.expiresAt ? { expires: doc.expiresAt } : {}),
    ...(doc.lastVisitedAt ? { lastVisited: doc.lastVisitedAt } : {}),
    visitCount: doc.visitCount,
    entry: (await shares.songs(doc, userId)).map(child),
  });

  api.method('getShares', async ({ user, baseUrl }) => {
    const docs = await shares.list(user._id);
    return { shares: { share: await Promise.all(docs.map((d) => body(d, baseUrl, user._id))) } };
  });

  api.method('createShare', async ({ params, user, baseUrl }) => {
    params.required('id');
    const doc = await shares.create(user, { itemIds: params.all('id'), description: params.str('description'), expiresAt: expiresParam(params) ?? null });
    return { shares: { share: [await body(doc, baseUrl, user._id)] } };
  });

  api.method('updateShare', async ({ params, user }) => {
    const doc = await shares.owned(params.required('id'), user);
    await shares.update(doc, { description: params.str('description'), expiresAt: expiresParam(params) });
  });

  api.method('deleteShare', async ({ params, user }) => {
    await shares.delete(await shares.owned(params.required('id'), user));
  });
});
