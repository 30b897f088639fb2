import { describe, expect, it } from 'vitest';
import { node } from './fixtures.ts';
import { dragRange, rowsBetween, setRange, shiftRange, toggleRow } from './selection.ts';
import { flattenTree, parentPath } from './tree-rows.ts';

const album = node('Album', { dir: true, children: [node('01.flac', { parent: '/music/Album' }), node('02.flac', { parent: '/music/Album' })] });
const nodes = [album, node('a.mp3'), node('b.mp3'), node('c.mp3'), node('d.mp3'), node('cover.jpg')];
const ids = (s: Set<string>) => [...s].sort();

describe('tree rows', () => {
  it('flattens depth-first, opening only expanded folders', () => {
    expect(flattenTree(nodes, new Set()).map((r) => r.node.name)).toEqual(['Album', 'a.mp3', 'b.mp3', 'c.mp3', 'd.mp3', 'cover.jpg']);
    const open = flattenTree(nodes, new Set(['/music/Album']));
    expect(open.map((r) => `${r.depth}:${r.node.name}`)).toEqual(['0:Album', '1:01.flac', '1:02.flac', '0:a.mp3', '0:b.mp3', '0:c.mp3', '0:d.mp3', '0:cover.jpg']);
    expect(open[1].parentId).toBe('/music/Album');
  });

  it('finds parents of server paths', () => {
    expect(parentPath('/app/media/Artist')).toBe('/app/media');
    expect(parentPath('/app/media/Artist/')).toBe('/app/media');
    expect(parentPath('/app')).toBe('/');
    expect(parentPath('/')).toBeNull();
  });
});

describe('checkbox selection (§4)', () => {
  const rows = flattenTree(nodes, new Set());

  it('checking a folder checks its children; clicking a checked file unchecks it', () => {
    const withFolder = toggleRow(new Set(), rows[0]);
    expect(ids(withFolder)).toEqual(['/music/Album', '/music/Album/01.flac', '/music/Album/02.flac']);
    expect(ids(toggleRow(withFolder, rows[0]))).toEqual([]);
    const one = toggleRow(new Set(), rows[2]);
    expect(ids(one)).toEqual(['/music/b.mp3']);
    expect(ids(toggleRow(one, rows[2]))).toEqual([]);
  });

  it('Shift: everything between the first and the last clicked row, in either direction', () => {
    expect(ids(shiftRange(new Set(), rows, ['/music/d.mp3', '/music/a.mp3'], null))).toEqual(['/music/a.mp3', '/music/b.mp3', '/music/c.mp3', '/music/d.mp3']);
    // A single Shift click ranges from the anchor (the last plain click).
    expect(ids(shiftRange(new Set(['/music/b.mp3']), rows, ['/music/d.mp3'], '/music/b.mp3'))).toEqual(['/music/b.mp3', '/music/c.mp3', '/music/d.mp3']);
    // Without an anchor a single Shift click changes nothing more.
    expect(ids(shiftRange(new Set(['/music/c.mp3']), rows, ['/music/c.mp3'], null))).toEqual(['/music/c.mp3']);
    // Rows no longer in the list are ignored.
    expect(ids(shiftRange(new Set(), rows, ['/gone'], null))).toEqual([]);
  });

  it('dragging over checkboxes sets a range to the first box new value, and shrinking the drag restores the rest', () => {
    const baseline = new Set(['/music/c.mp3']);
    expect(ids(dragRange(baseline, rows, 1, 3, true))).toEqual(['/music/a.mp3', '/music/b.mp3', '/music/c.mp3']);
    expect(ids(dragRange(baseline, rows, 1, 2, true))).toEqual(['/music/a.mp3', '/music/b.mp3', '/music/c.mp3']);
    expect(ids(dragRange(baseline, rows, 4, 2, false))).toEqual([]);
    expect(ids(dragRange(baseline, rows, 4, 4, false))).toEqual(['/music/c.mp3']);
  });

  it('ranges clamp to the list', () => {
    expect(rowsBetween(rows, -5, 1).map((r) => r.node.name)).toEqual(['Album', 'a.mp3']);
    expect(rowsBetween(rows, 4, 99).map((r) => r.node.name)).toEqual(['d.mp3', 'cover.jpg']);
    expect(ids(setRange(new Set(), rows, 5, 5, true))).toEqual(['/music/cover.jpg']);
  });
});
