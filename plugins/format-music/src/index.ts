/**
 * 格式转换 (formatMusic): each selected track converted to the chosen format, bitrate and sample rate by the host's
 * `transcode` preset, written beside the source under a free name (`a.mp3`, else `a (2).mp3` …; never over a
 * file), with every tag and the cover: ffmpeg embeds the cover in mp3 and flac, and `tags.write` puts it into the
 * formats whose muxer does not (ogg, opus); WAV and WMA get none (`report.cover` says so). With is_keep_source off the source goes to the trash through
 * `files.delete` (journaled: undoing the task brings it back).
 *
 * One file per item (the host's default expansion), so a 200-file conversion is 200 short invocations and no one
 * of them nears the sandbox's time limit. A dry run probes the source and lists the file it would write.
 */
import { defineBatchAction, type BatchChange, type CapabilitiesFor, type JsonValue, type Manifest } from '@tagsonic/sdk';
import { candidateName, ENCODABLE, extOf, LOSSLESS, parseOptions } from './options.ts';

type Grants = Manifest & { permissions: { tags: { access: 'write'; reason: string }; files: { access: 'write'; reason: string }; ffmpeg: { reason: string } } };
type Caps = CapabilitiesFor<Grants>;
type Target = 'mp3' | 'flac' | 'wav' | 'ogg' | 'wma' | 'm4a' | 'opus';

/** Targets whose container ffmpeg gives the source's picture stream to (the transcode preset maps it). */
const EMBEDS_PICTURE = new Set(['mp3', 'flac', 'm4a']);
/** Targets where the host's tag engine stores a cover picture (METADATA_BLOCK_PICTURE); WAV and WMA get none. */
const TAGGABLE_PICTURE = new Set(['ogg', 'opus']);
const MAX_SUFFIX = 999;

const errorCode = (error: unknown) => (error as { code?: string }).code;
const errorText = (error: unknown) => (error as { message?: string }).message ?? String(error);

async function freeName(caps: Caps, source: string, ext: string, from = 1): Promise<{ path: string; n: number } | null> {
  for (let n = from; n <= MAX_SUFFIX; n++) {
    const candidate = candidateName(source, ext, n);
    if (candidate !== source && !(await caps.files.stat({ path: candidate }))) return { path: candidate, n };
  }
  return null;
}

export default defineBatchAction<Grants>({
  async runItem({ item, options, dryRun }, caps) {
    const convert = parseOptions(options);
    const source = item.paths[0]!;
    const sourceExt = extOf(source);
    const target = (convert.musicType === 'keep' ? sourceExt : convert.musicType) as Target;
    if (!(ENCODABLE as readonly string[]).includes(target)) return { status: 'fail', reason: `${sourceExt || 'this'} files cannot be written; choose a target format` };

    let probe;
    try {
      probe = await caps.ffmpeg.run({ preset: 'probe', input: source });
    } catch (error) {
      return { status: 'fail', reason: `cannot read ${source}: ${errorText(error)}` };
    }
    const sourceKbps = Math.round(probe.bitrate / 1000);
    const lossy = !LOSSLESS.has(target);
    // Keep (-1) on a lossy target: the source's rate when it is lossy too, else the spec's highest preset (320).
    const kbps = lossy ? (convert.bitrateKbps ?? (LOSSLESS.has(sourceExt) || sourceKbps <= 0 ? 320 : Math.min(sourceKbps, 320))) : null;
    const sampleRate = convert.sampleRate ?? undefined;
    const sameRate = sampleRate === undefined || sampleRate === probe.sampleRate;
    if (target === sourceExt && sameRate && (!lossy || convert.bitrateKbps === null || convert.bitrateKbps === sourceKbps)) {
      return { status: 'skip', reason: `already ${target}${lossy ? ` at ${sourceKbps} kbps` : ''}${sampleRate ? ` and ${sampleRate} Hz` : ''}: nothing to convert` };
    }

    let name = await freeName(caps, source, target);
    if (!name) return { status: 'fail', reason: `no free name for the ${target} file beside ${source}` };
    // Re-encoding into the source's own format without keeping it: the new file takes the source's name once the
    // source is in the trash (written under a free name first, so the source is never overwritten).
    const inPlace = !convert.keepSource && candidateName(source, target, 1) === source;
    const report: Record<string, JsonValue> = { format: target, bitrate_kbps: kbps, sample_rate: sampleRate ?? probe.sampleRate, source_codec: probe.codec };
    const changes: BatchChange[] = [{ path: source, kind: 'convert', before: source, after: inPlace ? source : name.path }];
    if (!convert.keepSource) changes.push({ path: source, kind: 'delete', before: source, after: null });
    if (dryRun) return { status: 'success', changes, report };

    // A file taking the free name between the check and the write is never replaced: the next name is tried.
    for (;;) {
      try {
        // A lossy target is told the source's rate when it is kept, so the host fits the bitrate to it (MP3 at 22 kHz tops out at 160 kbps).
        const rate = sampleRate ?? (lossy && probe.sampleRate > 0 ? probe.sampleRate : undefined);
        await caps.ffmpeg.run({ preset: 'transcode', input: source, output: name.path, format: target, ...(kbps ? { bitrateKbps: kbps } : {}), ...(rate ? { sampleRate: rate } : {}) });
        break;
      } catch (error) {
        if (errorCode(error) !== 'TAGSONIC_ERR_PLUGIN_CONFLICT') return { status: 'fail', reason: `converting to ${target} failed: ${errorText(error)}` };
        const next = await freeName(caps, source, target, name.n + 1);
        if (!next) return { status: 'fail', reason: `no free name for the ${target} file beside ${source}` };
        name = next;
        if (!inPlace) changes[0]!.after = name.path;
      }
    }

    // What was written, as the encoder made it (a rate it does not take is fitted to the nearest one it does).
    const written = await caps.ffmpeg.run({ preset: 'probe', input: name.path }).catch(() => null);
    if (written) Object.assign(report, { sample_rate: written.sampleRate, bitrate_kbps: lossy ? Math.round(written.bitrate / 1000) : null });
    const { artwork } = await caps.tags.read({ path: source, artwork: true });
    if (!artwork) report.cover = 'none';
    else if (EMBEDS_PICTURE.has(target)) report.cover = 'embedded';
    else if (TAGGABLE_PICTURE.has(target)) {
      try {
        await caps.tags.write({ path: name.path, tags: { artwork } });
        report.cover = 'embedded';
      } catch (error) {
        report.cover = `not carried over: ${errorText(error)}`;
      }
    } else report.cover = `not carried over: ${target} files get no cover picture here`;

    if (!convert.keepSource) {
      try {
        await caps.files.delete({ path: source });
      } catch (error) {
        return { status: 'fail', reason: `converted to ${name.path}, but the source could not be moved to the trash: ${errorText(error)}`, changes: [{ ...changes[0]!, after: name.path }], report };
      }
      if (inPlace) {
        try {
          await caps.files.move({ from: name.path, to: source });
        } catch (error) {
          return { status: 'fail', reason: `converted to ${name.path} and the source is in the trash, but the new file could not take its name: ${errorText(error)}`, changes: [{ ...changes[0]!, after: name.path }, changes[1]!], report };
        }
      }
    }
    return { status: 'success', changes, report };
  },
});
