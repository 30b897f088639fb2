/**
 * Turns tag values into safe file and folder names (tidy templates, exports, CUE splits): no
 * separators, no `.`/`..`, no control characters, no Windows-reserved names (libraries are often
 * shared over SMB), and at most 255 bytes so every common filesystem accepts it.
 */

const FORBIDDEN_CHARS = /[\u0000-\u001f\u007f/\\:*?"<>|]/g;
const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;
export const MAX_NAME_BYTES = 255;

export interface SanitizeOptions {
  /** What replaces forbidden characters; default `_`. */
  replacement?: string;
  maxBytes?: number;
}

export function sanitizeFileName(name: string, options: SanitizeOptions = {}): string {
  const replacement = options.replacement ?? '_';
  const maxBytes = options.maxBytes ?? MAX_NAME_BYTES;
  let s = name.normalize('NFC').replace(FORBIDDEN_CHARS, replacement);
  // Trailing dots and spaces vanish on Windows/SMB and make `..` out of `.. `.
  s = s.replace(/[. ]+$/u, '').replace(/^ +/u, '');
  if (s === '' || s === '.' || s === '..') s = replacement;
  if (RESERVED.test(s)) s = replacement + s;
  return truncateBytes(s, maxBytes);
}

/** Sanitises each segment of a relative path built from a template such as `${artist}/${album}`. */
export function sanitizeRelativePath(relative: string, options: SanitizeOptions = {}): string {
  return relative
    .split(/[/\\]+/)
    .filter((seg) => seg.trim() !== '')
    .map((seg) => sanitizeFileName(seg, options))
    .join('/');
}

/** Cuts to `maxBytes` of UTF-8 without splitting a character, keeping a short extension. */
function truncateBytes(s: string, maxBytes: number): string {
  if (Buffer.byteLength(s) <= maxBytes) return s;
  const dot = s.lastIndexOf('.');
  const ext = dot > 0 && s.length - dot <= 16 ? s.slice(dot) : '';
  const stem = ext ? s.slice(0, dot) : s;
  const budget = maxBytes - Buffer.byteLength(ext);
  let out = '';
  let used = 0;
  for (const ch of stem) {
    const n = Buffer.byteLength(ch);
    if (used + n > budget) break;
    out += ch;
    used += n;
  }
  return out.replace(/[. ]+$/u, '') + ext;
}
