/**
 * Base64 → UTF-8 text. QQ Music sends lyrics base64-encoded, and the sandbox has neither `atob` nor
 * `TextDecoder` (nor Buffer), so the plugin carries this decoder. Malformed input throws, so a changed
 * encoding is reported rather than turned into mojibake.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const VALUE = new Map([...ALPHABET].map((c, i) => [c, i] as const));

/** The bytes of standard or URL-safe base64, padding optional, whitespace ignored. */
export function base64Bytes(text: string): Uint8Array {
  const clean = text.replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  if (clean.length % 4 === 1) throw new Error('not base64: bad length');
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let bits = 0;
  let count = 0;
  let n = 0;
  for (const c of clean) {
    const v = VALUE.get(c);
    if (v === undefined) throw new Error(`not base64: "${c}"`);
    bits = (bits << 6) | v;
    count += 6;
    if (count >= 8) {
      count -= 8;
      out[n++] = (bits >> count) & 0xff;
    }
  }
  return out;
}

/** Strict UTF-8 decoding (a BOM is dropped); an invalid sequence throws. */
export function utf8Text(bytes: Uint8Array): string {
  let out = '';
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const need = b < 0x80 ? 0 : b >= 0xc2 && b < 0xe0 ? 1 : b >= 0xe0 && b < 0xf0 ? 2 : b >= 0xf0 && b < 0xf5 ? 3 : -1;
    if (need < 0 || i + need >= bytes.length) throw new Error(`not UTF-8 at byte ${i}`);
    let cp = need === 0 ? b : b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k]!;
      if ((c & 0xc0) !== 0x80) throw new Error(`not UTF-8 at byte ${i + k}`);
      cp = (cp << 6) | (c & 0x3f);
    }
    // Overlong three/four-byte forms, surrogates and code points past U+10FFFF are not UTF-8.
    if ((need === 2 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) || (need === 3 && (cp < 0x10000 || cp > 0x10ffff))) {
      throw new Error(`not UTF-8 at byte ${i}`);
    }
    out += String.fromCodePoint(cp);
    i += need + 1;
  }
  return out;
}
