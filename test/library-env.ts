/**
 * A scanned-library environment for the library tests: the generated small library (cached under the
 * temp folder, copied when a test changes files), an embedded store, the in-process bus, tasks, the
 * library services and a scanner.
 */
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createMemoryBus, type Bus } from '@tagsonic/core/bus';
import { openLibrary, type Library } from '@tagsonic/core/library';
import { MediaRoots } from '@tagsonic/core/media';
import { openEmbeddedStore, type EmbeddedStore } from '@tagsonic/core/store';
import { Tasks } from '@tagsonic/core/tasks';
import { generateLibrary, GENERATOR_VERSION, type LibraryFile, type LibraryManifest } from '@tagsonic/test/library';
import { Scanner } from '@tagsonic/workers/scanner';

const SMALL_ROOT = path.join(tmpdir(), `tagsonic-test-small-library-v${GENERATOR_VERSION}`);

/** The small library, generated once per machine and reused. */
export const smallLibrary = (): Promise<LibraryManifest> => generateLibrary({ root: SMALL_ROOT, size: 'small' });

export interface LibraryEnv {
  manifest: LibraryManifest;
  /** The media root (a private copy when `copy` was asked). */
  media: string;
  download: string;
  store: EmbeddedStore;
  bus: Bus;
  tasks: Tasks;
  roots: MediaRoots;
  library: Library;
  scanner: Scanner;
  /** Absolute path of a manifest file in this environment's media root. */
  abs(relative: string): string;
  close(): Promise<void>;
}

/**
 * `copy: true` gives the test its own copy of the library (timestamps kept) so it may add, change,
 * move and delete files; otherwise the shared cached library is scanned read-only.
 */
export async function libraryEnv(options: { copy?: boolean } = {}): Promise<LibraryEnv> {
  const manifest = await smallLibrary();
  const work = await mkdtemp(path.join(tmpdir(), 'tagsonic-library-test-'));
  let media = manifest.root;
  if (options.copy) {
    media = path.join(work, 'media');
    await cp(manifest.root, media, { recursive: true, preserveTimestamps: true });
  }
  const download = path.join(work, 'download');
  await mkdir(download);
  const store = await openEmbeddedStore({ dir: path.join(work, 'store') });
  const bus = createMemoryBus();
  const tasks = new Tasks(store, bus);
  await tasks.init();
  const roots = await MediaRoots.open({ media, download });
  const library = await openLibrary({ store, tasks, roots: roots.roots });
  const scanner = new Scanner({ roots, library: library.store, catalog: library.catalog, bus, readerThreads: 2 });
  return {
    manifest,
    media,
    download,
    store,
    bus,
    tasks,
    roots,
    library,
    scanner,
    abs: (relative) => path.join(media, ...relative.split('/')),
    async close() {
      await bus.close();
      await store.close();
      await rm(work, { recursive: true, force: true });
    },
  };
}

export const audioFiles = (m: LibraryManifest): LibraryFile[] => m.files.filter((f) => f.kind === 'audio');

/** The title a track shows for a manifest file: its title tag, else the file name without extension. */
export const expectedTitle = (f: LibraryFile): string => f.tags?.title ?? path.basename(f.path, path.extname(f.path));
