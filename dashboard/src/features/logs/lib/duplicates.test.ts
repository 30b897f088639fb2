import { describe, expect, it } from 'vitest';
import type { DetailRow } from '../api/types.ts';
import { DEFAULT_DELETE_RULES, deleteAllPaths, duplicateSections, rulesPayload } from './duplicates.ts';

const item = (report: unknown): DetailRow => ({ id: 'i', name: '', path: '', report });

describe('duplicate-check report', () => {
  it('gathers rows and sets per kind, in the spec order, leaving out empty kinds', () => {
    const sections = duplicateSections([
      item({ section: 'name', rows: [{ name: 'song', file_1: '/m/a.mp3', file_2: '/m/a (1).mp3' }], groups: [{ key: 'song', files: ['/m/a.mp3', '/m/a (1).mp3'] }] }),
      item({ section: 'hash', rows: [{ name: 'x', file_1: '/m/x.mp3', file_2: '/m/y.mp3' }], groups: [{ key: 'h', files: ['/m/x.mp3', '/m/y.mp3'] }] }),
      item({ section: 'hash', rows: [], groups: [] }),
      item(null),
      item({ section: 'deleted', deleted: ['/m/z.mp3'] }),
    ]);
    expect(sections.map((s) => [s.kind, s.rows.length, s.groups.length])).toEqual([
      ['hash', 1, 1],
      ['name', 1, 1],
    ]);
  });

  it('deletes every duplicate but keeps the first file of each set', () => {
    const rows = [
      { name: 'a', file_1: '/m/1.mp3', file_2: '/m/2.mp3' },
      { name: 'a', file_1: '/m/1.mp3', file_2: '/m/3.mp3' },
      { name: 'b', file_1: '/m/3.mp3', file_2: '/m/4.mp3' },
    ];
    expect(deleteAllPaths({ kind: 'name', rows, groups: [] })).toEqual(['/m/2.mp3', '/m/4.mp3']);
  });

  it('sends the spec defaults, a target folder only when moving', () => {
    expect(rulesPayload(DEFAULT_DELETE_RULES)).toEqual({ sizeRule: 'smaller', formatPriority: ['flac', 'mp3'], nameRule: 'larger', bitrateRule: 'none', sampleRule: 'none', metadataRule: 'none', deleteMode: 'direct' });
    expect(rulesPayload({ ...DEFAULT_DELETE_RULES, deleteMode: 'move', targetDir: ' dupes ' }).targetDir).toBe('dupes');
  });
});
