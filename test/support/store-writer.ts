/**
 * A child process for the store durability tests: writes to an embedded store and prints each write
 * once it is acknowledged (`I <id> <seq>` for inserts, `U <id> <version>` for updates, `C <n>` for
 * counter increments). Modes: `crash` writes until killed; `peer` does a fixed amount of work and exits.
 */
import { createHash, randomBytes } from 'node:crypto';
import { newId } from '@tagsonic/core';
import { openEmbeddedStore } from '@tagsonic/core/store';

const [dir, mode = 'crash', startArg = '0'] = process.argv.slice(2);
if (!dir) throw new Error('usage: store-writer.ts <dir> <crash|peer> [firstSeq]');

const store = await openEmbeddedStore({ dir });
const docs = store.collection('durable');
const out = (line: string) => process.stdout.write(`${line}\n`);

const checksum = (payload: string): string => createHash('sha256').update(payload).digest('hex').slice(0, 16);

function payload(seq: number): string {
  // Sizes from tiny to several pages, so documents and index updates span page boundaries.
  const size = [16, 300, 5_000, 40_000][seq % 4]!;
  return randomBytes(Math.ceil(size / 2)).toString('hex').slice(0, size);
}

if (mode === 'crash') {
  await docs.createIndexes([{ keys: { seq: 1 }, unique: true }, { keys: { group: 1, seq: -1 } }]);
  let seq = Number(startArg);
  const written: string[] = [];
  const lane = async () => {
    for (;;) {
      const s = seq++;
      const id = newId();
      const p = payload(s);
      await docs.insertOne({ _id: id, seq: s, group: s % 7, payload: p, sum: checksum(p), version: 0 });
      out(`I ${id} ${s}`);
      written.push(id);
      if (s % 3 === 0 && written.length > 4) {
        const target = written[Math.floor(Math.random() * written.length)]!;
        const q = payload(s + 1);
        const after = await docs.findOneAndUpdate({ _id: target }, { $inc: { version: 1 }, $set: { payload: q, sum: checksum(q), group: s % 5 } });
        out(`U ${target} ${after!.version as number}`);
      }
    }
  };
  out('READY');
  await Promise.all(Array.from({ length: 6 }, lane));
} else {
  const counter = store.collection('counter');
  const n = Number(startArg) || 200;
  out('READY');
  // Give the parent time to start its own writes so both processes interleave.
  await new Promise((r) => setTimeout(r, 50));
  for (let i = 0; i < n; i++) {
    const id = `peer-${i}`;
    await docs.insertOne({ _id: id, seq: 1_000_000 + i, group: i % 7, payload: 'p', sum: checksum('p'), version: 0 });
    out(`I ${id} ${1_000_000 + i}`);
    await counter.updateOne({ _id: 'shared' }, { $inc: { n: 1 } }, { upsert: true });
    out(`C ${i + 1}`);
    if (i === Math.floor(n / 2)) {
      await docs.createIndexes([{ keys: { group: 1, seq: -1 } }]);
      out('INDEXED');
    }
  }
  await store.close();
  out('DONE');
}
