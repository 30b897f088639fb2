/**
 * kill -9 in the middle of writes: a child process rewrites a large-ish file's tags in a loop and is
 * killed at random points. Each time the original must be readable, its tags wholly one state (never a
 * mix, never broken), its audio unchanged; temp files are cleaned and the journal recovers to a state
 * that matches the file.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { readTags } from './read.ts';
import { cleanupTempFiles } from './temp-files.ts';
import { diffSnapshots } from './edit.ts';
import { TAG_JOURNAL_COLLECTION, type JournalEntry } from './journal.ts';
import { CRASH_STATES, makeAudio, openJournal, pcmMd5, tempDir } from './test-fixtures.ts';

const WRITER = fileURLToPath(new URL('./test-crash-writer.ts', import.meta.url));
const ROUNDS = 6;

let dir: string;
let remove: () => Promise<void>;

beforeAll(async () => {
  ({ dir, remove } = await tempDir('tagsonic-crash-'));
});

afterAll(() => remove());

/** Starts the writer, lets it complete `warmup` writes, then kills it `delayMs` later. */
async function runAndKill(file: string, dataDir: string, warmup: number, delayMs: number): Promise<number> {
  const child = spawn(process.execPath, [WRITER, file, dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
  let writes = 0;
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      writes += d.split('\n').filter((l) => l.startsWith('wrote')).length;
      if (writes >= warmup) resolve();
    });
    child.on('exit', (code) => reject(new Error(`writer exited early (${code}): ${stderr}`)));
  });
  await new Promise((r) => setTimeout(r, delayMs));
  child.kill('SIGKILL');
  await exited;
  return writes;
}

it('leaves the original intact through repeated SIGKILLs mid-write', { timeout: 180_000 }, async () => {
  // Two minutes of noisy stereo FLAC (~20 MB): each write copies, hashes and fsyncs it, so kills land
  // in every phase of the protocol.
  const file = await makeAudio(dir, 'big', 'flac', { seconds: 120, seed: 7, tags: { title: 'initial' } });
  const dataDir = path.join(dir, 'data');
  const pcm = await pcmMd5(file);
  const initial = (await readTags(file)).tags;
  const states = [initial.fields, ...CRASH_STATES.map((s) => ({ ...initial.fields, ...s }))];
  let tempsRemoved = 0;
  let totalWrites = 0;

  for (let round = 0; round < ROUNDS; round++) {
    totalWrites += await runAndKill(file, dataDir, 1 + (round % 3), Math.floor(Math.random() * 120));

    const now = await readTags(file);
    const matches = states.filter((s) => Object.entries(s).every(([k, v]) => now.tags.fields[k as keyof typeof s] === v));
    expect(matches.length, `round ${round}: tags are exactly one known state`).toBe(1);
    expect(await pcmMd5(file)).toBe(pcm);

    tempsRemoved += (await cleanupTempFiles(dir)).length;
    expect((await readdir(dir)).filter((n) => n.includes('.tagsonic-'))).toEqual([]);

    const { journal, store, close } = await openJournal(dataDir);
    try {
      await journal.recover();
      const entries = store.collection<JournalEntry>(TAG_JOURNAL_COLLECTION);
      expect(await entries.countDocuments({ state: 'pending' })).toBe(0);
      const [latest] = await entries.find({ state: 'committed' }, { sort: { at: -1, _id: -1 }, limit: 1 });
      if (latest) expect(diffSnapshots(latest.after, now.tags), `round ${round}: journal matches the file`).toEqual([]);
    } finally {
      await close();
    }
  }
  expect(totalWrites).toBeGreaterThan(ROUNDS);
  // Not asserted per round (a kill may land between writes), but over the rounds some temp files are expected.
  console.log(`crash test: ${totalWrites} writes, ${tempsRemoved} leftover temp files removed over ${ROUNDS} kills`);
});
