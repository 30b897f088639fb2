/**
 * The folder fsync after a rename is shared by the writes into one folder (journal.ts
 * sharedFolderSync): a call resolves only after an fsync that started after it.
 */
import { describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fsyncDir, sharedFolderSync } from './journal.ts';

/** A sync that records when each call starts and finishes only when told. */
function controlledSync() {
  const runs: Array<{ dir: string; startedAfter: number; finish: (err?: Error) => void }> = [];
  let clock = 0;
  const sync = (dir: string) =>
    new Promise<void>((resolve, reject) => {
      runs.push({ dir, startedAfter: clock, finish: (err) => (err ? reject(err) : resolve()) });
    });
  return { runs, sync, tick: () => ++clock };
}

const flush = () => new Promise((r) => setImmediate(r));

describe('shared folder sync', () => {
  it('gives every call an fsync that starts after it, sharing one among the calls that wait', async () => {
    const { runs, sync, tick } = controlledSync();
    const fsync = sharedFolderSync(sync);
    const done: string[] = [];
    const a = fsync('/m/album').then(() => done.push('a'));
    expect(runs).toHaveLength(1);
    tick(); // b and c arrive while the first fsync runs: it may have started before their renames
    const b = fsync('/m/album').then(() => done.push('b'));
    const c = fsync('/m/album').then(() => done.push('c'));
    const other = fsync('/m/other').then(() => done.push('other'));
    expect(runs.map((r) => r.dir)).toEqual(['/m/album', '/m/other']);
    runs[0]!.finish();
    await flush();
    expect(done).toEqual(['a']);
    // One more fsync for b and c together, started after they asked.
    expect(runs.map((r) => r.dir)).toEqual(['/m/album', '/m/other', '/m/album']);
    expect(runs[2]!.startedAfter).toBe(1);
    tick();
    const d = fsync('/m/album').then(() => done.push('d'));
    runs[2]!.finish();
    await flush();
    expect(done).toEqual(['a', 'b', 'c']);
    expect(runs).toHaveLength(4);
    runs[3]!.finish();
    runs[1]!.finish();
    await Promise.all([a, b, c, d, other]);
    expect([...done].sort()).toEqual(['a', 'b', 'c', 'd', 'other']);
    // Nothing under way any more: the next call starts its own fsync at once.
    void fsync('/m/album');
    expect(runs).toHaveLength(5);
    runs[4]!.finish();
  });

  it('fails the calls of a failed fsync; the calls queued behind it get a fresh one', async () => {
    const { runs, sync } = controlledSync();
    const fsync = sharedFolderSync(sync);
    const first = fsync('/m/a');
    const second = fsync('/m/a');
    runs[0]!.finish(new Error('EIO'));
    await expect(first).rejects.toThrow('EIO');
    await flush();
    expect(runs).toHaveLength(2);
    runs[1]!.finish();
    await expect(second).resolves.toBeUndefined();
  });

  it('syncs real folders, many calls at once', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'tagsonic-fsync-'));
    try {
      await Promise.all(Array.from({ length: 20 }, () => fsyncDir(dir)));
      await expect(fsyncDir(path.join(dir, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
