/**
 * Remembers a pure one-argument function's results for up to `max` distinct arguments, then starts
 * over empty (a scan asks for the same few hundred artist names and folders thousands of times; the
 * bound keeps a long-running process from holding every name it ever saw).
 *
 * A string argument is kept as a flat copy, and the function is called with that copy: strings from
 * the store's decoder are slices of one string per document, and keeping a slice (or a result cut
 * from it) would keep the whole document's text alive.
 */
export function memoize<A, R>(fn: (arg: A) => R, max = 10_000): (arg: A) => R {
  const cache = new Map<A, R>();
  return (arg) => {
    let result = cache.get(arg);
    if (result === undefined && !cache.has(arg)) {
      if (cache.size >= max) cache.clear();
      const key = (typeof arg === 'string' ? flatCopy(arg) : arg) as A;
      result = fn(key);
      cache.set(key, result);
    }
    return result as R;
  };
}

/**
 * A copy of a string that shares nothing with it. A slice of a string keeps its whole parent alive;
 * this does not.
 */
export const flatCopy = (s: string): string => (s.length === 0 ? s : (JSON.parse(JSON.stringify(s)) as string));
