/**
 * Collection metadata (the index definitions) is decoded once per stored version (engine.ts readMeta):
 * every caller still gets its own copy, and a change made through another handle is seen at once.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EmbeddedEngine } from './engine.ts';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

const index = (name: string, no: number) => ({ name, no, keys: [[name, 1]] as [string, 1 | -1][], unique: false, sparse: false, multikey: false, inexact: false });

describe('embedded engine metadata', () => {
  it('hands out copies of the cached metadata and sees every stored change', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'tagsonic-meta-'));
    dirs.push(dir);
    const a = EmbeddedEngine.open(dir);
    const b = EmbeddedEngine.open(dir);
    try {
      await a.write(() => a.writeMeta('things', { indexes: [index('x', 1)] }));
      const first = b.read(() => b.readMeta('things'));
      expect(first.indexes.map((d) => d.name)).toEqual(['x']);
      // A caller changing its copy (write operations do, before writing it back) changes nothing else.
      first.indexes[0]!.multikey = true;
      first.indexes[0]!.keys[0]![1] = -1;
      first.indexes.push(index('y', 2));
      const second = b.read(() => b.readMeta('things'));
      expect(second).toEqual({ indexes: [index('x', 1)] });
      expect(second).not.toBe(first);
      // A change through the other handle is read at once.
      await a.write(() => a.writeMeta('things', { indexes: [index('x', 1), index('z', 3)] }));
      expect(b.read(() => b.readMeta('things')).indexes.map((d) => d.name)).toEqual(['x', 'z']);
      await a.write(() => a.writeMeta('things', { indexes: [] }));
      expect(b.read(() => b.readMeta('things'))).toEqual({ indexes: [] });
    } finally {
      await a.close();
      await b.close();
    }
  });
});
