/**
 * 重复检查 (checkDuplicate): duplicate tracks in the selection, in the report's three sections (doc 2
 * "duplicate-check detail": file-hash, file-name and voiceprint duplicates, rows of name, file 1, file 2).
 * Nothing is deleted here: deleting by rule or one by one is the report's own action.
 *
 * `plan` only lists (cheap, whatever the library's size) and makes the items:
 * - `hash:<size>` — files of one size, the only ones that can be byte-identical (as jdupes does), several sizes
 *   packed in one item up to ITEM_FILES files (`chunked`); `runItem`
 *   hashes their edges, then fully only the files whose edges collide, with the host's streamed SHA-256
 *   (`files.hashMany`: the whole item's files in one call), and reports the sets with one digest;
 * - `name:<song>` — files whose names stand for one song (`songKey`: copy markers, track numbers and an
 *   "Artist - " prefix set aside);
 * - `acoustid` (with `is_acoustid`) — every file: fingerprinted with fpcalc and compared pairwise (files within
 *   3 s of length, ≥ 85 % equal bits at the best alignment), so another format or bitrate of one recording is found.
 * A dry run is the same check (it changes nothing either way).
 */
import { defineBatchAction, PluginError, type BatchItem, type BatchItemResult, type CapabilitiesFor, type FileEntry, type JsonValue, type Manifest } from '@tagsonic/sdk';
import { decodeFingerprint, SAME_RECORDING, similarity } from './fingerprint.ts';
import { groupBy, linkedGroups, rowsOf, songKey, stemOf, type Row, type Section } from './groups.ts';

type Grants = Manifest & { permissions: { files: { access: 'read'; reason: string }; fingerprint: { reason: string } } };
type Caps = CapabilitiesFor<Grants>;

/** core/files/icons.ts AUDIO_EXTENSIONS. */
const AUDIO = /\.(mp3|flac|m4a|m4b|mp4a|aac|alac|ogg|oga|opus|spx|wav|aif|aiff|aifc|ape|wv|wma|asf|mpc|tta|dsf|dff)$/i;
const MAX_FILES = 200_000;
/** Files per hash or name item (a bigger group is one item): see `chunked`. */
const ITEM_FILES = 64;
/** Two files whose lengths differ by more than this are not one recording (fpcalc's durations, seconds). */
const MAX_DURATION_GAP = 3;
/** files.list calls in flight while planning. */
const LIST_CONCURRENCY = 8;
/** Paths per files.hashMany / files.statMany call (the host's limit). */
const MANY_PATHS = 1000;
/** fpcalc runs in flight: the host runs two tool processes per worker anyway. */
const FINGERPRINT_CONCURRENCY = 2;

export default defineBatchAction<Grants>({
  async plan({ paths, options }, caps) {
    const files: FileEntry[] = [];
    const seen = new Set<string>();
    const folders: FileEntry[] = [];
    const add = (entry: FileEntry) => {
      if (files.length >= MAX_FILES) return;
      if (entry.type !== 'file') folders.push(entry);
      else if (AUDIO.test(entry.name) && !seen.has(entry.path)) {
        seen.add(entry.path);
        files.push(entry);
      }
    };
    for (const path of paths) {
      const entry = await caps.files.stat({ path });
      if (entry) add(entry);
    }
    // Folders are listed LIST_CONCURRENCY at a time: each listing waits on the host's disk calls, so one after
    // the other a 10k library's thousand folders left the worker idle most of the plan. The order found does not
    // matter: the files are sorted below.
    await drain(folders, LIST_CONCURRENCY, async (folder) => {
      const { entries } = await caps.files.list({ path: folder.path });
      // Hidden entries (the trash of deleted files, .git …) are not library files, as in the tree and the scan.
      for (const child of entries) if (!child.name.startsWith('.')) add(child);
    });
    files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

    const items: BatchItem[] = [
      ...chunked('hash', groupBy(files, (f) => (f.size > 0 ? String(f.size) : null))),
      ...chunked('name', groupBy(files, (f) => songKey(f.path))),
    ];
    if (options.is_acoustid === true && files.length > 1) {
      items.push({ key: 'acoustid', paths: files.map((f) => f.path), data: { section: 'acoustid' } });
    }
    return { items };
  },

  async runItem({ item }, caps): Promise<BatchItemResult> {
    const data = item.data;
    const section = (data && typeof data === 'object' && !Array.isArray(data) ? data.section : null) as Section | null;
    if (section === 'hash') return byHash(caps, item.paths);
    if (section === 'name') return byName(caps, item.paths);
    if (section === 'acoustid') return byFingerprint(caps, item.paths);
    throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', `item ${item.key} has no duplicate-check section`);
  },
});

/**
 * Groups (in key order) packed into items of up to ITEM_FILES files, a bigger group alone: each item costs a bus
 * command, a sandbox invocation and a store write, which on a 10k library's 2 500 small groups cost far more than
 * the hashing. runItem regroups an item's files itself (by digest, by song name), so a group is never split and
 * the report is the same. An item of one group keeps its plain key (`hash:<size>`, `name:<song>`); a pack is keyed
 * by its first and last group and their count.
 */
function chunked(section: 'hash' | 'name', groups: Array<{ key: string; members: FileEntry[] }>): BatchItem[] {
  const items: BatchItem[] = [];
  let pack: typeof groups = [];
  const flush = () => {
    if (pack.length === 0) return;
    const key = pack.length === 1 ? pack[0]!.key : `${pack[0]!.key}…${pack[pack.length - 1]!.key} (${pack.length})`;
    items.push({ key: `${section}:${key}`, paths: pack.flatMap((g) => g.members.map((f) => f.path)), data: { section } });
    pack = [];
  };
  let size = 0;
  for (const group of groups) {
    if (size + group.members.length > ITEM_FILES) {
      flush();
      size = 0;
    }
    pack.push(group);
    size += group.members.length;
  }
  flush();
  return items;
}

function found(section: Section, groups: Array<{ key: string; files: string[]; rows: Row[] }>, extra: Record<string, JsonValue> = {}): BatchItemResult {
  const report: JsonValue = {
    section,
    rows: groups.flatMap((g) => g.rows) as unknown as JsonValue,
    groups: groups.map((g) => ({ key: g.key, files: g.files })),
    ...extra,
  };
  return { status: 'success', report };
}

/**
 * Two passes, as jdupes: the edge digests (size, first and last 64 KiB) of every file first — files of one size
 * with other edges cannot be equal, and most same-size audio files differ in their tag header — then the full
 * SHA-256 of only the files whose edge digests collide. A small file's edge digest is already its full one. Each
 * pass is one `files.hashMany` call per MANY_PATHS files: one crossing into the host per item, not one per file.
 */
async function byHash(caps: Caps, paths: string[]): Promise<BatchItemResult> {
  const edges = await hashAll(caps, paths, 'edges');
  const candidates = groupBy(paths.map((path, i) => ({ path, edge: edges[i] })), (f) => f.edge?.sha256 ?? null)
    .flatMap(({ members }) => members);
  const partial = candidates.filter(({ edge }) => !edge!.complete);
  const full = await hashAll(caps, partial.map(({ path }) => path), 'full');
  const fullOf = new Map(partial.map(({ path }, i) => [path, full[i]?.sha256 ?? null]));
  const digests = candidates.map(({ path, edge }) => (edge!.complete ? edge!.sha256 : fullOf.get(path) ?? null));
  const groups = groupBy(candidates.map(({ path }, i) => ({ path, sha: digests[i]! })), (f) => f.sha)
    .map(({ key, members }) => {
      const files = members.map((m) => m.path).sort();
      return { key, files, rows: rowsOf(files, stemOf(files[0]!)) };
    });
  if (groups.length === 0) return { status: 'skip', reason: 'same size, different contents' };
  return found('hash', groups);
}

/** `files.hashMany` over any number of paths, MANY_PATHS a call; a file gone since planning is null (left out). */
async function hashAll(caps: Caps, paths: string[], range: 'full' | 'edges') {
  const out: Array<{ sha256: string; complete: boolean } | null> = [];
  for (let i = 0; i < paths.length; i += MANY_PATHS) out.push(...(await caps.files.hashMany({ paths: paths.slice(i, i + MANY_PATHS), range })).results);
  return out;
}

async function byName(caps: Caps, paths: string[]): Promise<BatchItemResult> {
  const present: string[] = [];
  for (let i = 0; i < paths.length; i += MANY_PATHS) {
    const chunk = paths.slice(i, i + MANY_PATHS);
    const { entries } = await caps.files.statMany({ paths: chunk });
    chunk.forEach((path, j) => entries[j] && present.push(path));
  }
  const groups = groupBy(present, songKey).map(({ key, members }) => {
    const files = members.sort();
    return { key, files, rows: rowsOf(files, stemOf(files[0]!)) };
  });
  if (groups.length === 0) return { status: 'skip', reason: 'the files of this name are no longer there' };
  return found('name', groups);
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

/** Runs `fn` on every value of `queue`, `concurrency` at a time, including values `fn` adds to it meanwhile. */
async function drain<T>(queue: T[], concurrency: number, fn: (value: T) => Promise<void>): Promise<void> {
  let active = 0;
  let failed = false;
  await new Promise<void>((resolve, reject) => {
    const pump = () => {
      if (failed) return;
      if (queue.length === 0 && active === 0) return resolve();
      while (active < concurrency && queue.length > 0) {
        active++;
        fn(queue.shift()!).then(() => {
          active--;
          pump();
        }, (error: unknown) => {
          failed = true;
          reject(error);
        });
      }
    };
    pump();
  });
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
