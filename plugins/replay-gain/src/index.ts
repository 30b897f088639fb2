/**
 * 回放增益 (batchUpdateId3 with is_regainer): ReplayGain 2.0 tags from EBU R128 loudness. `plan` makes one item
 * per folder of the selection (its audio files): a folder is where an album lives, and an album's gain needs all
 * its tracks in one item. `runItem` groups the folder's tracks by their album tag (a folder of singles is not one
 * album; tracks without an album tag join the folder's album when it has one, else make a group of their own),
 * measures each group with the host's
 * `loudness-album` preset (every track decoded once; the album gated over all its tracks' blocks, as libebur128
 * does) and writes replaygain_track_gain/peak and replaygain_album_gain/peak through the journaled tag writer.
 *
 * A silent track has no loudness: it is left as it is and named in the item's reason. A dry run measures and
 * returns the changes without writing.
 */
import { defineBatchAction, PluginError, type BatchChange, type BatchItem, type FfmpegResult, type FileEntry, type Manifest, type TrackTags } from '@tagsonic/sdk';

type Grants = Manifest & {
  permissions: { tags: { access: 'write'; reason: string }; files: { access: 'read'; reason: string }; ffmpeg: { reason: string } };
};

const AUDIO = /\.(mp3|flac|m4a|m4b|aac|alac|ogg|oga|opus|spx|wav|aif|aiff|aifc|ape|wv|wma|asf|mpc|tta|dsf|dff)$/i;
/** The host's loudness-album limit; a bigger folder is split (each part its own album measurement). */
const MAX_TRACKS_PER_ITEM = 200;
const MAX_FILES = 100_000;
const FIELDS = ['replaygain_track_gain', 'replaygain_track_peak', 'replaygain_album_gain', 'replaygain_album_peak'] as const;
type Field = (typeof FIELDS)[number];

const dirOf = (p: string) => p.slice(0, Math.max(0, p.lastIndexOf('/')));
const nameOf = (p: string) => p.slice(p.lastIndexOf('/') + 1);
/** Album tags compared as a person would: case, width of spaces and surrounding blanks aside. */
const albumKey = (album: string | null) => (album ?? '').trim().replace(/\s+/g, ' ').toLowerCase();

type Measured = FfmpegResult<'loudness-album'>;

export default defineBatchAction<Grants>({
  async plan({ paths }, caps) {
    const byFolder = new Map<string, Set<string>>();
    let count = 0;
    const walk = async (entry: FileEntry): Promise<void> => {
      if (entry.type === 'file') {
        if (!AUDIO.test(entry.name)) return;
        if (++count > MAX_FILES) throw new PluginError('TAGSONIC_ERR_PLUGIN_LIMIT', `more than ${MAX_FILES} audio files are selected; select fewer folders`);
        const folder = dirOf(entry.path);
        byFolder.set(folder, (byFolder.get(folder) ?? new Set()).add(entry.path));
        return;
      }
      // Hidden entries (the trash, .git …) are not library files, as in the tree and the scan.
      for (const child of (await caps.files.list({ path: entry.path })).entries) if (!child.name.startsWith('.')) await walk(child);
    };
    for (const path of paths) {
      const entry = await caps.files.stat({ path });
      if (entry) await walk(entry);
    }
    const items: BatchItem[] = [];
    for (const folder of [...byFolder.keys()].sort()) {
      const files = [...byFolder.get(folder)!].sort();
      for (let i = 0; i < files.length; i += MAX_TRACKS_PER_ITEM) {
        items.push({ key: i === 0 ? folder : `${folder}#${i / MAX_TRACKS_PER_ITEM + 1}`, paths: files.slice(i, i + MAX_TRACKS_PER_ITEM) });
      }
    }
    return { items };
  },

  async runItem({ item, dryRun }, caps) {
    if (item.paths.length === 0) throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', 'the item names no file');
    const tracks = [];
    const unreadable: string[] = [];
    for (const path of item.paths) {
      try {
        tracks.push(await caps.tags.read({ path }));
      } catch (error) {
        unreadable.push(`${nameOf(path)}: ${(error as Error).message}`);
      }
    }
    const albums = new Map<string, typeof tracks>();
    for (const track of tracks) albums.set(albumKey(track.album), [...(albums.get(albumKey(track.album)) ?? []), track]);
    // A folder of one album with a track whose album tag is missing: the track is the album's (loudgain's folder rule).
    const untagged = albums.get('');
    if (untagged && albums.size === 2) {
      albums.delete('');
      const [only] = albums.values();
      only!.push(...untagged);
    }

    const changes: BatchChange[] = [];
    const problems = [...unreadable];
    let unchanged = 0;
    for (const group of albums.values()) {
      let measured: Measured;
      try {
        measured = await caps.ffmpeg.run({ preset: 'loudness-album', inputs: group.map((t) => t.path) });
      } catch (error) {
        problems.push(`${group.map((t) => nameOf(t.path)).join(', ')}: ${(error as Error).message}`);
        continue;
      }
      for (let i = 0; i < group.length; i++) {
        const track = group[i]!;
        const m = measured.tracks[i]!;
        if (m.trackGain === null || measured.albumGain === null) {
          problems.push(`${nameOf(track.path)}: silent, no loudness to measure`);
          continue;
        }
        const next: Record<Field, string> = {
          replaygain_track_gain: m.trackGain,
          replaygain_track_peak: m.trackPeak,
          replaygain_album_gain: measured.albumGain,
          replaygain_album_peak: measured.albumPeak,
        };
        const tags: Partial<TrackTags> = {};
        const own: BatchChange[] = [];
        for (const field of FIELDS) {
          if (track[field] === next[field]) continue;
          tags[field] = next[field];
          own.push({ path: track.path, kind: 'tags', field, before: track[field], after: next[field] });
        }
        if (own.length === 0) {
          unchanged++;
          continue;
        }
        try {
          if (!dryRun) await caps.tags.write({ path: track.path, tags });
          changes.push(...own);
        } catch (error) {
          problems.push(`${nameOf(track.path)}: ${(error as Error).message}`);
        }
      }
    }
    const report = { tracks: item.paths.length, albums: albums.size, unchanged };
    if (problems.length > 0) return { status: 'fail', reason: problems.join('; '), changes, report };
    if (changes.length === 0) return { status: 'skip', reason: `the replaygain fields of ${unchanged} track(s) are already up to date`, report };
    return { status: 'success', changes, report };
  },
});
