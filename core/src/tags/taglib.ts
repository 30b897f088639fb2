/**
 * The two taglib-wasm backends, loaded once per process (or worker thread) on first use.
 *
 * Tags are written with the Emscripten backend: its PropertyMap is TagLib's own, so "3/12" track
 * numbers, DESCRIPTION next to COMMENT in Vorbis comments and every unknown key survive a
 * read-modify-write. The WASI backend narrows track numbers to integers and folds Vorbis DESCRIPTION
 * into COMMENT (taglib-wasm 1.5.1), so it is used only for the one thing the Emscripten binding cannot
 * do: pictures in Opus, WAV and AIFF (see formats.ts).
 *
 * A TagLib instance's wasm heap grows to hold the largest file it has edited (about twice its size)
 * and never shrinks: after a big file the instances are dropped (`releaseAfter`), and the heap with them
 * once the writes still using them are done.
 */
import type { TagLib } from 'taglib-wasm';
import { TAG_ERRORS, unavailable } from './errors.ts';

let emscripten: Promise<TagLib> | null = null;
let wasi: Promise<TagLib> | null = null;

/** taglib-wasm's PROPERTIES as camelCase key → TagLib's PropertyMap key (TITLE, ALBUMARTIST…); set by the first load. */
export let wireKeys: Readonly<Record<string, string>> = {};

/**
 * taglib-wasm is imported here, on the first write, not with this module: importing it costs a process
 * that never writes tags (the server's main thread: writes run on writer threads) ~14 MB resident.
 */
function load(kind: 'emscripten' | 'wasi'): Promise<TagLib> {
  const module = import('taglib-wasm').then((m) => {
    wireKeys = Object.fromEntries(Object.entries(m.PROPERTIES).map(([camel, meta]) => [camel, meta.key]));
    return m.TagLib.initialize({ forceWasmType: kind });
  });
  return module.catch((err: unknown) => {
    if (kind === 'emscripten') emscripten = null;
    else wasi = null;
    throw unavailable(TAG_ERRORS.ENGINE_UNAVAILABLE, `The TagLib (${kind}) engine could not be loaded, so tags cannot be written.`, err);
  });
}

export function taglibForTags(): Promise<TagLib> {
  emscripten ??= load('emscripten');
  return emscripten;
}

export function taglibForPictures(): Promise<TagLib> {
  wasi ??= load('wasi');
  return wasi;
}

/**
 * Files bigger than this are followed by new instances. The next write pays for loading them (~50 ms);
 * a 100 MB WAV otherwise left ~200 MB of heap behind for good, on every thread that wrote one.
 */
export const RECYCLE_AFTER_BYTES = 32 * 1024 * 1024;

/** Drops the loaded instances after an edit of `bytes` when that grew their heap beyond what is worth keeping. */
export function releaseAfter(bytes: number): void {
  if (bytes <= RECYCLE_AFTER_BYTES) return;
  emscripten = null;
  wasi = null;
}
