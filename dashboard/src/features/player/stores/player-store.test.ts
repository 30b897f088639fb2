import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PlayerTrack } from '../lib/track.ts';

/** The browser's localStorage, in memory (the store persists through lib/local-settings.ts). */
class MemoryStorage {
  private data = new Map<string, string>();
  get length() {
    return this.data.size;
  }
  clear() {
    this.data.clear();
  }
  getItem(k: string) {
    return this.data.has(k) ? this.data.get(k)! : null;
  }
  setItem(k: string, v: string) {
    this.data.set(k, String(v));
  }
  removeItem(k: string) {
    this.data.delete(k);
  }
  key(i: number) {
    return [...this.data.keys()][i] ?? null;
  }
}

const track = (id: string, duration = 100): PlayerTrack => ({ id, title: id, artist: 'A', album: 'B', duration });
const tracks = ['a', 'b', 'c', 'd', 'e'].map((id) => track(id));

/** A fresh store module over the given storage, as after a page load. */
async function freshStore(storage: MemoryStorage) {
  vi.stubGlobal('localStorage', storage);
  vi.resetModules();
  return (await import('./player-store.ts')).usePlayer;
}

describe('player store', () => {
  let storage: MemoryStorage;
  beforeEach(() => {
    storage = new MemoryStorage();
  });

  it('starts with repeat on, shuffle off, volume 1 and an empty queue', async () => {
    const s = (await freshStore(storage)).getState();
    expect([s.repeat, s.shuffle, s.volume, s.queue, s.playing]).toEqual([true, false, 1, [], false]);
  });

  it('repeat stays on unless stored false, shuffle off unless stored true', async () => {
    storage.setItem('player.repeat', 'false');
    storage.setItem('player.shuffle', 'true');
    storage.setItem('player.volume', '0.25');
    let s = (await freshStore(storage)).getState();
    expect([s.repeat, s.shuffle, s.volume]).toEqual([false, true, 0.25]);
    storage.setItem('player.repeat', '"nonsense"');
    storage.setItem('player.shuffle', '1');
    s = (await freshStore(storage)).getState();
    expect([s.repeat, s.shuffle]).toEqual([true, false]);
  });

  it('persists the queue, index and modes, and a reload restores them paused', async () => {
    const player = await freshStore(storage);
    player.getState().playList(tracks, 2);
    player.getState().next();
    player.getState().toggleRepeat();
    player.getState().toggleShuffle();
    player.getState().setVolume(0.4);
    const before = player.getState();
    expect(JSON.parse(storage.getItem('queueIndex')!)).toBe(0);
    const again = (await freshStore(storage)).getState();
    expect(again.queue.map((t) => t.id)).toEqual(before.queue.map((t) => t.id));
    expect(again.queue[again.index].id).toBe('d');
    expect([again.repeat, again.shuffle, again.volume, again.playing]).toEqual([false, true, 0.4, false]);
  });

  it('a stored queue with junk entries and a stale index still loads', async () => {
    storage.setItem('queue', JSON.stringify([{ id: 'x', title: 'X' }, { nope: 1 }, 'junk', { id: 'y' }]));
    storage.setItem('queueIndex', '9');
    const s = (await freshStore(storage)).getState();
    expect(s.queue.map((t) => t.id)).toEqual(['x', 'y']);
    expect(s.index).toBe(1);
    expect(s.queue[1].title).toBe('未知歌曲');
  });

  it('plays, steps, restarts and ends by the §4 rules', async () => {
    const player = await freshStore(storage);
    const p = () => player.getState();
    p().playList(tracks);
    expect([p().index, p().playing]).toEqual([0, true]);
    const key = p().loadKey;
    p().previous();
    expect(p().index).toBe(4);
    p().next();
    expect(p().index).toBe(0);
    // More than 3 s in, previous restarts the same track (a new load key, same index).
    p().setProgress(12, 100);
    p().previous();
    expect([p().index, p().currentTime, p().loadKey]).toEqual([0, 0, key + 3]);
    p().jumpTo(4);
    p().toggleRepeat();
    p().trackEnded();
    expect([p().index, p().playing]).toEqual([0, false]);
    p().toggleRepeat();
    p().jumpTo(4);
    p().trackEnded();
    expect([p().index, p().playing]).toEqual([0, true]);
    p().trackEnded();
    expect([p().index, p().playing]).toEqual([1, true]);
  });

  it('shuffle keeps the chosen track first; clear keeps only the current one', async () => {
    const player = await freshStore(storage);
    const p = () => player.getState();
    p().toggleShuffle();
    p().playList(tracks, 3);
    expect([p().index, p().queue[0].id, p().queue.length]).toEqual([0, 'd', 5]);
    p().next();
    const current = p().queue[p().index].id;
    p().clear();
    expect(p().queue.map((t) => t.id)).toEqual([current]);
    expect(p().index).toBe(0);
  });

  it('enqueue appends without interrupting; into an empty queue it waits paused', async () => {
    const player = await freshStore(storage);
    const p = () => player.getState();
    p().enqueue([track('x')]);
    expect([p().queue.length, p().index, p().playing]).toEqual([1, 0, false]);
    p().playList(tracks, 1);
    p().enqueue([track('y')]);
    expect([p().queue.length, p().index, p().playing, p().queue[5].id]).toEqual([6, 1, true, 'y']);
  });

  it('seek stays inside the track; volume inside 0..1', async () => {
    const player = await freshStore(storage);
    const p = () => player.getState();
    p().playList([track('a', 50)]);
    p().seek(80);
    expect(p().currentTime).toBe(50);
    p().seek(-3);
    expect(p().currentTime).toBe(0);
    p().setVolume(3);
    expect(p().volume).toBe(1);
    p().setVolume(-1);
    expect(p().volume).toBe(0);
  });
});
