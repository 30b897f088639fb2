/**
 * Test-only child process for bounds.test.ts: reads and then tries to rewrite one hostile file through
 * the real engine (readTags, safeWriteTags, TagLib and all) and reports what happened and what it cost
 * in memory, as one JSON line. A small normal file is written first, so TagLib and the journal are
 * loaded before the baseline is taken. The writes run on the calling thread (`local`, as the command line
 * does) or on a writer thread (`pool`, as the server does).
 * Usage: node --expose-gc test-oversize-child.ts <file> <warm-up file> <data dir> [local|pool]
 */
import { isTagsonicError } from '../errors/index.ts';
import { readTags } from './read.ts';
import { safeWriteTags } from './safe-write.ts';
import { createTagWriterPool } from './writer-pool.ts';
import type { TagEdit } from './model.ts';
import { openJournal } from './test-fixtures.ts';

const [file, warmup, dataDir, mode = 'local'] = process.argv.slice(2);
if (!file || !warmup || !dataDir) throw new Error('usage: test-oversize-child.ts <file> <warm-up file> <data dir>');
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const mib = (bytes: number) => Math.round(bytes / 2 ** 20);

/** What an attempt came to: `ok`, or the error's code (its message when it has none). */
async function attempt<T>(work: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; code: string; message: string }> {
  try {
    return { ok: true, value: await work() };
  } catch (err) {
    return { ok: false, code: isTagsonicError(err) ? err.code : 'untyped', message: err instanceof Error ? err.message : String(err) };
  }
}

const { journal, close } = await openJournal(dataDir);
const pool = mode === 'pool' ? createTagWriterPool({ threads: 1 }) : null;
const write = (path: string, edit: TagEdit) => (pool ? pool.write(path, edit, { journal, actor: 'bounds-test' }) : safeWriteTags(path, edit, { journal, actor: 'bounds-test' }));
await write(warmup, { fields: { title: 'warm-up' } });
gc();
const baselineMiB = mib(process.memoryUsage().rss);

let peak = 0;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
const read = await attempt(() => readTags(file));
const written = await attempt(() => write(file, { fields: { title: 'Edited' } }));
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss);
gc();
await new Promise((r) => setTimeout(r, 50));
gc();
const afterMiB = mib(process.memoryUsage().rss);
await pool?.close();
await close();

process.stdout.write(
  `${JSON.stringify({
    read: read.ok ? { ok: true, title: read.value.tags.fields.title, artwork: read.value.tags.artwork, overflow: read.value.overflow ?? null } : read,
    write: written.ok ? { ok: true, changed: written.value.changed } : written,
    baselineMiB,
    peakMiB: mib(peak),
    afterMiB,
  })}\n`,
);
