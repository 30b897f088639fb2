import { randomBytes } from 'node:crypto';

let lastMs = 0;
let counter = 0;

/**
 * A 24-hex-character id that sorts by creation time (like a MongoDB ObjectId): 12 hex of milliseconds,
 * 4 hex of a per-millisecond counter, 8 hex random. Both store drivers use it as `_id`.
 */
export function newId(): string {
  const now = Date.now();
  if (now === lastMs) counter = (counter + 1) & 0xffff;
  else { lastMs = now; counter = 0; }
  return now.toString(16).padStart(12, '0') + counter.toString(16).padStart(4, '0') + randomBytes(4).toString('hex');
}
