/**
 * Default user avatars (Subsonic getAvatar) until uploads exist: a symmetric 5×5 pattern in a colour
 * derived from the username, encoded as PNG here (no ffmpeg, no fonts). The same name always gives the
 * same picture.
 */
import { createHash } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';

const GRID = 5;
const CELL = 24;
const MARGIN = 16;
export const AVATAR_SIDE = GRID * CELL + 2 * MARGIN;

/** HSL → RGB, each 0–255. */
function hsl(h: number, s: number, l: number): [number, number, number] {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

export function avatarPng(username: string): Buffer {
  const digest = createHash('sha256').update(username, 'utf8').digest();
  const fg = hsl((digest[0]! / 255) * 360, 0.55, 0.5);
  const bg: [number, number, number] = [240, 240, 240];
  // Left three columns from the digest bits, mirrored to the right.
  const on = (x: number, y: number): boolean => {
    const col = x < 3 ? x : GRID - 1 - x;
    const bit = y * 3 + col;
    return ((digest[1 + (bit >> 3)]! >> (bit & 7)) & 1) === 1;
  };
  const side = AVATAR_SIDE;
  const row = 1 + side * 3;
  const raw = Buffer.alloc(row * side);
  for (let y = 0; y < side; y++) {
    raw[y * row] = 0; // filter: none
    for (let x = 0; x < side; x++) {
      const gx = Math.floor((x - MARGIN) / CELL);
      const gy = Math.floor((y - MARGIN) / CELL);
      const inside = x >= MARGIN && y >= MARGIN && gx < GRID && gy < GRID;
      const c = inside && on(gx, gy) ? fg : bg;
      raw.set(c, y * row + 1 + x * 3);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
