/**
 * 删除文件夹 (removeNullFolder): removes folders without music from the selection. `delete_mode` (doc 1 §7):
 * - `null`: folders with nothing in them (or only folders with nothing in them);
 * - `null_music`: folders with files but no audio file at any depth, holding only leftovers (covers, .lrc, .nfo,
 *   playlists, cue sheets, rip logs — {@link LEFTOVER}): those files are deleted, then the folders;
 * - `all`: both.
 * A folder holding an audio file at any depth is never touched, whatever the mode; a media folder itself is
 * never removed (the host refuses). Files go through `caps.files.delete` and folders through
 * `caps.files.removeDir` (empty folders only), both bound to the task by the host.
 *
 * One item per top-most folder to remove (its subfolders go with it). The selected folders count: ticking an
 * empty folder and choosing 删除空文件夹 removes it. `runItem` looks again before deleting, so a file that
 * arrived since planning (a download) keeps its folder. A dry run lists every file and folder it would delete.
 */
import { defineBatchAction, PluginError, type BatchChange, type BatchItem, type BatchItemResult, type CapabilitiesFor, type FileEntry, type Manifest } from '@tagsonic/sdk';

type Grants = Manifest & { permissions: { files: { access: 'write'; reason: string } } };
type Caps = CapabilitiesFor<Grants>;
type Mode = 'null' | 'null_music' | 'all';

/** core/files/icons.ts AUDIO_EXTENSIONS. */
const AUDIO = /\.(mp3|flac|m4a|m4b|mp4a|aac|alac|ogg|oga|opus|spx|wav|aif|aiff|aifc|ape|wv|wma|asf|mpc|tta|dsf|dff)$/i;
/**
 * What tidying and downloads leave behind: pictures, lyrics and text, playlists and cue sheets, checksums and rip
 * logs, the desktop's own files. `null_music` deletes these only; any other file (a music video, a booklet PDF, an
 * archive, a .strm) keeps its folder, so the mode never removes something a user may still want.
 */
const LEFTOVER = /(?:\.(?:jpe?g|png|webp|gif|bmp|lrc|txt|nfo|log|cue|m3u8?|pls|sfv|md5|ffp|accurip|url|ini|db)|^\.ds_store)$/i;

/** A folder whose subtree has more entries than this is not deleted by one item (something else is going on). */
const MAX_ENTRIES_PER_ITEM = 5000;

/** What a folder's subtree holds, bottom-up order of its folders and its files. */
interface Tree { folders: string[]; files: FileEntry[]; audio: number; entries: number; kept: string[] }

function modeOf(options: Record<string, unknown>): Mode {
  const mode = options.delete_mode ?? 'null';
  if (mode !== 'null' && mode !== 'null_music' && mode !== 'all') {
    throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', 'delete_mode must be null (empty folders), null_music (folders without music) or all');
  }
  return mode;
}

/** Whether a subtree without audio is removed in `mode`: `null` wants it empty, `null_music` wants files in it. */
const qualifies = (tree: Tree, mode: Mode): boolean =>
  tree.audio === 0 && tree.kept.length === 0 && (mode === 'all' || (mode === 'null' ? tree.files.length === 0 : tree.files.length > 0));

async function scan(caps: Caps, folder: string, onFolder?: (path: string, tree: Tree) => void): Promise<Tree> {
  const tree: Tree = { folders: [], files: [], audio: 0, entries: 0, kept: [] };
  const { entries } = await caps.files.list({ path: folder });
  for (const entry of entries) {
    // Hidden entries are never touched: the trash of deleted files (.tagsonic-trash), .git, a NAS's own folders.
    // A folder holding one is kept, like a folder holding any other file that is not a leftover.
    if (entry.name.startsWith('.') && entry.name.toLowerCase() !== '.ds_store') {
      tree.entries++;
      tree.kept.push(entry.name);
      continue;
    }
    tree.entries++;
    if (entry.type === 'file') {
      tree.files.push(entry);
      if (AUDIO.test(entry.name)) tree.audio++;
      else if (!LEFTOVER.test(entry.name)) tree.kept.push(entry.name);
      continue;
    }
    const child = await scan(caps, entry.path, onFolder);
    tree.folders.push(...child.folders);
    tree.files.push(...child.files);
    tree.audio += child.audio;
    tree.entries += child.entries;
    tree.kept.push(...child.kept);
  }
  tree.folders.push(folder);
  onFolder?.(folder, tree);
  return tree;
}

/**
 * A media folder itself (its parent is outside the roots): never an item, so its files are not deleted on the
 * way to a removal the host would refuse anyway.
 */
async function isMediaFolder(caps: Caps, folder: string): Promise<boolean> {
  const parent = folder.slice(0, folder.lastIndexOf('/')) || '/';
  return (await caps.files.stat({ path: parent }).catch(() => null)) === null;
}

export default defineBatchAction<Grants>({
  async plan({ paths, options }, caps) {
    const mode = modeOf(options);
    const items: BatchItem[] = [];
    const chosen: string[] = [];
    const inside = (path: string) => chosen.some((c) => path === c || path.startsWith(`${c}/`));
    for (const path of [...paths].sort()) {
      const entry = await caps.files.stat({ path });
      if (!entry || entry.type !== 'directory' || inside(entry.path)) continue;
      // Bottom-up: children are reported before their parent, so collect and keep only the top-most.
      const found: Array<{ path: string; tree: Tree }> = [];
      await scan(caps, entry.path, (folder, tree) => {
        if (qualifies(tree, mode)) found.push({ path: folder, tree });
      });
      for (const { path: folder } of found.sort((a, b) => a.path.length - b.path.length)) {
        if (inside(folder) || (await isMediaFolder(caps, folder))) continue;
        chosen.push(folder);
        items.push({ key: folder, paths: [folder] });
      }
    }
    items.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return { items };
  },

  async runItem({ item, options, dryRun }, caps): Promise<BatchItemResult> {
    const mode = modeOf(options);
    const folder = item.paths[0]!;
    const entry = await caps.files.stat({ path: folder });
    if (!entry) return { status: 'skip', reason: 'the folder is gone already' };
    if (entry.type !== 'directory') return { status: 'skip', reason: 'not a folder' };
    if (await isMediaFolder(caps, folder)) return { status: 'skip', reason: 'a media folder itself is never removed' };
    const tree = await scan(caps, folder);
    if (tree.audio > 0) return { status: 'skip', reason: `it holds ${tree.audio} audio file${tree.audio === 1 ? '' : 's'} now` };
    if (tree.kept.length > 0) return { status: 'skip', reason: `it holds ${tree.kept.slice(0, 3).join(', ')}${tree.kept.length > 3 ? ' …' : ''}, which is not a leftover` };
    if (!qualifies(tree, mode)) return { status: 'skip', reason: mode === 'null' ? 'not empty' : 'empty, and the mode removes folders with files only' };
    if (tree.entries > MAX_ENTRIES_PER_ITEM) return { status: 'fail', reason: `more than ${MAX_ENTRIES_PER_ITEM} entries: left alone, remove it by hand` };

    const changes: BatchChange[] = [];
    for (const file of tree.files) {
      // A file gone meanwhile (or carried along with its track by the host) is not an error: it is gone.
      if (!dryRun) await caps.files.delete({ path: file.path }).catch((error: { code?: string }) => {
        if (error.code !== 'TAGSONIC_ERR_PLUGIN_NOT_FOUND') throw error;
      });
      changes.push({ path: file.path, kind: 'delete', before: file.path, after: null });
    }
    // scan() lists each folder after its subfolders, so every folder is empty when its turn comes.
    for (const path of tree.folders) {
      if (!dryRun) await caps.files.removeDir({ path });
      changes.push({ path, kind: 'delete', before: path, after: null });
    }
    return { status: 'success', changes, report: { folder, files: tree.files.length, folders: tree.folders.length } };
  },
});
