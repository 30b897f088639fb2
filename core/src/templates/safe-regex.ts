import { createRequire } from 'node:module';
import type { RE2 } from 're2-wasm';
import { invalid, isTagsonicError } from '../errors/errors.ts';

/**
 * re2-wasm instantiates its WASM module (a 16 MiB memory) as it is loaded: loaded on the first pattern,
 * not with the server (~9 MB resident in a process that never runs one). It is CommonJS, so a
 * synchronous require keeps compileSafeRegex synchronous.
 */
const require = createRequire(import.meta.url);
let re2Class: typeof RE2 | undefined;
const loadRe2 = (): typeof RE2 => (re2Class ??= (require('re2-wasm') as typeof import('re2-wasm')).RE2);

/**
 * Compiled patterns live in re2-wasm's fixed 16 MiB WASM heap, and nothing frees them by itself (embind's
 * automatic deletion needs `FinalizationGroup`, which Node does not have): after a few thousand distinct patterns
 * every compile failed with "Cannot enlarge memory arrays". So compiled forms are kept in a bounded LRU and freed
 * when evicted; a {@link SafeRegex} holds only its source and compiles again if its form was evicted.
 *
 * One pattern can also be too big on its own (`\p{L}{300}` needs more than the heap, `.{1000}` megabytes), and
 * running out of WASM memory aborts the module for good: every later pattern failed until a restart. So an
 * out-of-memory abort drops the module and loads a fresh one (its heap empty); the pattern is tried once more
 * there and, if it still does not fit, refused as too large, leaving a fresh module for the next one.
 */
const MAX_COMPILED = 256;
const compiled = new Map<string, RE2>();

const isOutOfMemory = (e: unknown) => e instanceof Error && /Cannot enlarge memory|abort\(|Aborted\(/.test(e.message);

/** A fresh re2-wasm: its CommonJS files dropped from the require cache, so the next use instantiates it anew. */
function resetRe2(): void {
  compiled.clear(); // their memory went with the old module's heap
  re2Class = undefined;
  const root = require.resolve('re2-wasm').replace(/build[\\/]src[\\/]re2\.js$/, '');
  for (const key of Object.keys(require.cache)) if (key.startsWith(root)) delete require.cache[key];
}

/** `fn` on re2-wasm, retried once on a fresh module after an out-of-memory abort (see above). */
function withRe2<T>(fn: () => T, tooLarge: () => Error): T {
  try {
    return fn();
  } catch (e) {
    if (!isOutOfMemory(e)) throw e;
    resetRe2();
    try {
      return fn();
    } catch (again) {
      if (!isOutOfMemory(again)) throw again;
      resetRe2();
      throw tooLarge();
    }
  }
}

function compiledFor(source: string, flags: string): RE2 {
  const key = `${flags}/${source}`;
  let re = compiled.get(key);
  if (re) {
    compiled.delete(key); // most recently used last
  } else {
    re = new (loadRe2())(source, flags);
    if (compiled.size >= MAX_COMPILED) {
      const [oldest, old] = compiled.entries().next().value!;
      compiled.delete(oldest);
      (old as unknown as { wrapper?: { delete?: () => void } }).wrapper?.delete?.();
    }
  }
  compiled.set(key, re);
  return re;
}

/**
 * User-written regular expressions (split file names, replace text) run on RE2 (compiled to WASM),
 * whose matching time is linear in the input: no pattern can hang the server, however it is written.
 * RE2 has no look-around or back-references; such patterns are refused with a clear message.
 * JavaScript's `(?<name>…)` is accepted and means RE2's `(?P<name>…)`.
 */
export const MAX_PATTERN_CHARS = 1000;
export const MAX_REGEX_INPUT_CHARS = 100_000;

export interface SafeRegex {
  readonly source: string;
  /** Named groups of the first match, or null when there is none. */
  match(text: string): { groups: Record<string, string>; numbered: string[] } | null;
  /** Every match replaced; `$1`, `$<name>` refer to groups. */
  replaceAll(text: string, replacement: string): { text: string; count: number };
}

export function compileSafeRegex(pattern: string, options: { ignoreCase?: boolean } = {}): SafeRegex {
  if (typeof pattern !== 'string' || pattern.length === 0) throw invalid('TAGSONIC_ERR_REGEX_EMPTY', 'The regular expression is empty.');
  if (pattern.length > MAX_PATTERN_CHARS) throw invalid('TAGSONIC_ERR_REGEX_TOO_LONG', `A regular expression is at most ${MAX_PATTERN_CHARS} characters.`);
  const source = pattern.replace(/\(\?<(?![=!])([A-Za-z_][A-Za-z0-9_]*)>/g, '(?P<$1>');
  const flags = options.ignoreCase ? 'giu' : 'gu';
  const tooLarge = () => invalid('TAGSONIC_ERR_REGEX_INVALID',
    `The regular expression "${pattern}" is too large to run: counted repetitions such as \\p{L}{300} need more memory than the regex engine has; use smaller counts, + or *.`);
  try {
    withRe2(() => compiledFor(source, flags), tooLarge);
  } catch (e) {
    if (isTagsonicError(e)) throw e;
    const reason = e instanceof Error ? e.message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /, '') : String(e);
    throw invalid('TAGSONIC_ERR_REGEX_INVALID', `The regular expression "${pattern}" is not valid here (${reason}); look-arounds and back-references are not supported.`);
  }
  const names = groupNames(source);
  const checkInput = (text: string) => {
    if (text.length > MAX_REGEX_INPUT_CHARS) throw invalid('TAGSONIC_ERR_REGEX_INPUT_TOO_LONG', `The text is longer than ${MAX_REGEX_INPUT_CHARS} characters.`);
  };
  return {
    source: pattern,
    match(text) {
      checkInput(text);
      const m = withRe2(() => {
        const re = compiledFor(source, flags);
        re.lastIndex = 0;
        return re.exec(text);
      }, tooLarge);
      if (!m) return null;
      const numbered = Array.from(m).slice(1).map((g) => g ?? '');
      const groups: Record<string, string> = {};
      names.forEach((name, i) => {
        if (name) groups[name] = numbered[i] ?? '';
      });
      return { groups, numbered };
    },
    replaceAll(text, replacement) {
      checkInput(text);
      return withRe2(() => replaceEvery(compiledFor(source, flags), text, replacement, names), tooLarge);
    },
  };
}

/** Every match of `re` in `text` replaced; `$1`, `$<name>` and `$$` in `replacement`. */
function replaceEvery(re: RE2, text: string, replacement: string, names: Array<string | null>): { text: string; count: number } {
  let count = 0;
  re.lastIndex = 0;
  const out = text.replace(re as unknown as RegExp, (...args: unknown[]) => {
    count++;
    const numbered = args.slice(1, 1 + names.length).map((g) => (typeof g === 'string' ? g : ''));
    return replacement.replace(/\$(?:(\d{1,2})|<([A-Za-z_][A-Za-z0-9_]*)>|(\$))/g, (_m, n?: string, name?: string, dollar?: string) => {
      if (dollar) return '$';
      if (n !== undefined) return numbered[Number(n) - 1] ?? '';
      const i = names.indexOf(name!);
      return i >= 0 ? numbered[i] : '';
    });
  });
  return { text: out, count };
}

/** Group names by position (null for unnamed groups), read from the pattern. */
function groupNames(source: string): Array<string | null> {
  const names: Array<string | null> = [];
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '[') {
      // Skip a character class: parentheses inside it are literal.
      i++;
      if (source[i] === '^') i++;
      if (source[i] === ']') i++;
      while (i < source.length && source[i] !== ']') {
        if (source[i] === '\\') i++;
        i++;
      }
      continue;
    }
    if (c !== '(') continue;
    if (source[i + 1] !== '?') {
      names.push(null);
      continue;
    }
    const named = /^\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(source.slice(i));
    if (named) names.push(named[1]);
  }
  return names;
}

/** Replaces a plain (non-regex) text everywhere. */
export function replaceText(text: string, before: string, after: string): { text: string; count: number } {
  if (before === '') return { text, count: 0 };
  const parts = text.split(before);
  return { text: parts.join(after), count: parts.length - 1 };
}
