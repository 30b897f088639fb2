/**
 * Safe file and folder names from tag values, inside the sandbox (the rules of core's media/sanitize, which a
 * plugin cannot import, plus no leading dot): no separators, no `.`/`..`, no hidden names, no control characters or NUL, no Windows-reserved names
 * (libraries are often shared over SMB) and at most 255 bytes of UTF-8, so a hostile tag (`../../x`, `/abs`,
 * `CON`, `a:b`, a 300-byte title) always becomes one harmless name inside the tidy root.
 */

const FORBIDDEN_CHARS = /[\u0000-\u001f\u007f/\\:*?"<>|]/g;
const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;
export const MAX_NAME_BYTES = 255;

/** UTF-8 length without Buffer or TextEncoder (neither exists in the sandbox). */
export function utf8Length(s: string): number {
  let n = 0;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return n;
}

/** One path segment: never empty, never `.`/`..`, never a separator, at most `maxBytes`. */
export function sanitizeName(name: string, maxBytes = MAX_NAME_BYTES): string {
  let s = name.normalize('NFC').replace(FORBIDDEN_CHARS, '_');
  // Trailing dots and spaces vanish on Windows/SMB and make `..` out of `.. `.
  s = s.replace(/[. ]+$/u, '').replace(/^ +/u, '');
  if (s === '' || s === '.' || s === '..') s = '_';
  // A leading dot would hide the file or folder from the file tree and the library scan (and `.tagsonic-trash`
  // is the trash): `../../x` becomes `_._.._x`, `.hidden` `_hidden`.
  if (s.startsWith('.')) s = `_${s.slice(1)}`;
  if (RESERVED.test(s)) s = `_${s}`;
  return truncate(s, maxBytes);
}

/** Cuts to `maxBytes` of UTF-8 without splitting a character, keeping a short extension. */
function truncate(s: string, maxBytes: number): string {
  if (utf8Length(s) <= maxBytes) return s;
  const dot = s.lastIndexOf('.');
  const ext = dot > 0 && s.length - dot <= 16 ? s.slice(dot) : '';
  const stem = ext ? s.slice(0, dot) : s;
  const budget = maxBytes - utf8Length(ext);
  let out = '';
  let used = 0;
  for (const ch of stem) {
    const n = utf8Length(ch);
    if (used + n > budget) break;
    out += ch;
    used += n;
  }
  out = out.replace(/[. ]+$/u, '');
  return (out || '_') + ext;
}

/** `a/b/c` from full paths the host gives (POSIX, absolute); no `path` module in the sandbox. */
export const joinPath = (...parts: string[]): string => parts.join('/').replace(/\/{2,}/g, '/');
export const dirOf = (p: string): string => p.slice(0, Math.max(p.lastIndexOf('/'), 0)) || '/';
export const baseOf = (p: string): string => p.slice(p.lastIndexOf('/') + 1);

/** The extension with its dot (`.flac`), or '' (a leading dot is a hidden file's name, not an extension). */
export function extOf(name: string): string {
  const base = baseOf(name);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot) : '';
}

export const stemOf = (name: string): string => {
  const base = baseOf(name);
  const ext = extOf(base);
  return ext ? base.slice(0, -ext.length) : base;
};

/** `stem (n).ext` — the name tried when `stem.ext` is taken (Finder's and Explorer's convention). */
export function numbered(name: string, n: number): string {
  const ext = extOf(name);
  return sanitizeName(`${stemOf(name)} (${n})${ext}`);
}
