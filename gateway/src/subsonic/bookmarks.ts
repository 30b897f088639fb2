/**
 * Bookmarks and play queues: getBookmarks, createBookmark, deleteBookmark, getPlayQueue,
 * savePlayQueue, and OpenSubsonic's index-based getPlayQueueByIndex / savePlayQueueByIndex.
 */
import { TagsonicError } from '@tagsonic/core/errors';
import { badParam, ErrorCodes, missingParam } from './errors.ts';
import { child } from './mappers.ts';
import type { BookmarkBody } from './model.ts';
import { defineGroup } from './registry.ts';

export const bookmarksGroup = defineGroup('bookmarks', (api, ctx) => {
  const marks = ctx.library.annotations;
  const q = ctx.library.queries;
  // indexBasedQueue is served but not announced: the library stores the current song, not its
  // place, so a song queued twice cannot be told apart — announcing needs the index stored in core.

  api.method('getBookmarks', async ({ user }) => {
    const docs = await marks.bookmarks(user._id);
    const songs = new Map((await q.songsByIds(docs.map((d) => d.trackId), user._id)).map((s) => [s.id, s]));
    const bookmark: BookmarkBody[] = [];
    for (const d of docs) {
      const song = songs.get(d.trackId);
      // A bookmark on a song that left the library stays stored (it may come back) but is not listed.
      if (!song) continue;
      bookmark.push({ position: d.position, username: user.username, comment: d.comment, created: d.createdAt, changed: d.updatedAt, entry: child(song) });
    }
    return { bookmarks: { bookmark } };
  });

  api.method('createBookmark', async ({ params, user }) => {
    const id = params.required('id');
    const position = params.requiredInt('position');
    if (position < 0) throw badParam('position', 'a number of milliseconds ≥ 0');
    await marks.saveBookmark(user._id, id, position, params.str('comment') ?? '');
  });

  api.method('deleteBookmark', async ({ params, user }) => {
    await marks.deleteBookmark(user._id, params.required('id'));
  });

  const queue = async (user: { _id: string }) => {
    const doc = await marks.playQueue(user._id);
    if (!doc) return null;
    const songs = await q.songsByIds(doc.trackIds, user._id);
    return { doc, songs };
  };

  api.method('getPlayQueue', async ({ user }) => {
    const found = await queue(user);
    if (!found) return undefined;
    const { doc, songs } = found;
    const current = doc.currentId !== null && songs.some((s) => s.id === doc.currentId) ? doc.currentId : undefined;
    return {
      playQueue: {
        ...(current !== undefined ? { current, position: doc.position } : {}),
        username: user.username,
        changed: doc.changedAt,
        changedBy: doc.changedBy,
        entry: songs.map(child),
      },
    };
  });

  api.method('getPlayQueueByIndex', async ({ user }) => {
    const found = await queue(user);
    if (!found) return undefined;
    const { doc, songs } = found;
    // The queue stores the current song; with a song queued twice this is its first place.
    const index = doc.currentId === null ? -1 : songs.findIndex((s) => s.id === doc.currentId);
    return {
      playQueueByIndex: {
        ...(index >= 0 ? { currentIndex: index, position: doc.position } : {}),
        username: user.username,
        changed: doc.changedAt,
        changedBy: doc.changedBy,
        entry: songs.map(child),
      },
    };
  });

  api.method('savePlayQueue', async ({ params, user, client }) => {
    const trackIds = params.all('id');
    const current = params.str('current') || undefined;
    await marks.savePlayQueue(user._id, { trackIds, currentId: current ?? (trackIds.length ? trackIds[0] : null), position: params.int('position', 0), client });
  });

  api.method('savePlayQueueByIndex', async ({ params, user, client }) => {
    const trackIds = params.all('id');
    const index = params.int('currentIndex');
    // OpenSubsonic asks for error 10 for a missing or out-of-range index.
    if (trackIds.length > 0 && index === undefined) throw missingParam('currentIndex');
    if (index !== undefined && (index < 0 || index >= trackIds.length)) {
      throw new TagsonicError('invalid', ErrorCodes.BAD_INDEX, `currentIndex must be from 0 to ${trackIds.length - 1} (the queued songs).`);
    }
    await marks.savePlayQueue(user._id, {
      trackIds,
      currentId: index === undefined ? null : trackIds[index]!,
      position: params.int('position', 0),
      client,
    });
  });
});
