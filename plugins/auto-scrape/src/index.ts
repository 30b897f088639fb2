/**
 * 自动刮削 (batchAutoUpdateId3): one track per item. The track's own title, artist, album and duration are searched
 * in the chosen sources in order (`caps.sources.search`); each source's candidates are ranked by the host's matcher
 * in the chosen mode (`caps.match.rank`: 宽松 simple takes a contained title, 标准 normal title, artist and album,
 * 严格 hard all three exact and never a candidate more than 3 s off), and the first source with an accepted
 * candidate wins. The chosen fields of that candidate are written (journaled under the task), its lyrics from its
 * own source (`caps.sources.lyrics`) and its cover downloaded by the host (`caps.sources.cover`).
 *
 * Report (the task report's sections): an exact match on title, artist and album is a plain success (完全匹配); any
 * other accepted match is a success with `mode_name` and `similar` (0–3; 模式匹配, to review: raw vs new values); a track
 * with no accepted candidate is a miss whose `miss` says what the file lacked (artist, album, both, or `tag` when it
 * had them), with the best candidates seen so the report can offer them.
 *
 * With is_folder_album, the tracks of one folder are one album: the folder's first match (kept in the plugin's kv
 * under the task) decides album, album artist, cover and year for all of them, and a later track prefers, among
 * its candidates, the one of that album with its track number and a duration within 3 s.
 */
import { defineBatchAction, PluginError, type BatchChange, type BatchItem, type CapabilitiesFor, type FileEntry, type JsonValue, type Manifest, type SearchResultSong, type TrackInfo, type TrackTags } from '@tagsonic/sdk';
import { parseOptions, type Field, type Mode } from './options.ts';
import { dirOf, folderKey, sameText, titleFromName } from './names.ts';

type Grants = Manifest & {
  permissions: { tags: { access: 'write'; reason: string }; files: { access: 'read'; reason: string }; sources: { ids: string[]; reason: string } };
};
type Caps = CapabilitiesFor<Grants>;
type Ranked = SearchResultSong & { title_score: number; artist_score: number; album_score: number; accepted: boolean };

/** core/files/icons.ts AUDIO_EXTENSIONS. */
const AUDIO = /\.(mp3|flac|m4a|m4b|mp4a|aac|alac|ogg|oga|opus|spx|wav|aif|aiff|aifc|ape|wv|wma|asf|mpc|tta|dsf|dff)$/i;
const MAX_FILES = 200_000;
/**
 * Each source is waited for this long, so two sources (5 + 5 s), the lyrics (the source's 8 s http limit) and the
 * cover (the host's 6 s) stay inside one invocation's 25 s; a third source is only asked when time is left.
 */
const SOURCE_TIMEOUT_MS = 5_000;
/** The invocation's wall-clock limit for a plugin granted `sources` (workers' AGGREGATOR_TIMEOUT_MS). */
const ITEM_LIMIT_MS = 25_000;
/** Kept for the lyrics and the cover once a candidate is chosen. */
const FETCH_RESERVE_MS = 14_000;
const PER_SOURCE = 10;
/** Candidates a missed track keeps for the report. */
const CANDIDATES_KEPT = 5;
/** Hard mode's duration guard (core/matching HARD_DURATION_TOLERANCE), also the folder album's track check. */
const DURATION_TOLERANCE_S = 3;
/** The report's title of a mode match (the matcher's names for the modes). */
export const MODE_NAMES: Record<Mode, string> = { simple: '宽松模式', normal: '标准模式', hard: '严格模式' };
/** Lyrics are shown in the report's changes cut to this many characters (the file gets them whole). */
const LYRICS_SHOWN = 120;

/** The album a folder's first match decided (is_folder_album). */
interface FolderAlbum {
  folder: string;
  source: string;
  album: string | null;
  albumartist: string | null;
  album_img: string | null;
  year: string | null;
}

export default defineBatchAction<Grants>({
  async plan({ paths, options }, caps) {
    parseOptions(options); // a bad mode or source refuses the task before anything is queued
    const files = new Set<string>();
    const walk = async (entry: FileEntry): Promise<void> => {
      if (files.size >= MAX_FILES) return;
      if (entry.type === 'file') return void (AUDIO.test(entry.name) ? files.add(entry.path) : undefined);
      const { entries } = await caps.files.list({ path: entry.path });
      // Hidden entries (the trash, .git …) are not library files, as in the tree and the scan.
      for (const child of entries) if (!child.name.startsWith('.')) await walk(child);
    };
    for (const path of paths) {
      const entry = await caps.files.stat({ path });
      if (entry) await walk(entry);
    }
    const items: BatchItem[] = [...files].sort().map((path) => ({ key: path, paths: [path] }));
    return { items };
  },

  async runItem({ item, options, dryRun, taskId }, caps) {
    const opts = parseOptions(options);
    const path = item.paths[0];
    if (!path) throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', 'the item names no file');
    const track = await caps.tags.read({ path, artwork: true });
    const current = currentValues(track);
    const wanted = opts.skipTagged ? opts.fields.filter((f) => current[f] === null) : opts.fields;
    const raw = { raw_title: track.title, raw_artist: track.artist, raw_album: track.album };
    if (!wanted.length) return { status: 'skip', reason: `${opts.fields.join(', ')} already set (skip tagged files)`, report: raw };

    const title = track.title?.trim() || titleFromName(track.path);
    const query = { title, artist: track.artist?.trim() || null, album: track.album?.trim() || null, duration: track.duration > 0 ? track.duration : null };
    const folder = opts.folderAlbum ? await readFolder(caps, taskId, dirOf(track.path)) : null;

    const seen: Ranked[] = [];
    const errors: string[] = [];
    let chosen: Ranked | null = null;
    const started = Date.now();
    for (const [i, id] of opts.sources.entries()) {
      if (i > 0 && Date.now() - started > ITEM_LIMIT_MS - FETCH_RESERVE_MS - SOURCE_TIMEOUT_MS) {
        errors.push(`not searched for lack of time: ${opts.sources.slice(i).join(', ')}`);
        break;
      }
      let songs: SearchResultSong[];
      try {
        songs = await caps.sources.search({ id, query: { title, artist: query.artist ?? '', album: query.album ?? '', limit: PER_SOURCE, ...(query.duration ? { duration: query.duration } : {}) }, timeoutMs: SOURCE_TIMEOUT_MS });
      } catch (error) {
        errors.push(`${id}: ${messageOf(error)}`);
        continue;
      }
      if (!songs.length) continue;
      const ranked = await caps.match.rank({ query, candidates: songs, mode: opts.mode, limit: PER_SOURCE });
      seen.push(...ranked);
      chosen = pick(ranked, folder, track, opts.mode);
      if (chosen) break;
    }

    if (!chosen) {
      if (!seen.length && errors.length && errors.every((e) => !e.startsWith('not searched')) && errors.length === opts.sources.length) {
        return { status: 'fail', reason: `every source failed: ${errors.join('; ')}`, report: raw };
      }
      const candidates = [...seen].sort((a, b) => sum(b) - sum(a)).slice(0, CANDIDATES_KEPT).map(candidateOf);
      const found = seen.length ? `${seen.length} candidates, none accepted in ${opts.mode} mode` : 'no candidates';
      return {
        status: 'miss',
        reason: `${found} (searched "${title}" in ${opts.sources.join(', ')})${errors.length ? `; ${errors.join('; ')}` : ''}`,
        report: { miss: missKind(track), candidate_list: candidates, title: track.title, artist: track.artist, album: track.album, ...raw },
      };
    }

    const album = opts.folderAlbum ? (folder ?? (await decideFolder(caps, taskId, dirOf(track.path), chosen))) : null;
    const next: Record<Field, string | number | null> = {
      title: chosen.name,
      artist: chosen.artist,
      album: album ? album.album : chosen.album,
      albumartist: album ? album.albumartist : chosen.artist,
      album_img: album ? album.album_img : chosen.album_img,
      year: album ? album.year : chosen.year,
      tracknumber: chosen.tracknumber,
      discnumber: chosen.discnumber,
      lyrics: null,
    };
    const notes: string[] = [...errors];
    if (wanted.includes('lyrics')) {
      try {
        next.lyrics = await caps.sources.lyrics({ id: chosen.resource, songId: chosen.id });
      } catch (error) {
        notes.push(`lyrics from ${chosen.resource}: ${messageOf(error)}`);
      }
    }

    const tags: Partial<TrackTags> = {};
    const changes: BatchChange[] = [];
    for (const field of wanted) {
      const after = next[field];
      // A source that does not know a field never clears it.
      if (after === null || after === '' || same(field, after, current[field])) continue;
      if (field === 'album_img') {
        changes.push({ path: track.path, kind: 'tags', field, before: shown(field, current.album_img), after: String(after) });
        continue;
      }
      (tags as Record<string, unknown>)[field] = after;
      changes.push({ path: track.path, kind: 'tags', field, before: shown(field, current[field]), after: shown(field, after) });
    }

    // The cover is downloaded to be written, and also in a dry run when the file has one: the same picture again
    // is no change (a second scrape of a scraped folder previews nothing for it).
    if (changes.some((c) => c.field === 'album_img') && (!dryRun || track.artwork)) {
      try {
        const artwork = await caps.sources.cover({ id: chosen.resource, url: String(next.album_img) });
        if (track.artwork && sameBytes(track.artwork.data, artwork.data)) changes.splice(changes.findIndex((c) => c.field === 'album_img'), 1);
        else tags.artwork = artwork;
      } catch (error) {
        changes.splice(changes.findIndex((c) => c.field === 'album_img'), 1);
        notes.push(`cover: ${messageOf(error)}`);
      }
    }

    const exact = chosen.title_score === 2 && chosen.artist_score === 2 && chosen.album_score === 2;
    const report: Record<string, JsonValue> = {
      source: chosen.resource,
      song_id: chosen.id,
      title: (next.title as string | null) ?? track.title,
      artist: (next.artist as string | null) ?? track.artist,
      album: (next.album as string | null) ?? track.album,
      ...raw,
      similar: similarity(chosen),
      ...(exact ? {} : { mode_name: MODE_NAMES[opts.mode] }),
      ...(notes.length ? { notes } : {}),
      ...(opts.ignored.length ? { ignored: opts.ignored } : {}),
    };
    if (!changes.length) {
      return { status: 'skip', reason: `already as ${chosen.resource} has it ("${chosen.name}"${chosen.artist ? ` by ${chosen.artist}` : ''})`, report };
    }
    if (!dryRun && Object.keys(tags).length) await caps.tags.write({ path: track.path, tags });
    return { status: 'success', changes, report };
  },
});

/** The file's value of each field, as text (numbers as numbers, the cover as what is embedded), null when unset. */
function currentValues(track: TrackInfo): Record<Field, string | number | null> {
  const text = (v: string | null) => (v && v.trim() ? v : null);
  return {
    title: text(track.title),
    artist: text(track.artist),
    album: text(track.album),
    albumartist: text(track.albumartist),
    year: text(track.year),
    lyrics: text(track.lyrics),
    tracknumber: track.tracknumber,
    discnumber: track.discnumber,
    album_img: track.artwork ? `embedded ${track.artwork.mime} (${track.artwork.data.length} bytes)` : null,
  };
}

/**
 * The candidate to copy from one source's ranked list: the matcher's first accepted one — or, when the folder's
 * album is decided, that album's candidate for this track (same track number, duration within 3 s), if the mode
 * accepts it or (simple and normal) it is that album's track by number and duration.
 */
function pick(ranked: Ranked[], folder: FolderAlbum | null, track: TrackInfo, mode: Mode): Ranked | null {
  const accepted = ranked.filter((c) => c.accepted);
  if (folder) {
    const durationOk = (c: Ranked) => !c.duration || !track.duration || Math.abs(c.duration - track.duration) <= DURATION_TOLERANCE_S;
    const numberOk = (c: Ranked) => track.tracknumber === null || c.tracknumber === null || c.tracknumber === track.tracknumber;
    const ofAlbum = ranked.filter((c) => c.resource === folder.source && sameText(c.album, folder.album) && durationOk(c) && numberOk(c));
    const inAlbum = ofAlbum.find((c) => c.accepted) ?? (mode === 'hard' ? undefined : ofAlbum.find((c) => c.tracknumber !== null && c.tracknumber === track.tracknumber && c.title_score > 0));
    if (inAlbum) return inAlbum;
  }
  return accepted[0] ?? null;
}

/** Equal for the file: lyrics whatever their line endings and surrounding blank lines. */
function same(field: Field, a: string | number | null, b: string | number | null): boolean {
  if (field === 'lyrics' && typeof a === 'string' && typeof b === 'string') return a.replace(/\r\n?/g, '\n').trim() === b.replace(/\r\n?/g, '\n').trim();
  return a === b;
}

const sum = (c: Ranked) => c.title_score + c.artist_score + c.album_score;

/**
 * The report's `similar`: title, artist and album agreement each in [0, 1] (the matcher's 2 exact, 1 contained,
 * 0 none; another artist counts 0), summed to 0–3 as the report divides it by 3.
 */
const similarity = (c: Ranked) => (Math.max(0, c.title_score) + Math.max(0, c.artist_score) + Math.max(0, c.album_score)) / 2;

/** Which missed list a track goes to: what the file lacked to search with. */
function missKind(track: TrackInfo): 'artist_album' | 'artist' | 'album' | 'tag' {
  const artist = Boolean(track.artist?.trim());
  const album = Boolean(track.album?.trim());
  if (!artist && !album) return 'artist_album';
  if (!artist) return 'artist';
  if (!album) return 'album';
  return 'tag';
}

/** The spec's candidate song (doc 2 "Candidate song") with the matcher's scores. */
const candidateOf = (c: Ranked): JsonValue => ({
  id: c.id, name: c.name, year: c.year, album: c.album, artist: c.artist, album_img: c.album_img, tracknumber: c.tracknumber, discnumber: c.discnumber,
  totaltracks: c.totaltracks, totaldiscs: c.totaldiscs, resource: c.resource, duration: c.duration ?? null,
  title_score: c.title_score, artist_score: c.artist_score, album_score: c.album_score,
});

function shown(field: Field, value: string | number | null): string | null {
  if (value === null) return null;
  const text = String(value);
  return field === 'lyrics' && text.length > LYRICS_SHOWN ? `${text.slice(0, LYRICS_SHOWN)}…` : text;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 300);

/** Keys kept at most, all tasks together (the host allows 1000 per plugin). */
const KV_KEYS_KEPT = 800;

async function readFolder(caps: Caps, taskId: string, folder: string): Promise<FolderAlbum | null> {
  const value = (await caps.kv.get({ key: folderKey(taskId, folder) })) as FolderAlbum | null;
  return value && value.folder === folder ? value : null;
}

/**
 * The folder's album from its first match. Two tracks of the folder running at once may both decide: the one
 * stored first wins, and the other takes it (read back after writing its own only when none was there).
 */
async function decideFolder(caps: Caps, taskId: string, folder: string, chosen: Ranked): Promise<FolderAlbum> {
  const existing = await readFolder(caps, taskId, folder);
  if (existing) return existing;
  const album: FolderAlbum = { folder, source: chosen.resource, album: chosen.album, albumartist: chosen.artist, album_img: chosen.album_img, year: chosen.year };
  const keys = await caps.kv.list({ prefix: 'folder:' });
  if (keys.length >= KV_KEYS_KEPT) {
    // Decisions of earlier tasks are of no use any more.
    for (const key of keys) if (!key.startsWith(`folder:${taskId}:`)) await caps.kv.delete({ key });
  }
  await caps.kv.set({ key: folderKey(taskId, folder), value: album as unknown as JsonValue });
  return album;
}
