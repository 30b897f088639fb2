/**
 * Builds the library services over one store: repositories, the in-memory catalogue, annotations,
 * queries and scans. The composition root makes one per process and hands it to gateway and worker.
 */
import path from 'node:path';
import type { Store } from '../store/port.ts';
import type { Tasks } from '../tasks/tasks.ts';
import { Annotations } from './annotations.ts';
import { ArtistMeta } from './artist-meta.ts';
import { Catalog, type RootInfo } from './catalog.ts';
import { EntityMeta } from './entity-meta.ts';
import { LibraryStore } from './library-store.ts';
import { LibraryQueries } from './queries.ts';
import { LibraryScans } from './scans.ts';

export interface Library {
  store: LibraryStore;
  catalog: Catalog;
  annotations: Annotations;
  queries: LibraryQueries;
  scans: LibraryScans;
  /** Artist pictures and biographies (getCoverArt / getArtistInfo of an artist, the 刮削艺术家 action). */
  artists: ArtistMeta;
  /** The overlay of album/artist/genre/playlist edits made without writing the files (entity-meta.ts). */
  entities: EntityMeta;
}

/**
 * Opens the library (creates its indexes). `roots` are the media roots, e.g. `MediaRoots.roots`; `artistDir` is
 * where artist pictures are saved (`<data>/artists`; without it they can be read from the store but not saved or served);
 * `imageDir` where the overlay's album, genre and playlist pictures are (default: `library-images` beside `artistDir`).
 */
export async function openLibrary(deps: { store: Store; tasks: Tasks; roots: readonly RootInfo[]; artistDir?: string; imageDir?: string }): Promise<Library> {
  const library = new LibraryStore(deps.store);
  await library.init();
  const catalog = new Catalog(library, deps.roots.map((r) => ({ name: r.name, dir: r.dir })));
  const annotations = new Annotations(library, catalog);
  const artists = new ArtistMeta(deps.store, catalog, deps.artistDir ?? null);
  const imageDir = deps.imageDir ?? (deps.artistDir ? path.join(path.dirname(deps.artistDir), 'library-images') : null);
  const entities = new EntityMeta(deps.store, catalog, imageDir);
  catalog.useNames(entities);
  const queries = new LibraryQueries(catalog, annotations, library, artists, entities);
  const scans = new LibraryScans({ tasks: deps.tasks, library, catalog, store: deps.store });
  return { store: library, catalog, annotations, queries, scans, artists, entities };
}
