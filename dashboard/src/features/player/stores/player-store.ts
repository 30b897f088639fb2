/**
 * The player's state: the queue, where it stands, the modes and the clock. Screens call `playList` /
 * `enqueue` and read `queue[index]`; the audio engine (lib/audio-engine.ts) follows this store and
 * reports the clock back. The rules live in lib/queue.ts; this file applies and persists them (§9
 * "Player storage keys": queue, queueIndex, player.repeat, player.shuffle, player.volume).
 */
import { create } from 'zustand';
import { loadSetting, saveSetting } from '../../../lib/local-settings.ts';
import { clampIndex, clearKeepingCurrent, endedStep, jumpIndex, nextIndex, previousStep, shuffleKeepingFirst, startList, type Random } from '../lib/queue.ts';
import { restoreTrack, type PlayerTrack } from '../lib/track.ts';

export type { PlayerTrack } from '../lib/track.ts';

export interface PlayerState {
  queue: PlayerTrack[];
  index: number;
  playing: boolean;
  repeat: boolean;
  shuffle: boolean;
  /** 0..1 */
  volume: number;
  /** Seconds into the current track, as the audio element last reported. */
  currentTime: number;
  /** The current track's length as the audio element knows it (the track's own `duration` until then). */
  duration: number;
  /**
   * Bumped whenever the current track must start from its beginning (a list played, next, previous, a
   * jump, a track end): the engine (re)loads on a new key even when the track id stays the same.
   */
  loadKey: number;
  /** Bumped by `seek`; the engine then moves to `currentTime`. */
  seekKey: number;

  playList(tracks: PlayerTrack[], index?: number): void;
  enqueue(tracks: PlayerTrack[]): void;
  next(): void;
  previous(): void;
  toggle(): void;
  seek(seconds: number): void;
  setVolume(volume: number): void;
  toggleRepeat(): void;
  toggleShuffle(): void;
  /** Keeps only the current track. */
  clear(): void;
  jumpTo(index: number): void;
  /** The queue reshuffled with the current track first (the /playing page's shuffle button). */
  shuffleQueue(): void;

  /** Engine → store: the clock. */
  setProgress(currentTime: number, duration?: number): void;
  /** Engine → store: the element started or stopped on its own (Media Session keys, a failed play). */
  setPlaying(playing: boolean): void;
  /** Engine → store: the current track played to its end. */
  trackEnded(): void;
}

/** Tests replace it to make shuffles reproducible. */
let random: Random = Math.random;
export function setPlayerRandom(next: Random): void {
  random = next;
}

function storedQueue(): PlayerTrack[] {
  return loadSetting('queue', []).map(restoreTrack).filter((t): t is PlayerTrack => t !== null);
}

const clampVolume = (v: number): number => (Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : 1);

/** The state a page load starts from: what was stored, paused. */
export function initialPlayerState(): Pick<PlayerState, 'queue' | 'index' | 'playing' | 'repeat' | 'shuffle' | 'volume' | 'currentTime' | 'duration' | 'loadKey' | 'seekKey'> {
  const queue = storedQueue();
  const index = clampIndex(loadSetting('queueIndex', 0), queue.length);
  return {
    queue,
    index,
    playing: false,
    // Repeat is on unless stored false, shuffle off unless stored true (§4).
    repeat: loadSetting('player.repeat', true) !== false,
    shuffle: loadSetting('player.shuffle', false) === true,
    volume: clampVolume(loadSetting('player.volume', 1)),
    currentTime: 0,
    duration: queue[index]?.duration ?? 0,
    loadKey: 0,
    seekKey: 0,
  };
}

export const usePlayer = create<PlayerState>((set, get) => {
  /** Starts the track at `index` of `queue` from its beginning. */
  const start = (queue: PlayerTrack[], index: number, playing = true) =>
    set((s) => ({ queue, index, playing: playing && queue.length > 0, currentTime: 0, duration: queue[index]?.duration ?? 0, loadKey: s.loadKey + 1 }));

  return {
    ...initialPlayerState(),

    playList: (tracks, index) => {
      const at = startList(tracks, index, get().shuffle, random);
      start(at.queue, at.index);
    },
    enqueue: (tracks) => {
      if (tracks.length === 0) return;
      const { queue } = get();
      if (queue.length === 0) start(tracks.slice(), 0, false);
      else set({ queue: [...queue, ...tracks] });
    },
    next: () => {
      const { queue, index } = get();
      if (queue.length > 0) start(queue, nextIndex(index, queue.length));
    },
    previous: () => {
      const { queue, index, currentTime } = get();
      if (queue.length > 0) start(queue, previousStep(index, queue.length, currentTime).index);
    },
    toggle: () => set((s) => ({ playing: s.queue.length > 0 && !s.playing })),
    seek: (seconds) =>
      set((s) => {
        const limit = Number.isFinite(s.duration) && s.duration > 0 ? s.duration : Infinity;
        const to = Math.min(limit, Math.max(0, Number.isFinite(seconds) ? seconds : 0));
        return { currentTime: to, seekKey: s.seekKey + 1 };
      }),
    setVolume: (volume) => set({ volume: clampVolume(volume) }),
    toggleRepeat: () => set((s) => ({ repeat: !s.repeat })),
    toggleShuffle: () => {
      const { shuffle, queue, index } = get();
      // Turning shuffle on reshuffles what is queued, the current track staying current (and first).
      set(shuffle ? { shuffle: false } : { shuffle: true, ...shuffleKeepingFirst(queue, index, random) });
    },
    clear: () => set((s) => clearKeepingCurrent(s.queue, s.index)),
    jumpTo: (target) => {
      const { queue, index } = get();
      if (queue.length > 0) start(queue, jumpIndex(index, target, queue.length));
    },
    shuffleQueue: () => set((s) => shuffleKeepingFirst(s.queue, s.index, random)),

    setProgress: (currentTime, duration) =>
      set((s) => ({ currentTime: Number.isFinite(currentTime) ? currentTime : 0, duration: duration !== undefined && !Number.isNaN(duration) ? duration : s.duration })),
    setPlaying: (playing) => set((s) => ({ playing: playing && s.queue.length > 0 })),
    trackEnded: () => {
      const { queue, index, repeat } = get();
      const step = endedStep(index, queue.length, repeat);
      start(queue, step.index, step.playing);
    },
  };
});

// Persist the queue, its index and the modes whenever they change (not the clock: it changes 4× a second).
usePlayer.subscribe((s, prev) => {
  if (s.queue !== prev.queue) saveSetting('queue', s.queue);
  if (s.index !== prev.index || s.queue !== prev.queue) saveSetting('queueIndex', s.index);
  if (s.repeat !== prev.repeat) saveSetting('player.repeat', s.repeat);
  if (s.shuffle !== prev.shuffle) saveSetting('player.shuffle', s.shuffle);
  if (s.volume !== prev.volume) saveSetting('player.volume', s.volume);
});

/** The track playing (or paused) now, if any. */
export const currentTrack = (s: Pick<PlayerState, 'queue' | 'index'>): PlayerTrack | undefined => s.queue[s.index];
