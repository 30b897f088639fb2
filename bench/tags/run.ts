/**
 * Measures the tag engine on a generated library: scan-read throughput with the in-process reader and
 * with the reader thread pool, and write+verify throughput of the full safe write (temp copy, TagLib,
 * music-metadata re-read, payload check, fsync, journal in the embedded store, rename, fsync dir), with
 * every step on the calling thread (`safeWriteTags`) and with the writer thread pool (`createTagWriterPool`).
 * Prints a table and a JSON line.
 *   node bench/tags/run.ts [--size 2000] [--library <dir>] [--threads N] [--writes N] [--concurrency 8] [--pool-concurrency 32] [--keep]
 * The library is cached (default /tmp/tagsonic-bench-library-<size>) and never modified: writes go to
 * copies in a scratch folder. Each measure runs after a warm-up (JIT and wasm tier-up; a whole pass for the
 * readers, whose cold first pass on fresh pool threads is reported too), and reports the
 * CPU time per file of every thread of the process, which stays meaningful when other work shares the cores.
 */
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generateLibrary } from '@tagsonic/test/library';
import { openEmbeddedStore } from '@tagsonic/core/store';
import { createTagJournal, createTagReaderPool, createTagWriterPool, readTags, safeWriteTags, type TagEdit } from '@tagsonic/core/tags';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '2000' },
    library: { type: 'string' },
    threads: { type: 'string' },
    writes: { type: 'string' },
    concurrency: { type: 'string', default: '8' },
    'pool-concurrency': { type: 'string', default: '32' },
    keep: { type: 'boolean', default: false },
  },
});
const size = Number(values.size);
const threads = Number(values.threads ?? availableParallelism());
const concurrency = Number(values.concurrency);
const poolConcurrency = Number(values['pool-concurrency']);
const libraryRoot = path.resolve(values.library ?? path.join(tmpdir(), `tagsonic-bench-library-${size}`));

/** Runs `work` over `items` with `limit` in flight; returns elapsed seconds. */
async function timed<T>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<unknown>): Promise<number> {
  return (await measured(items, limit, work)).seconds;
}

/** Same, with the CPU time the whole process (every thread) spent, in ms per item. */
async function measured<T>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<unknown>): Promise<{ seconds: number; cpuMsPerItem: number }> {
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await work(items[i]!, i);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return { seconds, cpuMsPerItem: Math.round(((used.user + used.system) / 1000 / Math.max(1, items.length)) * 100) / 100 };
}

/** JIT and wasm tier-up make the first few hundred calls slow; a long-running worker is past that. */
const WARMUP = 300;

const genStarted = performance.now();
const library = await generateLibrary({ root: libraryRoot, size });
const genSeconds = (performance.now() - genStarted) / 1000;
const audio = library.files.filter((f) => f.kind === 'audio').map((f) => path.join(library.root, ...f.path.split('/')));
const formats = library.counts.byFormat;

// Warm the page cache once so both readers are measured on the same footing.
await timed(audio, 16, (f) => readFile(f));

let errors = 0;
const countErrors = (p: Promise<unknown>) => p.catch(() => void errors++);

const warmFiles = Array.from({ length: WARMUP }, (_, i) => audio[i % audio.length]!);

// In-process reader: one thread, 8 files in flight (their I/O overlaps).
await timed(audio, 8, (f) => readTags(f));
const single = await measured(audio, 8, (f) => countErrors(readTags(f)));
const singleSeconds = single.seconds;

// Reader pool: every core. The first pass runs on fresh threads (module load, JIT tier-up) and is
// reported as such; the second is the steady state of a long-running worker.
const pool = createTagReaderPool({ threads });
const poolCold = await measured(audio, threads * 16, (f) => countErrors(pool.read(f)));
const poolRun = await measured(audio, threads * 16, (f) => countErrors(pool.read(f)));
const poolSeconds = poolRun.seconds;
await pool.close();

// Safe writes on copies, journaled in an embedded store.
const scratch = await mkdtemp(path.join(tmpdir(), 'tagsonic-bench-tags-'));
const writeCount = Math.min(Number(values.writes ?? audio.length), audio.length);
const copies = audio.slice(0, writeCount).map((f, i) => path.join(scratch, 'music', `${i}${path.extname(f)}`));
const poolCopies = audio.slice(0, writeCount).map((f, i) => path.join(scratch, 'pool', `${i}${path.extname(f)}`));
await mkdir(path.join(scratch, 'music'));
await mkdir(path.join(scratch, 'pool'));
await mkdir(path.join(scratch, 'warmup'));
await timed(audio.slice(0, writeCount), 16, (f, i) => copyFile(f, copies[i]!));
await timed(audio.slice(0, writeCount), 16, (f, i) => copyFile(f, poolCopies[i]!));
const warmCopies = warmFiles.map((f, i) => path.join(scratch, 'warmup', `${i}${path.extname(f)}`));
await timed(warmFiles, 16, (f, i) => copyFile(f, warmCopies[i]!));
const store = await openEmbeddedStore({ dir: path.join(scratch, 'store') });
const journal = createTagJournal({ store, blobDir: path.join(scratch, 'blobs') });
const edit = (i: number): TagEdit => ({ fields: { title: `基准 ${i}`, album: `Bench Album ${i % 97}`, comment: `bench write ${i}`, tracknumber: String((i % 20) + 1) } });
let writeErrors = 0;
const firstError: string[] = [];
const warmWrite = await measured(warmCopies, concurrency, (f, i) => safeWriteTags(f, edit(i), { journal, actor: 'bench', taskId: 'warmup' }));
const writeRun = await measured(copies, concurrency, (f, i) =>
  safeWriteTags(f, edit(i), { journal, actor: 'bench', taskId: 'bench' }).catch((e: unknown) => {
    writeErrors++;
    if (firstError.length < 3) firstError.push(`${path.basename(f)}: ${e instanceof Error ? e.message : String(e)}`);
  }),
);
const writeSeconds = writeRun.seconds;
const committed = await store.collection('tag_journal').countDocuments({ state: 'committed', taskId: 'bench' });

// Writer pool: every core for parsing, rendering and verifying; started and warmed before timing
// (on the warm-up copies again, which the in-process warm-up already wrote once).
const writerPool = createTagWriterPool({ threads });
await measured(warmCopies, poolConcurrency, (f, i) => writerPool.write(f, edit(i + 1), { journal, actor: 'bench', taskId: 'warmup' }));
let poolWriteErrors = 0;
const poolWriteRun = await measured(poolCopies, poolConcurrency, (f, i) =>
  writerPool.write(f, edit(i), { journal, actor: 'bench', taskId: 'bench-pool' }).catch((e: unknown) => {
    poolWriteErrors++;
    if (firstError.length < 3) firstError.push(`${path.basename(f)}: ${e instanceof Error ? e.message : String(e)}`);
  }),
);
await writerPool.close();
const poolCommitted = await store.collection('tag_journal').countDocuments({ state: 'committed', taskId: 'bench-pool' });
await store.close();
if (!values.keep) await rm(scratch, { recursive: true, force: true });

const results = {
  library: { root: library.root, audioFiles: audio.length, formats, generateSeconds: Math.round(genSeconds * 10) / 10 },
  cores: availableParallelism(),
  loadAverage: loadavg().map((l) => Math.round(l * 100) / 100),
  warmupCalls: WARMUP,
  readSingleThread: { files: audio.length, seconds: round(singleSeconds), filesPerSecond: Math.round(audio.length / singleSeconds), cpuMsPerFile: single.cpuMsPerItem },
  readPoolColdThreads: { threads, files: audio.length, seconds: round(poolCold.seconds), filesPerSecond: Math.round(audio.length / poolCold.seconds), cpuMsPerFile: poolCold.cpuMsPerItem },
  readPool: { threads, files: audio.length, seconds: round(poolSeconds), filesPerSecond: Math.round(audio.length / poolSeconds), cpuMsPerFile: poolRun.cpuMsPerItem, target: 1500 },
  readErrors: errors,
  safeWriteWarmup: { files: WARMUP, filesPerSecond: Math.round(WARMUP / warmWrite.seconds), cpuMsPerFile: warmWrite.cpuMsPerItem },
  safeWrite: {
    files: writeCount,
    concurrency,
    seconds: round(writeSeconds),
    filesPerSecond: Math.round((writeCount - writeErrors) / writeSeconds),
    cpuMsPerFile: writeRun.cpuMsPerItem,
    errors: writeErrors,
    journalCommitted: committed,
  },
  safeWritePool: {
    threads,
    files: writeCount,
    concurrency: poolConcurrency,
    seconds: round(poolWriteRun.seconds),
    filesPerSecond: Math.round((writeCount - poolWriteErrors) / poolWriteRun.seconds),
    cpuMsPerFile: poolWriteRun.cpuMsPerItem,
    errors: poolWriteErrors,
    journalCommitted: poolCommitted,
    target: 300,
  },
};

function round(s: number): number {
  return Math.round(s * 1000) / 1000;
}

const rows: [string, string, string][] = [
  ['scan read, in-process (8 in flight)', `${results.readSingleThread.filesPerSecond} files/s (${single.cpuMsPerItem} ms CPU/file)`, ''],
  [`scan read, pool, first pass on fresh threads`, `${results.readPoolColdThreads.filesPerSecond} files/s (${poolCold.cpuMsPerItem} ms CPU/file)`, ''],
  [`scan read, pool (${threads} threads)`, `${results.readPool.filesPerSecond} files/s (${poolRun.cpuMsPerItem} ms CPU/file)`, '≥ 1500 files/s'],
  [`safe write, first ${WARMUP} (warm-up)`, `${results.safeWriteWarmup.filesPerSecond} files/s (${warmWrite.cpuMsPerItem} ms CPU/file)`, ''],
  [`safe write + verify + journal, in-process (${concurrency} in flight)`, `${results.safeWrite.filesPerSecond} files/s (${writeRun.cpuMsPerItem} ms CPU/file)`, ''],
  [`safe write + verify + journal, pool (${threads} threads, ${poolConcurrency} in flight)`, `${results.safeWritePool.filesPerSecond} files/s (${poolWriteRun.cpuMsPerItem} ms CPU/file)`, '≥ 300 files/s'],
  ['read errors / write errors (in-process / pool)', `${errors} / ${writeErrors} / ${poolWriteErrors}`, '0 / 0 / 0'],
  ['load average (1/5/15 min)', results.loadAverage.join(' / '), ''],
];
const w0 = Math.max(...rows.map((r) => r[0].length));
const w1 = Math.max(...rows.map((r) => r[1].length));
console.log(`\nTagsonic tag engine bench — ${audio.length} audio files (${Object.entries(formats).map(([k, v]) => `${k} ${v}`).join(', ')}), ${results.cores} cores, Node ${process.version}\n`);
console.log(`${'measure'.padEnd(w0)}  ${'result'.padEnd(w1)}  target`);
console.log(`${'-'.repeat(w0)}  ${'-'.repeat(w1)}  ------`);
for (const [a, b, c] of rows) console.log(`${a.padEnd(w0)}  ${b.padEnd(w1)}  ${c}`);
if (firstError.length > 0) console.log(`\nfirst write errors:\n  ${firstError.join('\n  ')}`);
console.log(`\nJSON ${JSON.stringify(results)}`);
