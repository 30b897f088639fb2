/**
 * 重复检查 (checkDuplicate): duplicate tracks in the selection, in the report's three sections (doc 2
 * "duplicate-check detail": file-hash, file-name and voiceprint duplicates, rows of name, file 1, file 2).
 * Nothing is deleted here: deleting by rule or one by one is the report's own action.
 *
 * `plan` only lists (cheap, whatever the library's size) and makes the items:
 * - `hash:<size>` — files of one size, the only ones that can be byte-identical (as jdupes does); `runItem`
 *   hashes them with the host's streamed SHA-256 (`files.hash`) and reports the sets with one digest;
 * - `name:<song>` — files whose names stand for one song (`songKey`: copy markers, track numbers and an
 *   "Artist - " prefix set aside);
 * - `acoustid` (with `is_acoustid`) — every file: fingerprinted with fpcalc and compared pairwise (files within
 *   3 s of length, ≥ 85 % equal bits at the best alignment), so another format or bitrate of one recording is found.
 * A dry run is the same check (it changes nothing either way).
 *
 * The report's deletes (deleteFiles: rule-delete per section, delete-all, one file) are tasks of this plugin too:
 * `delete_groups` (the groups of a section, as the report lists them) → one item per group whose keeper the
 * duplicate-delete rules choose (`rules`, see rules.ts), the others deleted or moved to `rules.targetDir`;
 * `delete_paths` → one item per file, deleted (or moved). With a dry run they list what would go.
 */
import { defineBatchAction, PluginError, type BatchItem, type BatchItemResult, type CapabilitiesFor, type FileEntry, type JsonValue, type Manifest, type TrackInfo } from '@tagsonic/sdk';
import { decodeFingerprint, SAME_RECORDING, similarity } from './fingerprint.ts';
import { baseOf, groupBy, linkedGroups, rowsOf, songKey, stemOf, type Row, type Section } from './groups.ts';
import { keeperOf, parseDeleteRules, type DeleteRules, type FileFacts } from './rules.ts';

type Grants = Manifest & {
  permissions: { files: { access: 'write'; reason: string }; tags: { access: 'read'; reason: string }; ffmpeg: { reason: string }; fingerprint: { reason: string } };
};
type Caps = CapabilitiesFor<Grants>;

/** core/files/icons.ts AUDIO_EXTENSIONS. */
const AUDIO = /\.(mp3|flac|m4a|m4b|mp4a|aac|alac|ogg|oga|opus|spx|wav|aif|aiff|aifc|ape|wv|wma|asf|mpc|tta|dsf|dff)$/i;
const MAX_FILES = 200_000;
/** Two files whose lengths differ by more than this are not one recording (fpcalc's durations, seconds). */
const MAX_DURATION_GAP = 3;
/** files.hash calls in flight: disk-bound, a few overlap the boundary crossings. */
const HASH_CONCURRENCY = 4;
/** fpcalc runs in flight: the host runs two tool processes per worker anyway. */
const FINGERPRINT_CONCURRENCY = 2;

export default defineBatchAction<Grants>({
  async plan({ paths, options }, caps) {
    const deleting = deletePlan(options);
    if (deleting) return deleting;
    const files: FileEntry[] = [];
    const seen = new Set<string>();
    const walk = async (entry: FileEntry): Promise<void> => {
      if (files.length >= MAX_FILES) return;
      if (entry.type === 'file') {
        if (AUDIO.test(entry.name) && !seen.has(entry.path)) {
          seen.add(entry.path);
          files.push(entry);
        }
        return;
      }
      const { entries } = await caps.files.list({ path: entry.path });
      for (const child of entries) await walk(child);
    };
    for (const path of paths) {
      const entry = await caps.files.stat({ path });
      if (entry) await walk(entry);
    }
    files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

    const items: BatchItem[] = [];
    for (const { key, members } of groupBy(files, (f) => (f.size > 0 ? String(f.size) : null))) {
      items.push({ key: `hash:${key}`, paths: members.map((f) => f.path), data: { section: 'hash' } });
    }
    for (const { key, members } of groupBy(files, (f) => songKey(f.path))) {
      items.push({ key: `name:${key}`, paths: members.map((f) => f.path), data: { section: 'name' } });
    }
    if (options.is_acoustid === true && files.length > 1) {
      items.push({ key: 'acoustid', paths: files.map((f) => f.path), data: { section: 'acoustid' } });
    }
    return { items };
  },

  async runItem({ item, options, dryRun }, caps): Promise<BatchItemResult> {
    const data = item.data;
    const section = (data && typeof data === 'object' && !Array.isArray(data) ? data.section : null) as Section | 'delete' | 'delete-single' | null;
    if (section === 'delete' || section === 'delete-single') return deleteItem(caps, item, parseDeleteRules(options.rules), section === 'delete', dryRun);
    if (section === 'hash') return byHash(caps, item.paths);
    if (section === 'name') return byName(caps, item.paths);
    if (section === 'acoustid') return byFingerprint(caps, item.paths);
    throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', `item ${item.key} has no duplicate-check section`);
  },
});

function found(section: Section, groups: Array<{ key: string; files: string[]; rows: Row[] }>, extra: Record<string, JsonValue> = {}): BatchItemResult {
  const report: JsonValue = {
    section,
    rows: groups.flatMap((g) => g.rows) as unknown as JsonValue,
    groups: groups.map((g) => ({ key: g.key, files: g.files })),
    ...extra,
  };
  return { status: 'success', report };
}

async function byHash(caps: Caps, paths: string[]): Promise<BatchItemResult> {
  const digests = await mapPool(paths, HASH_CONCURRENCY, async (path) => (await caps.files.hash({ path }).catch(missingIsNull))?.sha256 ?? null);
  const groups = groupBy(paths.map((path, i) => ({ path, sha: digests[i]! })), (f) => f.sha)
    .map(({ key, members }) => {
      const files = members.map((m) => m.path).sort();
      return { key, files, rows: rowsOf(files, stemOf(files[0]!)) };
    });
  if (groups.length === 0) return { status: 'skip', reason: 'same size, different contents' };
  return found('hash', groups);
}

async function byName(caps: Caps, paths: string[]): Promise<BatchItemResult> {
  const present: string[] = [];
  for (const path of paths) if (await caps.files.stat({ path })) present.push(path);
  if (present.length < 2) return { status: 'skip', reason: 'the files of this name are no longer there' };
  const files = present.sort();
  return found('name', [{ key: songKey(files[0]!), files, rows: rowsOf(files, stemOf(files[0]!)) }]);
}

async function byFingerprint(caps: Caps, paths: string[]): Promise<BatchItemResult> {
  const unreadable: string[] = [];
  const prints = await mapPool(paths, FINGERPRINT_CONCURRENCY, async (path) => {
    try {
      const { fingerprint, duration } = await caps.fingerprint.compute({ path });
      const items = decodeFingerprint(fingerprint);
      if (!items) throw new Error('not a Chromaprint fingerprint');
      return { path, items, duration };
    } catch {
      unreadable.push(path);
      return null;
    }
  });
  const ok = prints.filter((p): p is NonNullable<typeof p> => p !== null);
  const pairs: Array<[number, number]> = [];
  const scores = new Map<string, number>();
  for (let i = 0; i < ok.length; i++) {
    for (let j = i + 1; j < ok.length; j++) {
      if (Math.abs(ok[i]!.duration - ok[j]!.duration) > MAX_DURATION_GAP) continue;
      const score = similarity(ok[i]!.items, ok[j]!.items);
      if (score < SAME_RECORDING) continue;
      pairs.push([i, j]);
      scores.set(`${ok[i]!.path}\n${ok[j]!.path}`, score);
    }
  }
  const groups = linkedGroups(ok.length, pairs).map((members) => {
    const files = members.map((i) => ok[i]!.path).sort();
    const rows = rowsOf(files, stemOf(files[0]!)).map((row) => {
      const score = scores.get(`${row.file_1}\n${row.file_2}`) ?? scores.get(`${row.file_2}\n${row.file_1}`);
      return score === undefined ? row : { ...row, similarity: Math.round(score * 1000) / 1000 };
    });
    return { key: files[0]!, files, rows };
  });
  const extra: Record<string, JsonValue> = unreadable.length > 0 ? { unreadable: unreadable.sort() } : {};
  if (groups.length === 0) {
    return { status: 'skip', reason: `no two recordings alike among ${ok.length} files`, report: { section: 'acoustid', rows: [], groups: [], ...extra } };
  }
  return found('acoustid', groups, extra);
}

/** A file gone since planning is left out of its group, not an error. */
function missingIsNull(error: unknown): null {
  if ((error as { code?: string }).code === 'TAGSONIC_ERR_PLUGIN_NOT_FOUND') return null;
  throw error;
}

async function mapPool<T, R>(values: T[], concurrency: number, fn: (value: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(values.length);
  let next = 0;
  const worker = async () => {
    while (next < values.length) {
      const i = next++;
      out[i] = await fn(values[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, values.length) }, worker));
  return out;
}

const MAX_DELETE_ITEMS = 100_000;

/** The items of a delete task, or null for a duplicate check. Rules are checked here, once, before any item runs. */
function deletePlan(options: Record<string, JsonValue>): { items: BatchItem[] } | null {
  const groups = options.delete_groups;
  const single = options.delete_paths;
  if (groups === undefined && single === undefined) return null;
  parseDeleteRules(options.rules);
  const isPaths = (v: JsonValue): v is string[] => Array.isArray(v) && v.every((p) => typeof p === 'string' && p.length > 0);
  if (groups !== undefined) {
    if (!Array.isArray(groups) || !groups.every(isPaths) || groups.length > MAX_DELETE_ITEMS) throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', 'delete_groups must be a list of groups of file paths');
    return { items: (groups as string[][]).filter((g) => g.length > 1).map((g, i) => ({ key: `delete:${i + 1}:${[...g].sort()[0]}`, paths: [...new Set(g)], data: { section: 'delete' } })) };
  }
  if (!isPaths(single!) || single.length > MAX_DELETE_ITEMS) throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', 'delete_paths must be a list of file paths');
  return { items: [...new Set(single)].map((path) => ({ key: path, paths: [path], data: { section: 'delete-single' } })) };
}

/** A group: the keeper by the rules stays, the others go. One file (`delete-single`): it goes. */
async function deleteItem(caps: Caps, item: BatchItem, rules: DeleteRules, byRules: boolean, dryRun: boolean): Promise<BatchItemResult> {
  const present: FileFacts[] = [];
  for (const path of item.paths) {
    const entry = await caps.files.stat({ path });
    if (entry?.type === 'file') present.push({ path: entry.path, size: entry.size });
  }
  if (present.length === 0) return { status: 'skip', reason: 'the file is gone already' };
  if (byRules && present.length < 2) return { status: 'skip', reason: 'only one copy is left: it stays' };
  let keeper: FileFacts | null = null;
  if (byRules) {
    for (const f of present) {
      if (rules.bitrate !== 'none' || rules.sample !== 'none') {
        const info = await caps.ffmpeg.run({ preset: 'probe', input: f.path });
        f.bitrate = info.bitrate;
        f.sampleRate = info.sampleRate;
      }
      if (rules.metadata !== 'none') f.tagCount = tagCountOf(await caps.tags.read({ path: f.path }));
    }
    keeper = keeperOf(present, rules);
  }
  const changes = [];
  const taken = new Set<string>();
  for (const f of present) {
    if (f === keeper) continue;
    if (rules.mode === 'direct') {
      if (!dryRun) await caps.files.delete({ path: f.path });
      changes.push({ path: f.path, kind: 'delete' as const, before: f.path, after: null });
      continue;
    }
    const to = await freeName(caps, `${rules.targetDir}/${baseOf(f.path)}`, taken);
    if (!dryRun) await caps.files.move({ from: f.path, to });
    changes.push({ path: f.path, kind: 'move' as const, before: f.path, after: to });
  }
  return { status: 'success', changes, report: { section: 'deleted', kept: keeper?.path ?? null, deleted: changes.map((c) => c.path) } };
}

/** Filled tags (text and numbers; a cover counts as one) for the metadata rule. */
function tagCountOf(track: TrackInfo): number {
  const fields: Array<keyof TrackInfo> = ['title', 'artist', 'album', 'albumartist', 'genre', 'language', 'year', 'lyrics', 'comment', 'composer', 'lyricist', 'tracknumber', 'discnumber', 'artwork'];
  return fields.filter((k) => { const v = track[k]; return v !== null && v !== undefined && v !== ''; }).length;
}

/** `name.ext`, else `name (2).ext` …: the move of a duplicate never replaces a file. */
async function freeName(caps: Caps, wanted: string, taken: Set<string>): Promise<string> {
  const slash = wanted.lastIndexOf('/');
  const folder = wanted.slice(0, slash);
  const base = wanted.slice(slash + 1);
  const dot = base.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [base.slice(0, dot), base.slice(dot)] : [base, ''];
  for (let n = 1; n <= 999; n++) {
    const candidate = n === 1 ? wanted : `${folder}/${stem} (${n})${ext}`;
    if (taken.has(candidate) || (await caps.files.stat({ path: candidate }))) continue;
    taken.add(candidate);
    return candidate;
  }
  throw new PluginError('TAGSONIC_ERR_PLUGIN_CONFLICT', `no free name for ${base} in ${folder}`);
}
