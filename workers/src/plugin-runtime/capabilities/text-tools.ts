/**
 * `text.decode`, `text.replace` and `text.match`: the text tools the batch text actions (replace text, split
 * file names, repair encodings) need and a sandbox cannot do itself.
 *
 * - Regular expressions written by users must run in linear time: the sandbox only has V8's backtracking
 *   engine, where `(a|aa)+$` hangs the item for its whole time limit. These run on core's RE2
 *   (`compileSafeRegex`), the engine `/apimt/preview_regex/` uses, so a batch does exactly what its preview
 *   showed; core keeps the compiled forms (a task runs the same few rules on thousands of items).
 * - A sandbox has no `TextDecoder`, and the tables of GBK, Big5 and Shift-JIS are megabytes: decoding uses
 *   Node's (ICU), on a fixed list of encodings.
 */
import { isTagsonicError, TagsonicError } from '@tagsonic/core/errors';
import { compileSafeRegex, MAX_REGEX_INPUT_CHARS, replaceText, type SafeRegex } from '@tagsonic/core/templates';
import type { HostFunction } from '../../plugin-host/index.ts';
import { INVALID, invalidArgument, limit, optionsOf } from './args.ts';

/** The encodings `text.decode` takes (WHATWG names); the legacy CJK ones are why it exists. */
export const DECODE_ENCODINGS = ['utf-8', 'gbk', 'gb18030', 'big5', 'shift_jis', 'euc-jp', 'euc-kr', 'windows-1252', 'iso-8859-1', 'utf-16le', 'utf-16be'] as const;
const MAX_DECODE_BYTES = 1024 * 1024;
const MAX_RULES = 50;
const MAX_REPLACEMENT_CHARS = 1000;

/** A user pattern on core's RE2 (which keeps compiled forms in a bounded cache of its own). */
const regex = (pattern: string, ignoreCase: boolean): SafeRegex => asInvalid(() => compileSafeRegex(pattern, { ignoreCase }));

/**
 * Core's regex refusals (`TAGSONIC_ERR_REGEX_*`: empty, too long, not RE2, input too long) in the SDK's word,
 * `…_PLUGIN_INVALID`, keeping core's message, which names the pattern and why: a plugin can only pass on SDK
 * codes, and the message is what reaches the task report.
 */
function asInvalid<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (isTagsonicError(error) && error.code.startsWith('TAGSONIC_ERR_REGEX_')) throw new TagsonicError('invalid', INVALID, error.message, { details: { reason: error.code } });
    throw error;
  }
}

function textArg(options: Record<string, unknown>, what: string): string {
  const text = options.text;
  if (typeof text !== 'string') throw invalidArgument(`${what}: text must be a string`);
  if (text.length > MAX_REGEX_INPUT_CHARS) throw limit(`${what}: text is longer than ${MAX_REGEX_INPUT_CHARS} characters`);
  return text;
}

export function textToolsCapability(): Record<string, HostFunction> {
  const decoders = new Map<string, { lenient: TextDecoder; fatal: TextDecoder }>();
  return {
    decode: (args) => {
      const options = optionsOf(args, 'text.decode');
      const bytes = options.bytes;
      if (!(bytes instanceof Uint8Array)) throw invalidArgument('text.decode: bytes must be a Uint8Array');
      if (bytes.byteLength > MAX_DECODE_BYTES) throw limit(`text.decode: more than ${MAX_DECODE_BYTES} bytes`);
      const encoding = options.encoding;
      if (typeof encoding !== 'string' || !(DECODE_ENCODINGS as readonly string[]).includes(encoding)) {
        throw invalidArgument(`text.decode: encoding must be one of ${DECODE_ENCODINGS.join(', ')}`);
      }
      let pair = decoders.get(encoding);
      if (!pair) {
        pair = { lenient: new TextDecoder(encoding), fatal: new TextDecoder(encoding, { fatal: true }) };
        decoders.set(encoding, pair);
      }
      if (options.fatal !== true) return pair.lenient.decode(bytes);
      try {
        return pair.fatal.decode(bytes);
      } catch {
        return null; // not valid in that encoding: the answer a repair needs, not a failure
      }
    },

    replace: (args) => {
      const options = optionsOf(args, 'text.replace');
      const text = textArg(options, 'text.replace');
      const mode = options.mode ?? 'text';
      if (mode !== 'text' && mode !== 'regex') throw invalidArgument('text.replace: mode must be text or regex');
      const rules = options.rules;
      if (!Array.isArray(rules) || rules.length === 0 || rules.length > MAX_RULES) throw invalidArgument(`text.replace: rules must be a list of 1 to ${MAX_RULES} {before, after}`);
      const ignoreCase = options.ignoreCase === true;
      let out = text;
      let count = 0;
      for (const rule of rules as unknown[]) {
        const { before, after } = (rule ?? {}) as { before?: unknown; after?: unknown };
        if (typeof before !== 'string' || typeof after !== 'string') throw invalidArgument('text.replace: each rule is {before, after}, both strings');
        if (after.length > MAX_REPLACEMENT_CHARS) throw limit(`text.replace: a replacement is longer than ${MAX_REPLACEMENT_CHARS} characters`);
        if (before === '' && mode === 'text') continue;
        const step = mode === 'regex' ? asInvalid(() => regex(before, ignoreCase).replaceAll(out, after)) : replaceText(out, before, after);
        out = step.text;
        count += step.count;
        if (out.length > MAX_REGEX_INPUT_CHARS) throw limit(`text.replace: the text grew beyond ${MAX_REGEX_INPUT_CHARS} characters`);
      }
      return { text: out, count };
    },

    match: (args) => {
      const options = optionsOf(args, 'text.match');
      const text = textArg(options, 'text.match');
      const patterns = options.patterns;
      if (!Array.isArray(patterns) || patterns.length === 0 || patterns.length > MAX_RULES || patterns.some((p) => typeof p !== 'string')) {
        throw invalidArgument(`text.match: patterns must be a list of 1 to ${MAX_RULES} strings`);
      }
      const ignoreCase = options.ignoreCase === true;
      // Every pattern is compiled first, so a bad one is refused even when an earlier one matches.
      const res = (patterns as string[]).map((p) => regex(p, ignoreCase));
      for (const [index, re] of res.entries()) {
        const m = asInvalid(() => re.match(text));
        if (m) return { index, groups: m.groups, numbered: m.numbered };
      }
      return null;
    },
  };
}
