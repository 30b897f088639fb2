/**
 * `caps.artists` (the `artists` grant): an artist's picture and biography in the library (core/library
 * artist-meta.ts), for 刮削艺术家. The picture crosses as bytes — the host sniffs and caps them and saves them under
 * the data folder — never as a URL, so a client is never sent to a remote address. A change made for a task carries
 * the task's id, so undo_task puts back what it replaced.
 */
import { isTagsonicError, TagsonicError } from '@tagsonic/core/errors';
import type { ArtistMeta as ArtistStore, ArtistMetaDoc } from '@tagsonic/core/library';
import type { HostFunction } from '../../plugin-host/index.ts';
import { failed, invalidArgument, NOT_FOUND, optionsOf, stringField } from './args.ts';

const IMAGE_MIMES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif']);
const DESCRIPTION_MAX = 20_000;

export function artistsCapability(store: ArtistStore | undefined): Record<string, HostFunction> {
  const ready = () => {
    if (!store) throw failed('artists: this worker has no library to keep artist pictures in');
    return store;
  };
  const artistOf = async (artistId: string) => {
    const name = await ready().artistName(artistId);
    if (name === null) throw new TagsonicError('not_found', NOT_FOUND, `artists: the library has no artist ${JSON.stringify(artistId)}`);
    return name;
  };
  return {
    get: async (args) => {
      const artistId = stringField(optionsOf(args, 'artists.get'), 'artistId', 'artists.get', 64);
      const name = await artistOf(artistId);
      return view(artistId, name, await ready().get(artistId));
    },
    set: async (args, call) => {
      const options = optionsOf(args, 'artists.set');
      const artistId = stringField(options, 'artistId', 'artists.set', 64);
      const source = stringField(options, 'source', 'artists.set', 64);
      const name = await artistOf(artistId);
      let image: Uint8Array | null | undefined;
      if (options.image === null) image = null;
      else if (options.image !== undefined) {
        const artwork = options.image as { mime?: unknown; data?: unknown };
        if (typeof artwork !== 'object' || !IMAGE_MIMES.has(artwork.mime as string) || !(artwork.data instanceof Uint8Array)) {
          throw invalidArgument('artists.set: image must be null or { mime: "image/jpeg" | "image/png" | "image/webp" | "image/gif", data: Uint8Array }');
        }
        image = artwork.data;
      }
      const imageUrl = typeof options.imageUrl === 'string' && /^https?:\/\//i.test(options.imageUrl) ? options.imageUrl.slice(0, 2000) : null;
      let description: string | null | undefined;
      if (options.description === null || typeof options.description === 'string') description = (options.description as string | null)?.slice(0, DESCRIPTION_MAX) ?? null;
      else if (options.description !== undefined) throw invalidArgument('artists.set: description must be text or null');
      try {
        await ready().set(artistId, { name, source, taskId: call?.task?.taskId ?? null, ...(image !== undefined ? { image, imageUrl } : {}), ...(description !== undefined ? { description } : {}) });
      } catch (error) {
        // The store's refusal of the bytes (not a picture, too large) is the plugin's wrong argument.
        if (isTagsonicError(error) && error.code === 'TAGSONIC_ERR_LIBRARY_ARTIST_IMAGE_INVALID') throw invalidArgument(`artists.set: ${error.message}`);
        throw error;
      }
      return view(artistId, name, await ready().get(artistId));
    },
  };
}

function view(artistId: string, name: string, doc: ArtistMetaDoc | null) {
  return {
    artistId,
    name,
    image: doc?.image ? { mime: doc.image.mime, size: doc.image.size, url: doc.image.url ?? null } : null,
    description: doc?.description ?? null,
    source: doc?.source ?? null,
  };
}
