/**
 * Chromaprint fingerprints as fpcalc prints them (compressed, URL-safe base64) → the 32-bit sub-fingerprints, and
 * how alike two recordings are. Decoding follows chromaprint's FingerprintDecompressor: a 4-byte header
 * (algorithm, item count big-endian), the bit-position deltas packed 3 bits each (0 ends an item), then the
 * deltas of 7 or more continued 5 bits each; item i is the XOR of its bits with item i−1.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function base64Bytes(text: string): Uint8Array | null {
  const values: number[] = [];
  for (const ch of text.replace(/=+$/, '')) {
    const v = ch === '-' || ch === '+' ? 62 : ch === '_' || ch === '/' ? 63 : ALPHABET.indexOf(ch);
    if (v < 0) return null;
    values.push(v);
  }
  const out = new Uint8Array(Math.floor((values.length * 6) / 8));
  let acc = 0;
  let bits = 0;
  let j = 0;
  for (const v of values) {
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[j++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

/** The sub-fingerprints, or null when the text is not a compressed fingerprint. */
export function decodeFingerprint(text: string): Uint32Array | null {
  const bytes = base64Bytes(text);
  if (!bytes || bytes.length < 4) return null;
  const count = (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!;
  let pos = 32;
  const read = (n: number): number | null => {
    if (pos + n > bytes.length * 8) return null;
    let value = 0;
    for (let k = 0; k < n; k++, pos++) value |= ((bytes[pos >> 3]! >> (pos & 7)) & 1) << k;
    return value;
  };
  const deltas: number[] = [];
  for (let zeros = 0; zeros < count;) {
    const v = read(3);
    if (v === null) return null;
    deltas.push(v);
    if (v === 0) zeros++;
  }
  pos = (4 + Math.ceil((deltas.length * 3) / 8)) * 8;
  for (let i = 0; i < deltas.length; i++) {
    if (deltas[i] !== 7) continue;
    const extra = read(5);
    if (extra === null) return null;
    deltas[i] = 7 + extra;
  }
  const items = new Uint32Array(count);
  let j = 0;
  let value = 0;
  let bit = 0;
  for (const delta of deltas) {
    if (delta === 0) {
      items[j] = j > 0 ? (value ^ items[j - 1]!) >>> 0 : value >>> 0;
      j++;
      value = 0;
      bit = 0;
      continue;
    }
    bit += delta;
    if (bit > 32) return null;
    value = (value | (1 << (bit - 1))) >>> 0;
  }
  return items;
}

const popcount = (x: number): number => {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
};

/** Items are ~0.124 s apart: ±16 items lets one file start up to 2 s later than the other. */
const MAX_SHIFT = 16;
/** Fewer common items than this (≈ 5 s) is too little to call two recordings the same. */
const MIN_OVERLAP = 40;

/**
 * The share of equal bits at the best alignment, 0…1. The same recording re-encoded scores ≥ 0.9; unrelated
 * audio ≈ 0.5 (half the bits agree by chance).
 */
export function similarity(a: Uint32Array, b: Uint32Array): number {
  let best = 0;
  for (let shift = -MAX_SHIFT; shift <= MAX_SHIFT; shift++) {
    const start = Math.max(0, -shift);
    const end = Math.min(a.length, b.length - shift);
    const overlap = end - start;
    if (overlap < MIN_OVERLAP) continue;
    let differing = 0;
    for (let i = start; i < end; i++) differing += popcount((a[i]! ^ b[i + shift]!) >>> 0);
    best = Math.max(best, 1 - differing / (overlap * 32));
  }
  return best;
}

/** At or above this similarity two files are reported as the same recording. */
export const SAME_RECORDING = 0.85;
