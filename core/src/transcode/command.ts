/**
 * ffmpeg argument arrays for a transcode: from a built-in profile, or from the admin's decode_command
 * template. No shell is ever involved: the template is split into words, placeholders are replaced
 * inside single words, and only ffmpeg may be run. Input is always `file:<path>` with the protocols
 * limited to file and pipe, and output always goes to stdout.
 */
import path from 'node:path';
import { invalid } from '../errors/errors.ts';
import { outputOfMuxer, type Profile } from './profiles.ts';

export interface CommandInput {
  /** Absolute path of the source file. */
  path: string;
  /** Seconds to skip at the start. */
  offset: number;
  /** kbps (templates use it as %b; lossless profiles ignore it). */
  bitRate: number | null;
}

export interface Command {
  args: string[];
  contentType: string;
  suffix: string;
}

const BAD_TEMPLATE = 'TAGSONIC_ERR_TRANSCODE_BAD_COMMAND';
const MAX_TEMPLATE = 2000;

const offsetArg = (s: number): string => (Math.round(s * 1000) / 1000).toString();

export function profileCommand(profile: Profile, input: CommandInput): Command {
  const args = ['-hide_banner', '-loglevel', 'error', '-nostdin', '-protocol_whitelist', 'file,pipe'];
  // Input seeking: fast, and exact enough for audio (ffmpeg decodes from the previous frame).
  if (input.offset > 0) args.push('-ss', offsetArg(input.offset));
  args.push('-i', `file:${input.path}`, '-map', '0:a:0', '-vn', '-map_metadata', '-1');
  const b = String(input.bitRate ?? '');
  for (const a of profile.args) args.push(a.replace('{b}', b));
  args.push('pipe:1');
  return { args, contentType: profile.contentType, suffix: profile.suffix };
}

/** Splits a command line into words: spaces separate, single and double quotes group, backslash escapes in double quotes. */
export function splitWords(line: string): string[] {
  const words: string[] = [];
  let cur = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && i + 1 < line.length) cur += line[++i];
      else cur += c;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(cur);
      cur = '';
      inWord = false;
    } else {
      cur += c;
      inWord = true;
    }
  }
  if (quote) throw invalid(BAD_TEMPLATE, 'The decode command has an unclosed quote.');
  if (inWord) words.push(cur);
  return words;
}

/**
 * A decode_command template made runnable. Placeholders: `%s`/`{input}` the source file, `%b`/`{bitrate}`
 * the bit rate in kbps, `%t`/`{offset}` the start offset in seconds. Output `-` or `pipe:1` is stdout.
 * The first word must be ffmpeg (any path ending in /ffmpeg is replaced by plain `ffmpeg` from PATH).
 */
export function templateCommand(template: string, input: CommandInput, defaultBitRate: number): Command {
  if (template.length > MAX_TEMPLATE) throw invalid(BAD_TEMPLATE, 'The decode command is too long.');
  const words = splitWords(template);
  if (words.length < 2 || path.basename(words[0]!) !== 'ffmpeg') {
    throw invalid(BAD_TEMPLATE, 'The decode command must start with ffmpeg; other programs are not run.');
  }
  const bitRate = String(input.bitRate ?? defaultBitRate);
  const offset = offsetArg(input.offset);
  let sawInput = false;
  const body = words.slice(1).map((w) => {
    if (w === '%s' || w === '{input}') {
      sawInput = true;
      return `file:${input.path}`;
    }
    if (w.includes('%s') || w.includes('{input}')) throw invalid(BAD_TEMPLATE, 'The input placeholder %s must be a word of its own.');
    return w.replaceAll('%b', bitRate).replaceAll('{bitrate}', bitRate).replaceAll('%t', offset).replaceAll('{offset}', offset);
  });
  if (!sawInput) throw invalid(BAD_TEMPLATE, 'The decode command must name the input file as %s.');
  const last = body.at(-1);
  if (last === '-' || last === 'pipe:' || last === 'pipe:1') body[body.length - 1] = 'pipe:1';
  else throw invalid(BAD_TEMPLATE, 'The decode command must write to standard output ("-" at the end).');
  for (const w of body) {
    // Only the input we substitute and stdout: a template must not reach the network or other files.
    if (w.startsWith('file:')) continue;
    const url = /^[a-z][a-z0-9+.-]*:/i.test(w) && w !== 'pipe:1' && !isOptionValue(w);
    const file = w.startsWith('/') || w.startsWith('./') || w.startsWith('../') || w.startsWith('~');
    if (url || file) throw invalid(BAD_TEMPLATE, `The decode command may not name "${w}"; only the input file and standard output are allowed.`);
  }
  const fIndex = body.lastIndexOf('-f');
  const muxer = fIndex >= 0 ? (body[fIndex + 1] ?? null) : null;
  const args = ['-hide_banner', '-nostdin', '-protocol_whitelist', 'file,pipe', ...body.filter((w) => w !== '-nostdin' && w !== '-hide_banner')];
  return { args, ...outputOfMuxer(muxer) };
}

/** Option values such as `0:a:0` (stream specifiers) look like URLs to the check above. */
const isOptionValue = (w: string): boolean => /^\d+(:[a-z0-9]+)+$/i.test(w) || /^[a-z]:[a-z0-9]+$/i.test(w);
