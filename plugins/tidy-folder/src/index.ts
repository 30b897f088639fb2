/**
 * 整理文件夹 (tidyFolder): moves tracks into `root_path/<level 1>/<level 2>/…/<name>`, the levels taken from the tags
 * (dir_list over the spec's dimensions, a custom level from a `${var}` template), each a sanitised name, so no
 * tag value can leave the root or name a reserved file. An existing file is never overwritten: the track takes
 * the first free `name (n).ext`. Its same-name `.lrc` goes with it, and the folder's cover picture is copied to
 * each folder its tracks went to — moved to the last one when no audio is left behind it.
 *
 * One item per source folder (not per file; a folder of more than 400 tracks is split), so the cover's
 * copy-or-move is decided by the item that moves the folder's tracks: copied to where they went, moved by the
 * item that leaves no audio behind. The moves go through `caps.files.move`, which the host binds to the task. A dry run
 * lists every move it would make, with the names collisions would give.
 */
import { defineBatchAction, PluginError, type BatchChange, type CapabilitiesFor, type BatchItem, type FileEntry, type JsonValue, type Manifest } from '@tagsonic/sdk';
import { baseOf, dirOf, extOf, joinPath, numbered, sanitizeName, stemOf } from './names.ts';
import { loserOf, songIdentity, type Facts } from './clean.ts';
import { parseOptions, type TidyOptions } from './options.ts';
import { levelValue, renderTemplate, variablesOf } from './template.ts';

type Grants = Manifest & { permissions: { tags: { access: 'read'; reason: string }; files: { access: 'write'; reason: string }; ffmpeg: { reason: string } } };

/** core/files/icons.ts AUDIO_EXTENSIONS. */
const AUDIO = /\.(mp3|flac|m4a|m4b|mp4a|aac|alac|ogg|oga|opus|spx|wav|aif|aiff|aifc|ape|wv|wma|asf|mpc|tta|dsf|dff)$/i;
/** core/files/side-files.ts FOLDER_COVER_NAMES. */
const COVER_NAMES = ['cover.jpg', 'cover.jpeg', 'cover.png', 'cover.webp', 'folder.jpg', 'folder.jpeg', 'folder.png', 'front.jpg', 'front.png'];
const MAX_FILES = 200_000;
/**
 * A folder with more tracks is split into items of this many (`<folder>#2` …): one invocation has a wall-clock
 * limit (10 s by default) and a track costs ~4 ms (read, stats, move), so 400 leave a wide margin.
 */
const MAX_TRACKS_PER_ITEM = 400;
/** `name (2)` … `name (999)`: beyond that something is wrong with the library, and the track is left alone. */
const MAX_SUFFIX = 999;
/** Where rule_form's `move` puts the copies it does not keep, under the tidy root, unless clean_target_dir says. */
const DUPLICATES_FOLDER = '重复音乐';

type Caps = CapabilitiesFor<Grants>;

export default defineBatchAction<Grants>({
  async plan({ paths, options }, caps) {
    const tidy = parseOptions(options);
    // A root outside the media folders would fail every item alike: refuse the task instead, saying why.
    const root = await caps.files.stat({ path: tidy.root }).catch((error: { code?: string; message?: string }) => {
      if (error.code === 'TAGSONIC_ERR_PLUGIN_DENIED') throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', `root_path ${tidy.root} is not inside the media folders`);
      throw error;
    });
    if (root && root.type !== 'directory') throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', `root_path ${tidy.root} is a file, not a folder`);
    const byFolder = new Map<string, string[]>();
    let count = 0;
    const add = (file: string) => {
      if (++count > MAX_FILES) return;
      const folder = dirOf(file);
      const list = byFolder.get(folder) ?? [];
      if (!list.includes(file)) list.push(file);
      byFolder.set(folder, list);
    };
    const walk = async (entry: FileEntry): Promise<void> => {
      if (entry.type === 'file') return void (AUDIO.test(entry.name) ? add(entry.path) : undefined);
      const { entries } = await caps.files.list({ path: entry.path });
      // Hidden entries (the trash of deleted files, .git …) are not library files, as in the tree and the scan.
      for (const child of entries) if (!child.name.startsWith('.')) await walk(child);
    };
    for (const path of paths) {
      const entry = await caps.files.stat({ path });
      if (entry) await walk(entry);
    }
    const items: BatchItem[] = [];
    for (const [folder, files] of [...byFolder.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      files.sort();
      for (let i = 0; i < files.length; i += MAX_TRACKS_PER_ITEM) {
        items.push({ key: i === 0 ? folder : `${folder}#${i / MAX_TRACKS_PER_ITEM + 1}`, paths: files.slice(i, i + MAX_TRACKS_PER_ITEM) });
      }
    }
    return { items };
  },

  async runItem({ item, options, dryRun }, caps) {
    const tidy = parseOptions(options);
    // The host's own spelling of the root (symlinks resolved), so a track already in place compares equal.
    const rootEntry = await caps.files.stat({ path: tidy.root }).catch(() => null);
    if (rootEntry) tidy.root = rootEntry.path;
    const changes: BatchChange[] = [];
    const failures: string[] = [];
    /** Targets chosen by this item, so a dry run numbers two tracks bound for one name as the real run would. */
    const taken = new Set<string>();
    const targetFolders: string[] = [];
    let moved = 0;
    let inPlace = 0;

    let gone = 0;
    let cleaned = 0;
    /** Paths this item deleted or moved away: free for the names chosen after them, in a dry run too. */
    const removed = new Set<string>();
    /** Clean-music: per target folder, its audio files by song, as this item has changed them (dry run too). */
    const views = new Map<string, Map<string, Facts[]>>();
    const viewOf = async (folder: string): Promise<Map<string, Facts[]>> => {
      let view = views.get(folder);
      if (view) return view;
      view = new Map();
      const entry = await caps.files.stat({ path: folder });
      if (entry?.type === 'directory') {
        for (const e of (await caps.files.list({ path: folder })).entries) {
          if (e.type !== 'file' || !AUDIO.test(e.name)) continue;
          const key = songIdentity(e.name);
          view.set(key, [...(view.get(key) ?? []), { path: e.path, name: e.name, size: e.size }]);
        }
      }
      views.set(folder, view);
      return view;
    };
    for (const path of item.paths) {
      try {
        const tags = await caps.tags.read({ path }).catch((error: { code?: string }) => {
          if (error.code === 'TAGSONIC_ERR_PLUGIN_NOT_FOUND') return null;
          throw error;
        });
        // Gone since planning (moved by hand, or by this item before a worker crashed and the item ran again).
        if (!tags) {
          gone++;
          continue;
        }
        const wanted = targetOf(path, tags, tidy);
        if (wanted === path) {
          inPlace++;
          continue;
        }
        if (tidy.clean) {
          // The arriving track against each copy of its song already there: it stays only if it beats them all.
          const view = await viewOf(dirOf(wanted));
          const key = songIdentity(baseOf(wanted));
          const arriving: Facts = { path, name: baseOf(path), size: (await caps.files.stat({ path }))?.size ?? 0 };
          let lost = false;
          for (const present of [...(view.get(key) ?? [])]) {
            if (present.path === path || removed.has(present.path)) continue;
            if (tidy.clean.bitrate !== 'none' || tidy.clean.sample !== 'none') await probe(caps, [arriving, present]);
            const loser = loserOf(arriving, present, tidy.clean) === 'arriving' ? arriving : present;
            changes.push(...(await discard(caps, loser, tidy, { taken, removed, dryRun })));
            cleaned++;
            if (loser === arriving) {
              lost = true;
              break;
            }
            view.set(key, (view.get(key) ?? []).filter((f) => f !== present));
          }
          if (lost) continue;
        }
        const lrc = await caps.files.stat({ path: joinPath(dirOf(path), `${stemOf(path)}.lrc`) });
        const target = await freeTarget(caps, wanted, taken, lrc !== null, removed);
        if (!target) {
          failures.push(`${baseOf(path)}: ${baseOf(wanted)} and its numbered names up to (${MAX_SUFFIX}) are taken`);
          continue;
        }
        if (!dryRun) await caps.files.move({ from: path, to: target });
        changes.push({ path, kind: 'move', before: path, after: target });
        if (lrc) {
          const lrcTarget = joinPath(dirOf(target), `${stemOf(target)}.lrc`);
          // A host whose move carries the same-name .lrc along (core's journaled moveTrack does) has moved it already.
          if (!dryRun && (await caps.files.stat({ path: lrc.path }))) await caps.files.move({ from: lrc.path, to: lrcTarget });
          changes.push({ path: lrc.path, kind: 'move', before: lrc.path, after: lrcTarget });
        }
        if (!targetFolders.includes(dirOf(target))) targetFolders.push(dirOf(target));
        if (tidy.clean) {
          const real = dryRun ? path : target;
          const size = (await caps.files.stat({ path: real }))?.size ?? 0;
          const view = await viewOf(dirOf(target));
          const key = songIdentity(baseOf(target));
          view.set(key, [...(view.get(key) ?? []), { path: target, real, name: baseOf(target), size }]);
        }
        moved++;
      } catch (error) {
        failures.push(`${baseOf(path)}: ${(error as Error).message}`);
      }
    }

    if (targetFolders.length > 0) {
      try {
        changes.push(...(await carryCovers(caps, item, targetFolders, moved, dryRun)));
      } catch (error) {
        failures.push(`cover: ${(error as Error).message}`);
      }
    }

    const report: JsonValue = { folder: item.paths[0] ? dirOf(item.paths[0]) : item.key, moved, in_place: inPlace, gone, failed: failures.length, ...(tidy.clean ? { cleaned } : {}) };
    if (failures.length > 0) return { status: 'fail', reason: failures.join('; '), changes, report };
    if (moved === 0 && cleaned > 0) return { status: 'success', changes, report };
    if (moved === 0 && gone > 0) return { status: 'skip', reason: `${gone} track${gone === 1 ? ' is' : 's are'} no longer in the folder`, report };
    if (moved === 0) return { status: 'skip', reason: 'already tidy: every track is where the levels put it', report };
    return { status: 'success', changes, report };
  },
});

/** root/levels…/name for one track; each level and the name are one sanitised segment. */
function targetOf(path: string, tags: Parameters<typeof levelValue>[2], tidy: TidyOptions): string {
  const folders = tidy.levels.map((level) => sanitizeName(levelValue(level, path, tags)));
  const ext = extOf(path);
  let name = baseOf(path);
  if (tidy.fileName) {
    const rendered = renderTemplate(tidy.fileName, variablesOf(path, tags)).trim();
    if (rendered) name = sanitizeName(`${rendered}${ext}`);
  }
  return joinPath(tidy.root, ...folders, name);
}

/**
 * The first of `wanted`, `stem (2).ext`, … that is free on disk and not chosen by this item already — and, when
 * the track has lyrics, whose `.lrc` is free too, so the pair keeps one stem. The host's move refuses an
 * existing target anyway (never overwrites); this picks the name it will accept.
 */
async function freeTarget(caps: Caps, wanted: string, taken: Set<string>, withLyrics: boolean, removed: Set<string>): Promise<string | null> {
  const folder = dirOf(wanted);
  const occupied = async (path: string) => taken.has(path) || (!removed.has(path) && (await caps.files.stat({ path })) !== null);
  for (let n = 1; n <= MAX_SUFFIX; n++) {
    const candidate = n === 1 ? wanted : joinPath(folder, numbered(baseOf(wanted), n));
    if (await occupied(candidate)) continue;
    const lrc = joinPath(folder, `${stemOf(candidate)}.lrc`);
    if (withLyrics && (await occupied(lrc))) continue;
    taken.add(candidate);
    if (withLyrics) taken.add(lrc);
    return candidate;
  }
  return null;
}

/**
 * The copy of a song the clean-music rules do not keep, with its `.lrc`: deleted, or moved into the duplicates
 * folder (under a free name: never over a file).
 */
async function discard(caps: Caps, loser: Facts, tidy: TidyOptions, state: { taken: Set<string>; removed: Set<string>; dryRun: boolean }): Promise<BatchChange[]> {
  const rules = tidy.clean!;
  const path = loser.path;
  const lyricsOf = (p: string) => joinPath(dirOf(p), `${stemOf(p)}.lrc`);
  const lrc = await caps.files.stat({ path: lyricsOf(loser.real ?? path) });
  const files = lrc ? [path, lyricsOf(path)] : [path];
  const changes: BatchChange[] = [];
  // The host's delete or move of a track for a task carries its .lrc along: the .lrc is then gone already.
  const stillThere = async (file: string, i: number) => i === 0 || (await caps.files.stat({ path: file })) !== null;
  if (rules.action === 'delete') {
    for (const [i, file] of files.entries()) {
      if (!state.dryRun && (await stillThere(file, i))) await caps.files.delete({ path: file });
      changes.push({ path: file, kind: 'delete', before: file, after: null });
    }
  } else {
    const folder = rules.targetDir ?? joinPath(tidy.root, DUPLICATES_FOLDER);
    const to = await freeTarget(caps, joinPath(folder, baseOf(path)), state.taken, lrc !== null, state.removed);
    if (!to) throw new Error(`no free name for ${baseOf(path)} in ${folder}`);
    const targets = lrc ? [to, joinPath(dirOf(to), `${stemOf(to)}.lrc`)] : [to];
    for (const [i, file] of files.entries()) {
      if (!state.dryRun && (await stillThere(file, i))) await caps.files.move({ from: file, to: targets[i]! });
      changes.push({ path: file, kind: 'move', before: file, after: targets[i]! });
    }
  }
  for (const file of files) state.removed.add(file);
  return changes;
}

/** Bitrate and sample rate for the rules that compare them (ffprobe through the host's probe preset). */
async function probe(caps: Caps, files: Facts[]): Promise<void> {
  for (const f of files) {
    if (f.bitrate !== undefined) continue;
    const info = await caps.ffmpeg.run({ preset: 'probe', input: f.real ?? f.path });
    f.bitrate = info.bitrate;
    f.sampleRate = info.sampleRate;
  }
}

/**
 * The source folder's cover pictures follow its tracks: copied into each target folder that has none of that
 * name, and moved (not copied) into the last one when every audio file of the folder left with this item.
 */
async function carryCovers(caps: Caps, item: BatchItem, targets: string[], moved: number, dryRun: boolean): Promise<BatchChange[]> {
  const source = dirOf(item.paths[0]!);
  const { entries } = await caps.files.list({ path: source });
  const covers = entries.filter((e) => e.type === 'file' && COVER_NAMES.includes(e.name.toLowerCase()));
  if (covers.length === 0) return [];
  const audioLeft = entries.filter((e) => e.type === 'file' && AUDIO.test(e.name)).length - (dryRun ? moved : 0);
  const changes: BatchChange[] = [];
  for (const cover of covers) {
    const destinations = targets.filter((folder) => folder !== source);
    for (const [i, folder] of destinations.entries()) {
      const to = joinPath(folder, cover.name);
      if (await caps.files.stat({ path: to })) continue;
      const move = audioLeft <= 0 && i === destinations.length - 1;
      if (!dryRun) await (move ? caps.files.move({ from: cover.path, to }) : caps.files.copy({ from: cover.path, to }));
      changes.push({ path: cover.path, kind: move ? 'move' : 'copy', before: cover.path, after: to });
    }
  }
  return changes;
}
