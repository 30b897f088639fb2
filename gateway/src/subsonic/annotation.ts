/**
 * Annotations: star/unstar (id, albumId, artistId; each may repeat), setRating, scrobble (several ids
 * with their times; `submission=false` only sets now playing).
 */
import { notFound } from '@tagsonic/core/errors';
import { badParam, missingParam } from './errors.ts';
import { defineGroup } from './registry.ts';

export const annotationGroup = defineGroup('annotation', (api, ctx) => {
  const marks = ctx.library.annotations;

  const targets = (params: { all(name: string): string[] }) => ({ id: params.all('id'), albumId: params.all('albumId'), artistId: params.all('artistId') });

  api.method('star', async ({ params, user }) => {
    await marks.star(user._id, targets(params));
  });

  api.method('unstar', async ({ params, user }) => {
    await marks.unstar(user._id, targets(params));
  });

  api.method('setRating', async ({ params, user }) => {
    const id = params.required('id');
    const rating = params.requiredInt('rating');
    if (rating < 0 || rating > 5) throw badParam('rating', 'a whole number from 0 (none) to 5');
    await marks.setRating(user._id, id, rating);
  });

  api.method('scrobble', async ({ params, user, client }) => {
    const ids = params.all('id');
    if (ids.length === 0) throw missingParam('id');
    const times = params.ints('time');
    if (times.length > 0 && times.length !== ids.length) throw badParam('time', 'given once per id (or not at all)');
    const submission = params.bool('submission', true);
    // Check every id first so a bad one in the middle does not leave half the plays recorded.
    const known = new Set((await ctx.library.queries.songsByIds(ids)).map((s) => s.id));
    const unknown = ids.find((id) => !known.has(id));
    if (unknown !== undefined) throw notFound('TAGSONIC_ERR_LIBRARY_NOT_FOUND', `No song with id "${unknown}".`, { id: unknown });
    for (const [i, id] of ids.entries()) {
      const time = times[i];
      await marks.scrobble(user._id, id, { submission, client, ...(time !== undefined ? { time: new Date(time) } : {}) });
    }
  });
});
