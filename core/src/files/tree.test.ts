import { describe, expect, it } from 'vitest';
import { filterNodes, sortNodes, toNodes, treeView } from './tree.ts';
import { iconFor } from './icons.ts';
import type { Listing } from './listing.ts';

const listing: Listing = {
  dir: '/m',
  mtimeMs: 1,
  entries: [
    { name: 'track 10.mp3', isDir: false, size: 30, mtimeMs: 3 },
    { name: 'track 2.mp3', isDir: false, size: 10, mtimeMs: 1 },
    { name: '周杰伦', isDir: true, size: 0, mtimeMs: 2 },
    { name: '阿杜', isDir: true, size: 0, mtimeMs: 5 },
    { name: 'Beyond', isDir: true, size: 0, mtimeMs: 4 },
    { name: 'cover.JPG', isDir: false, size: 20, mtimeMs: 6 },
  ],
};

describe('file tree', () => {
  it('sorts folders first, then by name with numbers and pinyin in order', () => {
    const names = treeView(listing, new Map(), {}).map((n) => n.name);
    expect(names).toEqual(['阿杜', 'Beyond', '周杰伦', 'cover.JPG', 'track 2.mp3', 'track 10.mp3']);
  });

  it('sorts by size, time and state, either way', () => {
    const nodes = () => toNodes('/m', listing.entries, new Map([['track 2.mp3', 'failed'], ['周杰伦', 'success']]));
    expect(sortNodes(nodes(), ['size']).map((n) => n.size)).toEqual([0, 0, 0, 10, 20, 30]);
    expect(sortNodes(nodes(), '-update_time').map((n) => n.name)[0]).toBe('cover.JPG');
    expect(sortNodes(nodes(), 'state').map((n) => n.state)).toEqual([null, null, null, null, 'failed', 'success']);
    expect(sortNodes(nodes(), 'bogus').map((n) => n.name)[0]).toBe('阿杜');
  });

  it('filters by state: and by name, and never mutates the shared nodes', () => {
    const states = new Map<string, 'success' | 'failed'>([['track 2.mp3', 'success']]);
    expect(treeView(listing, states, { searchWord: 'state:success' }).map((n) => n.name)).toEqual(['track 2.mp3']);
    expect(treeView(listing, new Map(), { searchWord: 'state:success' })).toEqual([]);
    expect(treeView(listing, new Map(), { searchWord: 'state:null' })).toHaveLength(6);
    expect(filterNodes(treeView(listing, new Map(), {}), 'TRACK').map((n) => n.name)).toEqual(['track 2.mp3', 'track 10.mp3']);
    // Simplified and traditional Chinese alike: 周杰倫 finds the folder 周杰伦.
    expect(filterNodes(treeView(listing, new Map(), {}), '周杰倫').map((n) => n.name)).toEqual(['周杰伦']);
    expect(treeView(listing, states, {}).find((n) => n.name === 'track 2.mp3')!.state).toBe('success');
    expect(treeView(listing, new Map(), {}).find((n) => n.name === 'track 2.mp3')!.state).toBeNull();
  });

  it('maps icons by kind', () => {
    expect(['a.flac', 'b.JPG', 'c.lrc', 'd.cue', 'e.strm', 'f.m3u8', 'g.mkv', 'h.zip', 'i.xyz', 'noext'].map((n) => iconFor(n, false))).toEqual([
      'icon-file', 'icon-image', 'icon-script-file', 'icon-cue', 'icon-strm', 'icon-script-files', 'icon-video', 'icon-zip', 'icon-other', 'icon-other',
    ]);
    expect(iconFor('x.mp3', true)).toBe('icon-folder');
  });
});
