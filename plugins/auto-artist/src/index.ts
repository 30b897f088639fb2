/**
 * 刮削艺术家 (batchAutoUpdateArtist): one library artist per item (`data: { artistId, name }`, built by the gateway
 * from the library, not from ticked files). The artist's name is looked up in the chosen tag source's artist export
 * (`caps.sources.artist`, the editor's fetch_artist_by_keyword); only an answer with the same name, compared folded
 * (case, width, spaces and punctuation aside; simplified and traditional Chinese alike), is taken. Its picture is
 * downloaded by the host (`caps.sources.cover`) and saved with its biography in the library (`caps.artists.set`,
 * undone with the task). Anything else is a miss whose report keeps the source's answer as a candidate.
 */
import { defineBatchAction, PluginError, type Artwork, type BatchChange, type CapabilitiesFor, type JsonValue, type Manifest } from '@tagsonic/sdk';

type Grants = Manifest & { permissions: { sources: { ids: string[]; reason: string }; artists: { reason: string } } };
type Caps = CapabilitiesFor<Grants>;

/** The spec's default artist source (fetch_artist_by_keyword's). */
export const DEFAULT_SOURCE = 'kuwo';
/** The sources with an artist lookup (the manifest's grant). */
export const ARTIST_SOURCES = ['kuwo', 'netease', 'qmusic', 'kugou', 'spotify'];
/** The biography is shown in the report's changes cut to this many characters (the library keeps it whole). */
const TEXT_SHOWN = 120;

interface ArtistOptions {
  source: string;
  skipExisting: boolean;
}

/** `resource` (default kuwo) and `is_skip_exist` (default true) of the payload; a source without artists refuses the task. */
export function parseOptions(options: Record<string, JsonValue>): ArtistOptions {
  const resource = options.resource ?? DEFAULT_SOURCE;
  if (typeof resource !== 'string' || !ARTIST_SOURCES.includes(resource)) {
    throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', `resource must be one of ${ARTIST_SOURCES.join(', ')} (the sources with an artist lookup)`);
  }
  const skip = options.is_skip_exist;
  return { source: resource, skipExisting: skip === undefined || skip === null ? true : skip === true || skip === 'true' || skip === 1 };
}

export default defineBatchAction<Grants>({
  /**
   * The items are the library's artists, which the gateway lists (batch_auto_update_artist): this only checks the
   * options before anything is queued, and refuses ticked files (run_action), which name no artist.
   */
  async plan({ paths, options }) {
    parseOptions(options);
    if (paths.length) throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', '刮削艺术家 runs over the library\'s artists, not ticked files: use /apimt/batch_auto_update_artist/');
    return { items: [] };
  },

  async runItem({ item, options, dryRun }, caps) {
    const opts = parseOptions(options);
    const data = item.data as { artistId?: unknown; name?: unknown } | undefined;
    if (!data || typeof data.artistId !== 'string' || typeof data.name !== 'string') {
      throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', 'the item names no library artist (刮削艺术家 runs over the library: /apimt/batch_auto_update_artist/)');
    }
    const name = data.name;
    const current = await caps.artists.get({ artistId: data.artistId });
    const raw = { title: name, raw_artist: name };
    if (opts.skipExisting && current.image) return { status: 'skip', reason: 'the artist has a picture already (skip existing)', report: raw };

    const found = await caps.sources.artist({ id: opts.source, keyword: name });
    if (!found) return { status: 'miss', reason: `${opts.source} knows no artist "${name}"`, report: { ...raw, candidate_list: [] } };
    const candidate = { name: found.name, artist: found.name, artist_img: found.image ?? '', desc: found.description ?? '', resource: opts.source };
    if (!sameName(await simplified(caps, found.name), await simplified(caps, name))) {
      return { status: 'miss', reason: `${opts.source} answered "${found.name}", not "${name}"`, report: { ...raw, candidate_list: [candidate] } };
    }

    const changes: BatchChange[] = [];
    const notes: string[] = [];
    let image: Artwork | undefined;
    // A picture downloaded from the same address is the one it has (a second run with is_skip_exist off).
    if (found.image && found.image !== current.image?.url) {
      try {
        image = await caps.sources.cover({ id: opts.source, url: found.image });
        changes.push({ path: name, kind: 'tags', field: 'artist_img', before: current.image ? `${current.image.mime}, ${current.image.size} bytes` : null, after: found.image });
      } catch (error) {
        notes.push(`picture: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    const description = found.description?.trim() || null;
    if (description && description !== current.description) {
      changes.push({ path: name, kind: 'tags', field: 'description', before: shown(current.description), after: shown(description) });
    }
    const report: Record<string, JsonValue> = { ...raw, artist: found.name, source: opts.source, artist_img: found.image ?? null, ...(notes.length ? { notes } : {}) };
    if (!changes.length) {
      if (notes.length) return { status: 'fail', reason: notes.join('; '), report };
      return { status: 'skip', reason: `already as ${opts.source} has it`, report };
    }
    if (!dryRun) {
      await caps.artists.set({
        artistId: data.artistId,
        source: opts.source,
        ...(image ? { image, imageUrl: found.image! } : {}),
        ...(changes.some((c) => c.field === 'description') ? { description } : {}),
      });
    }
    return { status: 'success', changes, report };
  },
});

/** Simplified Chinese of a name, so 周杰倫 and 周杰伦 are one artist (the library's search folds the same way). */
async function simplified(caps: Caps, text: string): Promise<string> {
  return /[\u3400-\u9fff]/.test(text) ? caps.text.convert({ text, direction: 't2s' }) : text;
}

/** Case, width, accents, spaces and punctuation aside. */
export function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[\s\p{P}\p{S}]+/gu, '');
}

/** Folded equality; a name of punctuation only (`!!!`) is compared as written, lower case. */
export function sameName(a: string, b: string): boolean {
  const fa = fold(a);
  const fb = fold(b);
  return fa || fb ? fa === fb : a.trim().toLowerCase() === b.trim().toLowerCase();
}

function shown(text: string | null): string | null {
  return text && text.length > TEXT_SHOWN ? `${text.slice(0, TEXT_SHOWN)}…` : text;
}
