/**
 * The capabilities beyond http/config/log, built from the manifest's grants and the worker's services. A
 * capability the manifest does not grant is absent; a read grant gets the read half only; each function
 * re-checks its arguments (and, for writes, the grant) on every call. `text` and `match` need nothing from
 * the host; `kv` and `progress` need no grant but do need the host's store / progress callback.
 */
import type { Manifest } from '@tagsonic/sdk';
import type { Capabilities } from '../../plugin-host/index.ts';
import type { PluginHostServices } from '../host-services.ts';
import { filesCapability } from './files.ts';
import { filesExtraCapability } from './files-extra.ts';
import { taskAwareCopy, taskAwareDelete, taskAwareMove } from './files-task.ts';
import { ffmpegCapability, fingerprintCapability } from './media-tools.ts';
import { withAlbumLoudness } from './loudness.ts';
import { withConvertPresets } from './ffmpeg-convert.ts';
import { filesReadCapability } from './files-read.ts';
import { strmCapability } from './strm.ts';
import { kvCapability, matchCapability, progressCapability, sourcesCapability, textCapability } from './services.ts';
import { tagsCapability } from './tags.ts';
import { tagsSideCapability } from './tags-side.ts';
import { sourceExtrasCapability } from './source-extras.ts';
import { artistsCapability } from './artists.ts';
import { libraryCapability } from './library.ts';
import { llmCapability } from './llm.ts';

export { KV_LIMITS, PLUGIN_KV_COLLECTION } from './services.ts';
export { MAX_LIST_ENTRIES } from './files.ts';

export function hostCapabilities(manifest: Manifest, host: PluginHostServices | undefined): Capabilities {
  const capabilities: Capabilities = {
    text: textCapability(),
    match: matchCapability(),
    // Fire-and-forget in the SDK; without a task to report to, reports are dropped.
    progress: host?.progress ? progressCapability(host.progress) : () => null,
  };
  if (!host) return capabilities;
  const grants = manifest.permissions;
  capabilities.kv = kvCapability(manifest.id, host.store);
  if (grants.files) {
    const files = { ...filesCapability(host.roots, grants.files.access), ...filesExtraCapability(host.roots, grants.files.access), ...filesReadCapability(host.roots), ...strmCapability(host.roots, host.store, grants.files.access, host.journal) };
    // A task's moves and copies are journaled (undo_task, crash settling) and its deletes go to the trash; files-task.ts.
    if (files.move) files.move = taskAwareMove(manifest.id, host.roots, host.journal, files.move);
    if (files.delete) files.delete = taskAwareDelete(manifest.id, host.roots, host.journal, files.delete);
    if (files.copy) files.copy = taskAwareCopy(host.roots, host.journal, files.copy);
    capabilities.files = files;
  }
  if (grants.tags) capabilities.tags = { ...tagsCapability(manifest.id, host.roots, host.journal, grants.tags.access, host.tagThreads), ...tagsSideCapability(host.roots, grants.tags.access, host.journal) };
  if (grants.ffmpeg) capabilities.ffmpeg = withAlbumLoudness(host.roots, withConvertPresets(ffmpegCapability(host.roots, grants.files?.access ?? null, host.journal), host.roots, grants.files?.access ?? null, host.journal));
  if (grants.fingerprint) capabilities.fingerprint = fingerprintCapability(host.roots);
  // Import collection: files into the library through the scanner's own indexing (./library.ts).
  if (grants.library) capabilities.library = libraryCapability(host.roots, host.library, grants.library.access);
  if (grants.artists) capabilities.artists = artistsCapability(host.artists);
  if (grants.sources) {
    capabilities.sources = { ...sourcesCapability(manifest.id, grants.sources.ids, host.searchSource), ...sourceExtrasCapability(grants.sources.ids, host) };
  }
  // The model configured in the system settings, read per call; the key stays here (./llm.ts).
  if (grants.llm) capabilities.llm = llmCapability(manifest.id, host.store);
  return capabilities;
}
