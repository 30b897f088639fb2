/**
 * Profiles the safe write alone, on copies of the bench library: run under `node --cpu-prof` to see
 * where a write's CPU goes.
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof bench/tags/profile-write.ts [--library <dir>] [--writes 600] [--concurrency 8] [--pool [--threads N] [--in-flight N]]
 */
import { copyFile, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openEmbeddedStore } from '@tagsonic/core/store';
import { createTagJournal, createTagWriterPool, safeWriteTags } from '@tagsonic/core/tags';

const { values } = parseArgs({
  options: {
    library: { type: 'string', default: path.join(tmpdir(), 'tagsonic-bench-library-2000') },
    writes: { type: 'string', default: '600' },
    concurrency: { type: 'string', default: '8' },
    pool: { type: 'boolean', default: false },
    threads: { type: 'string' },
    'in-flight': { type: 'string' },
  },
});
const writes = Number(values.writes);
const concurrency = Number(values.concurrency);

const audio = (await readdir(values.library!, { recursive: true }))
  .filter((f) => /\.(mp3|flac|m4a|ogg|opus|wav)$/.test(f))
  .sort()
  .slice(0, writes)
  .map((f) => path.join(values.library!, f));
const scratch = await mkdtemp(path.join(tmpdir(), 'tagsonic-profile-write-'));
await mkdir(path.join(scratch, 'music'));
const copies = await Promise.all(audio.map(async (f, i) => {
  const copy = path.join(scratch, 'music', `${i}${path.extname(f)}`);
  await copyFile(f, copy);
  return copy;
}));
const store = await openEmbeddedStore({ dir: path.join(scratch, 'store') });
const journal = createTagJournal({ store, blobDir: path.join(scratch, 'blobs') });

const pool = values.pool
  ? createTagWriterPool({ threads: values.threads ? Number(values.threads) : undefined, inFlightPerThread: values['in-flight'] ? Number(values['in-flight']) : undefined })
  : null;
const write = pool ? pool.write.bind(pool) : safeWriteTags;
let next = 0;
const cpu = process.cpuUsage();
const mainCpu = process.threadCpuUsage();
const started = performance.now();
await Promise.all(Array.from({ length: concurrency }, async () => {
  while (next < copies.length) {
    const i = next++;
    await write(copies[i]!, { fields: { title: `profile ${i}`, album: `Album ${i % 7}`, tracknumber: String((i % 20) + 1) } }, { journal, actor: 'profile' });
  }
}));
const seconds = (performance.now() - started) / 1000;
const used = process.cpuUsage(cpu);
const usedMain = process.threadCpuUsage(mainCpu);
console.log(`${copies.length} writes in ${seconds.toFixed(2)} s: ${Math.round(copies.length / seconds)} files/s, ${((used.user + used.system) / 1000 / copies.length).toFixed(2)} ms CPU/write, of which ${((usedMain.user + usedMain.system) / 1000 / copies.length).toFixed(2)} ms on the calling thread`);
await pool?.close();
await store.close();
await rm(scratch, { recursive: true, force: true });
