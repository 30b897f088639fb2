/**
 * Plays the player store's current track. Two <audio> elements take turns: one plays, the other holds the
 * next track preloaded (preload="auto"); at a track end they swap, so the next song starts without a
 * gap. Pause/resume fade the volume (200 ms in 10 ms steps), a seek fades half as long, a track change
 * fades the old audio out. Starting a track scrobbles it; the Media Session (lock screen, media keys) and
 * the document title follow the track. Player errors are swallowed (§8): a failed play just stops.
 */
import { streamUrl, coverUrl } from '../../library/lib/cover-url.ts';
import { scrobble as scrobbleSong } from '../api/scrobble.ts';
import { usePlayer, type PlayerState } from '../stores/player-store.ts';
import { FADE_MS, FADE_STEP_MS, SEEK_FADE_MS, documentTitle, fadeSteps, needsTranscode, trackToPreload } from './playback.ts';
import type { PlayerTrack } from './track.ts';

type Store = typeof usePlayer;

export interface EngineOptions {
  store?: Store;
  /** Records a play; default: /rest scrobble. */
  scrobble?: (id: string) => Promise<void>;
  /** The tab title for a track (the shell passes one that translates the 未知… fallbacks). */
  title?: (track: PlayerTrack | undefined) => string;
}

/** The format a file the browser cannot play is transcoded to (every browser plays MP3). */
const TRANSCODE_FORMAT = 'mp3';
let probe: HTMLAudioElement | null = null;
const canPlay = (type: string): string => (probe ??= document.createElement('audio')).canPlayType(type);

/** The audio URL of a queue entry: a radio station's own stream, else our /rest stream (transcoded if need be). */
export const trackUrl = (track: PlayerTrack): string => track.url ?? streamUrl(track.id, undefined, needsTranscode(track, canPlay) ? TRANSCODE_FORMAT : undefined);

interface Deck {
  el: HTMLAudioElement;
  /** The queue entry loaded into it (its URL is el.src, made absolute by the browser). */
  track?: PlayerTrack;
  /** Cancels the running fade on this element. */
  fade: number;
}

/** Starts the engine for the page's lifetime; returns its stop (the shell's unmount). */
export function startAudioEngine(options: EngineOptions = {}): () => void {
  const store = options.store ?? usePlayer;
  const record = options.scrobble ?? scrobbleSong;
  const titleOf = options.title ?? ((t) => documentTitle(t));

  const box = document.createElement('div');
  box.hidden = true;
  box.dataset.testid = 'player-audio';
  document.body.append(box);
  const make = (): Deck => {
    const el = document.createElement('audio');
    el.preload = 'auto';
    box.append(el);
    return { el, fade: 0 };
  };
  let current = make();
  let spare = make();
  /** The store's loadKey the current deck plays, and whether that start was scrobbled yet. */
  let loadedKey = -1;
  let scrobbledKey = -1;
  let stopped = false;

  const target = () => store.getState().volume;

  /** Moves `deck`'s volume to `to` in 10 ms steps; resolves false if another fade took over. */
  const fade = (deck: Deck, to: number, ms: number): Promise<boolean> => {
    const token = ++deck.fade;
    const steps = fadeSteps(deck.el.volume, to, ms);
    return new Promise((resolve) => {
      let i = 0;
      const tick = () => {
        if (deck.fade !== token) return resolve(false);
        deck.el.volume = steps[i++];
        if (i >= steps.length) return resolve(true);
        setTimeout(tick, FADE_STEP_MS);
      };
      tick();
    });
  };

  const play = (deck: Deck) => {
    deck.el.play().catch((e: unknown) => {
      // A play() interrupted by a pause or a new source rejects with AbortError: expected, ignored.
      if (e instanceof DOMException && e.name === 'AbortError') return;
      // Anything else (autoplay refused, unplayable file) stops the player quietly (§8: player errors are
      // swallowed); the console keeps the reason for whoever looks.
      console.warn('[player] play refused:', e);
      if (deck === current) store.getState().setPlaying(false);
    });
  };

  /** Pauses with a fade out, leaving the volume ready for the next resume. */
  const fadeOutAndPause = async (deck: Deck, ms = FADE_MS) => {
    if (deck.el.paused) return;
    if (await fade(deck, 0, ms)) deck.el.pause();
  };

  const resume = (deck: Deck) => {
    deck.el.volume = 0;
    play(deck);
    void fade(deck, target(), FADE_MS);
  };

  const preloadNext = () => {
    const s = store.getState();
    const next = trackToPreload(s.queue, s.index, s.repeat);
    if (!next || spare.track?.id === next.id || !spare.el.paused) return;
    spare.track = next;
    spare.el.src = trackUrl(next);
    spare.el.load();
  };

  const showTrack = (track: PlayerTrack | undefined) => {
    document.title = titleOf(track);
    const session = navigator.mediaSession;
    if (!session) return;
    session.metadata = track
      ? new MediaMetadata({
          title: track.title,
          artist: track.artist,
          album: track.album,
          artwork: [{ src: new URL(coverUrl(track.coverArt, 512), location.href).href, sizes: '512x512' }],
        })
      : null;
  };

  /** Starts the store's current track from its beginning (loadKey changed). */
  const load = (s: PlayerState) => {
    loadedKey = s.loadKey;
    const track = s.queue[s.index];
    showTrack(track);
    if (!track) {
      void fadeOutAndPause(current);
      return;
    }
    if (current.track?.id === track.id && current.el.src && (current.el.ended || current.el.currentTime > 0 || !current.el.paused)) {
      // The same track again (previous after 3 s, repeat of a one-track queue): back to its start.
      current.el.currentTime = 0;
      current.el.volume = target();
      if (s.playing) play(current);
    } else {
      const old = current;
      const ready = spare.track?.id === track.id;
      current = spare;
      spare = old;
      if (!ready) {
        current.track = track;
        current.el.src = trackUrl(track);
      }
      if (current.el.currentTime !== 0) current.el.currentTime = 0;
      current.fade++;
      current.el.volume = target();
      if (s.playing) play(current);
      // The old track fades out (it already stopped if it ended); then its element takes the next preload.
      const leaving = spare;
      leaving.fade++;
      void fadeOutAndPause(leaving).then(() => {
        // Unless a quicker track change already took this element back into play.
        if (stopped || leaving !== spare || !leaving.el.paused) return;
        leaving.el.volume = target();
        preloadNext();
      });
    }
    preloadNext();
  };

  const react = (s: PlayerState, prev: PlayerState) => {
    if (s.loadKey !== loadedKey) {
      load(s);
      return;
    }
    if (s.playing !== prev.playing) {
      if (s.playing) resume(current);
      else void fadeOutAndPause(current);
    }
    if (s.seekKey !== prev.seekKey) {
      const el = current.el;
      if (el.paused) el.currentTime = s.currentTime;
      else
        void fade(current, 0, SEEK_FADE_MS).then((done) => {
          if (!done) return;
          el.currentTime = store.getState().currentTime;
          void fade(current, target(), SEEK_FADE_MS);
        });
    }
    if (s.volume !== prev.volume && !current.el.paused) {
      current.fade++;
      current.el.volume = s.volume;
    }
    if (s.queue !== prev.queue || s.index !== prev.index || s.repeat !== prev.repeat) {
      showTrack(s.queue[s.index]);
      preloadNext();
    }
  };

  // The events of both elements; only the current deck's count.
  const on = <K extends keyof HTMLMediaElementEventMap>(type: K, handler: (deck: Deck) => void) => {
    for (const deck of [current, spare]) deck.el.addEventListener(type, () => deck === current && handler(deck));
  };
  /** A transcoded stream has no length of its own: the track's is shown then (a radio's stays ∞). */
  const lengthOf = (deck: Deck): number => (Number.isFinite(deck.el.duration) || !deck.track?.duration ? deck.el.duration : deck.track.duration);
  on('timeupdate', (deck) => {
    const { el } = deck;
    const length = lengthOf(deck);
    store.getState().setProgress(el.currentTime, length);
    const session = navigator.mediaSession;
    if (session?.setPositionState && Number.isFinite(length) && length > 0) {
      try {
        session.setPositionState({ duration: length, position: Math.min(el.currentTime, length), playbackRate: el.playbackRate || 1 });
      } catch {
        // A position the browser refuses (a live stream's moving end) is not worth a failure.
      }
    }
  });
  on('durationchange', (deck) => store.getState().setProgress(deck.el.currentTime, lengthOf(deck)));
  on('ended', () => store.getState().trackEnded());
  on('playing', (deck) => {
    if (navigator.mediaSession) navigator.mediaSession.playbackState = 'playing';
    if (scrobbledKey === loadedKey || !deck.track || deck.track.isStream) return;
    scrobbledKey = loadedKey;
    record(deck.track.id).catch(() => undefined);
  });
  on('pause', ({ el }) => {
    if (navigator.mediaSession && !el.ended) navigator.mediaSession.playbackState = 'paused';
  });

  const session = navigator.mediaSession;
  if (session) {
    const handlers: [MediaSessionAction, MediaSessionActionHandler][] = [
      ['play', () => store.getState().setPlaying(true)],
      ['pause', () => store.getState().setPlaying(false)],
      ['previoustrack', () => store.getState().previous()],
      ['nexttrack', () => store.getState().next()],
      ['seekto', (d) => d.seekTime !== undefined && store.getState().seek(d.seekTime)],
    ];
    for (const [action, handler] of handlers) {
      try {
        session.setActionHandler(action, handler);
      } catch {
        // A browser without this action keeps the others.
      }
    }
  }

  const unsubscribe = store.subscribe(react);
  // A restored queue: load its track paused, so the bar shows the duration and play starts at once.
  const initial = store.getState();
  const track = initial.queue[initial.index];
  loadedKey = initial.loadKey;
  showTrack(track);
  if (track) {
    current.track = track;
    current.el.src = trackUrl(track);
    current.el.volume = target();
    if (initial.playing) play(current);
    preloadNext();
  }

  return () => {
    stopped = true;
    unsubscribe();
    for (const deck of [current, spare]) {
      deck.fade++;
      deck.el.pause();
      deck.el.removeAttribute('src');
    }
    box.remove();
    document.title = documentTitle(undefined);
  };
}
