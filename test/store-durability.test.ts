/**
 * Crash safety and multi-process use of the embedded store, with real child processes:
 * a writer killed with SIGKILL mid-stream loses no acknowledged write and leaves no half-written
 * document or torn index; a second process writing into the same directory is seen at once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { openEmbeddedStore, type Doc } from '@tagsonic/core/store';

const WRITER = path.join(import.meta.dirname, 'support', 'store-writer.ts');
const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'tagsonic-store-dur-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const checksum = (payload: string) => createHash('sha256').update(payload).digest('hex').slice(0, 16);

interface Writer {
  child: ChildProcess;
  lines: string[];
  /** Resolves when a line satisfying `pred` has been printed. */
  waitFor(pred: (line: string) => boolean, timeoutMs?: number): Promise<string>;
  exited: Promise<number | null>;
}

function startWriter(args: string[]): Writer {
  const child = spawn(process.execPath, [WRITER, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const waiters: { pred: (l: string) => boolean; resolve: (l: string) => void }[] = [];
  let stderr = '';
  child.stderr!.on('data', (b: Buffer) => (stderr += b.toString()));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    lines.push(line);
    for (const w of waiters.splice(0)) if (w.pred(line)) w.resolve(line);
    else waiters.push(w);
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    lines,
    exited,
    waitFor(pred, timeoutMs = 30_000) {
      const found = lines.find(pred);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`writer did not print the expected line; stderr: ${stderr}`)), timeoutMs);
        waiters.push({ pred, resolve: (l) => (clearTimeout(t), resolve(l)) });
        void exited.then(() => setTimeout(() => reject(new Error(`writer exited; stderr: ${stderr}`)), 100));
      });
    },
  };
}

describe('embedded store durability', () => {
  it('keeps every acknowledged write and consistent indexes across kill -9', { timeout: 180_000 }, async () => {
    const dir = tempDir();
    const inserted = new Map<string, number>();
    const versions = new Map<string, number>();
    for (let round = 0; round < 3; round++) {
      const w = startWriter([dir, 'crash', String(round * 1_000_000)]);
      await w.waitFor((l) => l === 'READY');
      // Let it write for a while, then kill it at an arbitrary point mid-stream.
      await w.waitFor((l) => l.startsWith('I ') && Number(l.split(' ')[2]) >= round * 1_000_000 + 150 + round * 37);
      await new Promise((r) => setTimeout(r, 20 + round * 15));
      w.child.kill('SIGKILL');
      await w.exited;
      for (const line of w.lines) {
        const [kind, id, n] = line.split(' ');
        if (kind === 'I') inserted.set(id!, Number(n));
        if (kind === 'U') versions.set(id!, Math.max(versions.get(id!) ?? 0, Number(n)));
      }
    }
    expect(inserted.size).toBeGreaterThan(450);

    const store = await openEmbeddedStore({ dir });
    try {
      const c = store.collection<Doc>('durable');
      // A scan (the $expr keeps the planner off the indexes) sees every document once.
      const all = await c.find({ $expr: { $gte: ['$seq', 0] } }, { sort: { _id: 1 } });
      const byId = new Map(all.map((d) => [d._id, d]));
      for (const [id, seq] of inserted) {
        const doc = byId.get(id);
        expect(doc, `acknowledged insert ${id}`).toBeDefined();
        expect(doc!.seq).toBe(seq);
      }
      for (const [id, version] of versions) expect(byId.get(id)!.version as number).toBeGreaterThanOrEqual(version);
      for (const d of all) {
        // Nothing half-written: every document is complete and its payload matches its checksum.
        expect(Object.keys(d).sort()).toEqual(['_id', 'group', 'payload', 'seq', 'sum', 'version']);
        expect(checksum(d.payload as string)).toBe(d.sum);
      }
      // Indexes agree with the documents: lookups through each index equal the scan.
      expect(await c.countDocuments({ seq: { $gte: 0 } })).toBe(all.length);
      for (const d of all) expect((await c.find({ seq: d.seq })).map((x) => x._id)).toEqual([d._id]);
      for (let g = 0; g < 7; g++) {
        const viaIndex = (await c.find({ group: g }, { sort: { seq: -1 } })).map((d) => d._id);
        const viaScan = all.filter((d) => d.group === g).sort((a, b) => (b.seq as number) - (a.seq as number)).map((d) => d._id);
        expect(viaIndex).toEqual(viaScan);
        expect((await c.explain({ group: g }, { sort: { seq: -1 } })).index).toBe('group_1_seq_-1');
      }
      // The store keeps working after the crashes.
      await c.insertOne({ _id: 'after-crash', seq: -1, group: 0, payload: '', sum: checksum(''), version: 0 });
      await expect(c.insertOne({ _id: 'dup-seq', seq: -1, group: 0, payload: '', sum: '', version: 0 })).rejects.toMatchObject({ code: 'TAGSONIC_ERR_STORE_DUPLICATE_KEY' });
    } finally {
      await store.close();
    }
  });

  it('two processes write one directory and each sees the other at once', { timeout: 120_000 }, async () => {
    const dir = tempDir();
    const store = await openEmbeddedStore({ dir });
    try {
      const c = store.collection<Doc>('durable');
      const counter = store.collection<Doc>('counter');
      await c.createIndexes([{ keys: { seq: 1 }, unique: true }]);
      const w = startWriter([dir, 'peer', '150']);
      await w.waitFor((l) => l === 'READY');
      const ownIncs = Promise.all(Array.from({ length: 150 }, () => counter.updateOne({ _id: 'shared' }, { $inc: { n: 1 } }, { upsert: true })));
      let checked = 0;
      // Each insert the child acknowledged is visible to this process's very next read.
      while (checked < 150) {
        const line = await w.waitFor((l) => l.startsWith('I ') && Number(l.split(' ')[2]) === 1_000_000 + checked);
        const [, id, seq] = line.split(' ');
        expect(await c.findOne({ _id: id })).toMatchObject({ _id: id, seq: Number(seq) });
        expect((await c.find({ seq: Number(seq) })).map((d) => d._id)).toEqual([id]);
        checked++;
      }
      await w.waitFor((l) => l === 'DONE');
      expect(await w.exited).toBe(0);
      await ownIncs;
      expect((await counter.findOne({ _id: 'shared' }))!.n).toBe(300);
      // An index the other process created is used here without reopening.
      expect((await c.explain({ group: 3 }, { sort: { seq: -1 } })).index).toBe('group_1_seq_-1');
      expect(await c.countDocuments({ group: 3 })).toBe((await c.find({ $expr: { $eq: ['$group', 3] } })).length);
    } finally {
      await store.close();
    }
  });
});
