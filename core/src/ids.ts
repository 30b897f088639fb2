import { randomBytes } from 'node:crypto';

let lastMs = 0;
let counter = 0;
/** Random bytes drawn 4 KiB at a time: one `randomBytes` call per id cost more than the rest of it. */
let pool = Buffer.alloc(0);
let poolAt = 0;

function randomHex4(): string {
  if (poolAt + 4 > pool.length) {
    pool = randomBytes(4096);
    poolAt = 0;
  }
  poolAt += 4;
  return pool.toString('hex', poolAt - 4, poolAt);
}

/**
 * A 24-hex-character id that sorts by creation time (like a MongoDB ObjectId): 12 hex of milliseconds,
 * 4 hex of a per-millisecond counter, 8 hex random. Both store drivers use it as `_id`.
 */
export function newId(): string {
  const now = Date.now();
  if (now === lastMs) counter = (counter + 1) & 0xffff;
  else { lastMs = now; counter = 0; }
  return now.toString(16).padStart(12, '0') + counter.toString(16).padStart(4, '0') + randomHex4();
}
