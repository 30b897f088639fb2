/**
 * 导入收藏 (importMusicIn, V2): puts each selected audio file into the music collection now, one item per file,
 * paced by the task's import_rate (default 10/s, the engine's slots). Per item:
 * 1. 元数据扫描 — the file is read as a scan reads it (`caps.library.index` with `dryRun`: tags, audio, not-a-song
 *    check); an unreadable file fails here with the scanner's code and reason, before anything is written.
 * 2. `is_skip_exist` (default on): a file whose track is listed and unchanged, or that is a copy of a listed
 *    track (same size and content fingerprint), is skipped with the reason.
 * 3. `music_info` defaults go into the fields the file lacks, through `caps.tags.write` (journaled under the
 *    task: undo_task restores the file).
 * 4. 音乐收藏 — `caps.library.index` upserts its track (one library revision, albums and artists derived again),
 *    so Subsonic lists it at once.
 * The item's `report.section` says which list of the import report it belongs to: `collection` (a track newly
 * added) or `scan` (a listed track re-read and refreshed, or skipped as already there).
 * A dry run reads only and reports what would happen.
 */
import { defineBatchAction, isPluginError, PluginError, type BatchChange, type BatchItemResult, type CapabilitiesFor, type Manifest } from '@tagsonic/sdk';
import { defaultsOf, missingOf, type DefaultField } from './music-info.ts';

type Grants = Manifest & {
  permissions: { tags: { access: 'write'; reason: string }; library: { access: 'write'; reason: string } };
};

export default defineBatchAction<Grants>({
  async runItem({ item, options, dryRun }, caps) {
    const defaults = defaultsOf(options.music_info);
    const skipExisting = options.is_skip_exist !== false;
    const path = item.paths[0];
    if (!path) throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', 'the item names no file');
    try {
      return await importOne(path, defaults, skipExisting, dryRun, caps);
    } catch (error) {
      // A file that is no song, a tag the engine refused, a scan that did not end in time: this file's failure,
      // with the host's reason (the report's 失败 list), not the plugin's (which would count against its health).
      const code = hostCode(error);
      if (!code) throw error;
      return { status: 'fail', reason: (error as Error).message, report: { code } };
    }
  },
});

/**
 * The code of a capability's failure: the SDK's (`isPluginError`) or the host's own (`TAGSONIC_ERR_LIBRARY_…`,
 * `TAGSONIC_ERR_TAGS_…`), which arrive with the same name and a code outside the SDK's list.
 */
function hostCode(error: unknown): string | null {
  if (isPluginError(error)) return error.code;
  const code = error instanceof Error && error.name === 'PluginError' ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && code.startsWith('TAGSONIC_ERR_') ? code : null;
}

async function importOne(path: string, defaults: Partial<Record<DefaultField, string>>, skipExisting: boolean, dryRun: boolean, caps: CapabilitiesFor<Grants>): Promise<BatchItemResult> {
  const seen = await caps.library.index({ path, dryRun: true });
  const track = await caps.tags.read({ path: seen.path });
  const names = { title: track.title, artist: track.artist, album: track.album };
  if (skipExisting && (seen.status === 'unchanged' || seen.sameAs)) {
    const reason = seen.status === 'unchanged' ? 'already in the music collection' : `already in the music collection as ${seen.sameAs!.path}`;
    return { status: 'skip', reason, report: { section: 'scan', track_id: seen.sameAs?.id ?? seen.trackId, ...names } };
  }

  const fill = missingOf(track, defaults);
  const changes: BatchChange[] = Object.entries(fill).map(([field, after]) => ({ path: seen.path, kind: 'tags', field, before: null, after }));
  if (changes.length && !dryRun) await caps.tags.write({ path: seen.path, tags: fill });
  const titled = { ...names, ...fill };
  if (dryRun) {
    return { status: 'success', changes, report: { section: seen.status === 'added' ? 'collection' : 'scan', library: seen.status, ...titled } };
  }
  const done = await caps.library.index({ path: seen.path });
  return {
    status: 'success',
    changes,
    report: { section: done.status === 'added' ? 'collection' : 'scan', library: done.status, track_id: done.trackId, ...titled },
  };
}
