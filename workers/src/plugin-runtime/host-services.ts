/**
 * What the worker hands `loadPlugin` so the capabilities that reach outside the sandbox have something to
 * reach: the media roots (files, tags, fingerprint and ffmpeg are confined to them), the tag journal (so a
 * plugin's tag write is undoable like any other), the store (the plugin's own key-value space), and the
 * callbacks of progress and of smart_tag's cross-source search. The manifest's grants decide which of them a
 * plugin actually sees; passing a service grants nothing.
 */
import type { MediaRoots } from '@tagsonic/core/media';
import type { Store } from '@tagsonic/core/store';
import type { TagJournal } from '@tagsonic/core/tags';
import type { Artwork, ScoredSong, SearchOptions } from '@tagsonic/sdk';
import type { TagThreads } from './capabilities/tags.ts';
import type { ArtistMeta } from '@tagsonic/core/library';
import type { LibraryIndexer } from './capabilities/library.ts';

/** A source's candidate with the host's scores (core/matching), as the editor's results table shows it. */
export type { ScoredSong };

export interface PluginHostServices {
  /** files/tags/fingerprint/ffmpeg are confined to these. */
  roots: MediaRoots;
  /** tags.write goes through the journaled, undoable tag engine. */
  journal: TagJournal;
  /** The worker's reader and writer threads tags.read / tags.write run on (absent: on the calling thread). */
  tagThreads?: TagThreads;
  /** Per-plugin kv (collection `plugin_kv`, keyed by plugin id). */
  store: Store;
  /** library.index (import collection): the worker's scanner; absent in a worker that runs none. */
  library?: LibraryIndexer;
  progress?: (p: { done: number; total: number; message?: string }) => void;
  /**
   * smart_tag: search another installed source, candidates scored by the host. `budget.budgetMs`: how long the
   * caller will wait (the source's pacing turn that would come later is refused as busy, see Sandbox.invoke).
   */
  searchSource?: (id: string, query: SearchOptions, budget?: { budgetMs?: number }) => Promise<ScoredSong[]>;
  /** sources.lyrics: a candidate's lyrics from its source's `lyrics` export (normalised LRC), null when it has none. */
  sourceLyrics?: (id: string, songId: string) => Promise<string | null>;
  /** sources.cover: a candidate's cover downloaded by the host (its source's base URL trusted), as embeddable artwork. */
  downloadCover?: (id: string, url: string) => Promise<Artwork>;
  /** sources.artist: an artist by name from a source's `artist` export (fetch_artist_by_keyword's), null when it has none. */
  sourceArtist?: (id: string, keyword: string) => Promise<{ name: string; image: string | null; description: string | null } | null>;
  /** caps.artists (刮削艺术家): the library's artist pictures and biographies. */
  artists?: ArtistMeta;
}
