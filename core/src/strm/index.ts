/**
 * Signed stream links for .strm files (generateStrm with is_sign): a media player that reads a .strm file (Emby,
 * Jellyfin, Kodi) fetches its URL without a Tagsonic session, so the URL carries an HMAC of the one file it names
 * and the gateway streams exactly that file to whoever holds it (`GET /apimt/strm_stream/?path=&sign=`). The key
 * lives in the store, so a worker that writes the link and the gateway that checks it agree in both modes; it is
 * made on first use. Deleting the `strm_keys` document revokes every link handed out.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Store } from '../store/port.ts';

export const STRM_KEYS_COLLECTION = 'strm_keys';
const KEY_ID = 'stream';
export const STRM_STREAM_PATH = '/apimt/strm_stream/';

/** The signing key, made once (the first writer wins; everyone then reads the same one). */
export async function strmKey(store: Store): Promise<string> {
  const keys = store.collection<{ _id: string; key: string; [k: string]: unknown }>(STRM_KEYS_COLLECTION);
  const found = await keys.findOne({ _id: KEY_ID });
  if (found) return found.key;
  try {
    await keys.insertOne({ _id: KEY_ID, key: randomBytes(32).toString('base64url'), createdAt: new Date() });
  } catch {
    // Another process made it first.
  }
  return (await keys.findOne({ _id: KEY_ID }))!.key;
}

/** The signature of one full path. */
export function signStrmPath(key: string, file: string): string {
  return createHmac('sha256', key).update(file).digest('base64url').slice(0, 32);
}

export function verifyStrmPath(key: string, file: string, sign: string): boolean {
  const expected = Buffer.from(signStrmPath(key, file));
  const given = Buffer.from(sign);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** `origin` (scheme://host[:port], as the user reached the server) + the signed stream path of `file`. */
export function strmStreamUrl(origin: string, key: string, file: string): string {
  return `${origin.replace(/\/+$/, '')}${STRM_STREAM_PATH}?path=${encodeURIComponent(file)}&sign=${signStrmPath(key, file)}`;
}
