/**
 * 切割音轨 (splitCueMusic): each selected CUE image cut into one file per track in target_format, sample-exact at
 * the sheet's INDEX 01 points (cue.ts: the same split points as shntool's shnsplit), tagged from the sheet, written
 * beside the image under a free name (`03 - 晴天.flac`, else `03 - 晴天 (2).flac`; never over a file).
 *
 * `plan` reads every selected sheet (a .cue, a folder's sheets, or an image's same-name sheet) in its encoding and
 * makes one item per track, so each invocation cuts one track and no long image nears the sandbox's time limit. A
 * sheet that cannot be read or whose image is missing is one failing item saying why. With is_delete_source the
 * image and its sheet go to the trash (journaled, restored by undoing the task) once every track of the sheet is
 * cut: each track records itself in the plugin's kv under the task, and the one that finds them all complete
 * trashes the sources — tracks run in parallel on several workers, so no single item knows it is the last.
 */
import { defineBatchAction, PluginError, type BatchChange, type BatchItem, type CapabilitiesFor, type FileEntry, type JsonValue, type Manifest } from '@tagsonic/sdk';
import { decodeCue, parseCue, safeName, samplesOf, type CueSheet } from './cue.ts';

type Grants = Manifest & { permissions: { files: { access: 'write'; reason: string }; ffmpeg: { reason: string } } };
type Caps = CapabilitiesFor<Grants>;
type Target = 'flac' | 'mp3' | 'wav' | 'ogg' | 'wma';

export const TARGETS: readonly Target[] = ['flac', 'mp3', 'wav', 'ogg', 'wma'];
const AUDIO = /\.(flac|wav|ape|wv|tta|m4a|mp3|ogg|opus|aiff?|wma|dsf|dff)$/i;
const MAX_SHEETS = 500;
const MAX_SUFFIX = 999;

interface TrackData {
  [key: string]: JsonValue;
  cue: string;
  sheet: number;
  total: number;
  number: number;
  start: number;
  end: number | null;
  tags: Record<string, string>;
  name: string;
  /** Every image the sheet cuts from, trashed with the sheet when is_delete_source. */
  images: string[];
  encoding: string;
  /** The sheet's last track: a dry run lists the sources' deletes on it, once. */
  last: boolean;
  /** The image's sample rate, probed once per image by `plan` (absent in items planned before it was). */
  rate: number | null;
}

const dirOf = (p: string) => p.slice(0, p.lastIndexOf('/'));
const baseOf = (p: string) => p.slice(p.lastIndexOf('/') + 1);
const stemOf = (name: string) => (name.lastIndexOf('.') > 0 ? name.slice(0, name.lastIndexOf('.')) : name);
const errorText = (error: unknown) => (error as { message?: string }).message ?? String(error);

function targetOf(options: Record<string, JsonValue>): Target {
  const target = options.target_format ?? 'flac';
  if (typeof target !== 'string' || !(TARGETS as readonly string[]).includes(target)) {
    throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', `target_format must be one of ${TARGETS.join(', ')}`);
  }
  return target as Target;
}

/** The image a FILE line names: that file, else the same name with another audio extension (a sheet written for the WAV of an image later compressed to FLAC). */
async function findImage(caps: Caps, dir: string, name: string, siblings: FileEntry[]): Promise<string | null> {
  const exact = await caps.files.stat({ path: `${dir}/${name.replace(/\\/g, '/')}` });
  if (exact?.type === 'file') return exact.path;
  const stem = stemOf(baseOf(name.replace(/\\/g, '/'))).toLowerCase();
  return siblings.find((e) => e.type === 'file' && AUDIO.test(e.name) && stemOf(e.name).toLowerCase() === stem)?.path ?? null;
}

function trackTags(sheet: CueSheet, index: number): Record<string, string> {
  const t = sheet.tracks[index]!;
  const tags: Record<string, string> = { track: String(t.number) };
  const put = (key: string, value: string | null) => {
    if (value) tags[key] = value;
  };
  put('title', t.title);
  put('artist', t.performer ?? sheet.performer);
  put('album', sheet.title);
  put('album_artist', sheet.performer);
  put('composer', t.songwriter ?? sheet.songwriter);
  put('date', sheet.date);
  put('genre', sheet.genre);
  put('disc', sheet.disc);
  return tags;
}

async function freeName(caps: Caps, dir: string, stem: string, ext: string, from = 1): Promise<{ path: string; n: number } | null> {
  for (let n = from; n <= MAX_SUFFIX; n++) {
    const candidate = `${dir}/${stem}${n === 1 ? '' : ` (${n})`}.${ext}`;
    if (!(await caps.files.stat({ path: candidate }))) return { path: candidate, n };
  }
  return null;
}

export default defineBatchAction<Grants>({
  async plan({ paths, options }, caps) {
    targetOf(options);
    const sheets = new Set<string>();
    const walk = async (entry: FileEntry): Promise<void> => {
      if (sheets.size >= MAX_SHEETS) return;
      if (entry.type === 'file') {
        if (/\.cue$/i.test(entry.name)) sheets.add(entry.path);
        else if (AUDIO.test(entry.name)) {
          const sheet = await caps.files.stat({ path: `${dirOf(entry.path)}/${stemOf(entry.name)}.cue` });
          if (sheet?.type === 'file') sheets.add(sheet.path);
        }
        return;
      }
      const { entries } = await caps.files.list({ path: entry.path });
      for (const child of entries) if (!child.name.startsWith('.')) await walk(child);
    };
    for (const path of paths) {
      const entry = await caps.files.stat({ path });
      if (entry) await walk(entry);
    }

    // Nothing to cut is the request's error, said at once, rather than a task of no items.
    if (sheets.size === 0) throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', 'no .cue sheet in the selection: tick the .cue files, their images or the folders holding them');
    const items: BatchItem[] = [];
    for (const [index, cue] of [...sheets].sort().entries()) {
      const failing = (reason: string) => items.push({ key: cue, paths: [cue], data: { error: reason } });
      try {
        const { bytes } = await caps.files.readBytes({ path: cue });
        const decoded = await decodeCue(bytes, (b, encoding, fatal) => caps.text.decode({ bytes: b, encoding, fatal }));
        if (!decoded) {
          failing('the sheet is in no encoding it could be read in (UTF-8, GBK, Big5, Shift-JIS)');
          continue;
        }
        const sheet = parseCue(decoded.text);
        const dir = dirOf(cue);
        const { entries } = await caps.files.list({ path: dir });
        const images = new Map<string, string>();
        for (const file of sheet.files) {
          const image = await findImage(caps, dir, file, entries);
          if (image) images.set(file, image);
        }
        const missing = sheet.files.filter((f) => !images.has(f));
        if (missing.length > 0) {
          failing(`the sheet's audio file ${missing.join(', ')} is not beside it`);
          continue;
        }
        // One probe per image here rather than one per track in runItem (a CD image is 10–20 tracks).
        const rates = new Map<string, number>();
        for (const image of new Set(images.values())) rates.set(image, (await caps.ffmpeg.run({ preset: 'probe', input: image })).sampleRate);
        const silent = [...rates].find(([, rate]) => !rate);
        if (silent) {
          failing(`${silent[0]} has no sample rate`);
          continue;
        }
        const digits = Math.max(2, String(sheet.tracks.length).length);
        for (const [i, track] of sheet.tracks.entries()) {
          const nn = String(track.number).padStart(digits, '0');
          const data: TrackData = {
            cue, sheet: index, total: sheet.tracks.length, number: track.number, start: track.start, end: track.end,
            tags: trackTags(sheet, i), name: safeName(`${nn} - ${track.title ?? `Track ${nn}`}`), images: [...images.values()], encoding: decoded.encoding, last: i === sheet.tracks.length - 1,
            rate: rates.get(images.get(track.file)!)!,
          };
          items.push({ key: `${cue}#${nn}`, paths: [images.get(track.file)!], data });
        }
      } catch (error) {
        failing(`the sheet cannot be read: ${errorText(error)}`);
      }
    }
    return { items };
  },

  async runItem({ item, options, dryRun, taskId }, caps) {
    const target = targetOf(options);
    const data = item.data as (TrackData & { error?: undefined }) | { error: string };
    if (!data || typeof data !== 'object' || typeof data.error === 'string') return { status: 'fail', reason: (data as { error?: string })?.error ?? 'not a planned track' };
    const track = data as TrackData;
    const image = item.paths[0]!;
    if (!(await caps.files.stat({ path: image }))) return { status: 'skip', reason: `${image} is gone` };

    const sampleRate = typeof track.rate === 'number' && track.rate > 0 ? track.rate : (await caps.ffmpeg.run({ preset: 'probe', input: image })).sampleRate;
    if (!sampleRate) return { status: 'fail', reason: `${image} has no sample rate` };
    const startSample = samplesOf(track.start, sampleRate);
    const endSample = track.end === null ? undefined : samplesOf(track.end, sampleRate);
    const dir = dirOf(track.cue);
    let name = await freeName(caps, dir, track.name, target);
    if (!name) return { status: 'fail', reason: `no free name for ${track.name}.${target}` };
    const report: Record<string, JsonValue> = { track: track.number, start_sample: startSample, end_sample: endSample ?? null, sample_rate: sampleRate, cue_encoding: track.encoding, tags: track.tags };
    const changes: BatchChange[] = [{ path: image, kind: 'convert', before: image, after: name.path }];
    const deleteSource = options.is_delete_source === true;
    const sources = [...track.images, track.cue];
    if (dryRun) {
      if (deleteSource && track.last) for (const p of sources) changes.push({ path: p, kind: 'delete', before: p, after: null });
      return { status: 'success', changes, report };
    }

    for (;;) {
      try {
        await caps.ffmpeg.run({ preset: 'extract', input: image, output: name.path, format: target, startSample, ...(endSample === undefined ? {} : { endSample }), tags: track.tags });
        break;
      } catch (error) {
        if ((error as { code?: string }).code !== 'TAGSONIC_ERR_PLUGIN_CONFLICT') return { status: 'fail', reason: `cutting track ${track.number} failed: ${errorText(error)}` };
        const next = await freeName(caps, dir, track.name, target, name.n + 1);
        if (!next) return { status: 'fail', reason: `no free name for ${track.name}.${target}` };
        name = next;
        changes[0]!.after = name.path;
      }
    }

    if (deleteSource) {
      // Record this track, then look: the track that sees every one recorded trashes the sources.
      const prefix = `${taskId}:${track.sheet}:`;
      let done: string[];
      try {
        await caps.kv.set({ key: `${prefix}${track.number}`, value: name.path });
        done = await caps.kv.list({ prefix });
      } catch (error) {
        // The track is cut; only the bookkeeping failed (the plugin's kv full): keep the sources and say so.
        return { status: 'success', reason: `the sources were kept: ${errorText(error)}`, changes, report };
      }
      if (done.length >= track.total) {
        for (const p of sources) {
          try {
            if (await caps.files.stat({ path: p })) {
              await caps.files.delete({ path: p });
              changes.push({ path: p, kind: 'delete', before: p, after: null });
            }
          } catch (error) {
            // Another track that finished at the same moment may have trashed it first: then it is gone, not failed.
            if (await caps.files.stat({ path: p }).catch(() => null)) {
              return { status: 'fail', reason: `track cut, but ${p} could not be moved to the trash: ${errorText(error)}`, changes, report };
            }
          }
        }
        for (const key of done) await caps.kv.delete({ key });
      }
    }
    return { status: 'success', changes, report };
  },
});

