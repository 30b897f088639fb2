/**
 * The host's side of a tag-source search: the query checked and completed (the file's duration read from the
 * file when the editor names it), and the source's candidates checked and scored with core/matching against the
 * query, so the editor's colours and smart_tag's choice mean the same whichever source answered.
 */
import { invalid, TagsonicError } from '@tagsonic/core/errors';
import { scoreCandidate } from '@tagsonic/core/matching';
import type { MediaRoots } from '@tagsonic/core/media';
import { readTags } from '@tagsonic/core/tags';
import type { SearchOptions, SearchResultSong } from '@tagsonic/sdk';
import type { JsonValue } from '../plugin-host/index.ts';
import type { ScoredSong } from '../plugin-runtime/index.ts';

export const SEARCH_TITLE_REQUIRED = 'TAGSONIC_ERR_SCRAPE_TITLE_REQUIRED';
export const PLUGIN_RESULT_INVALID = 'TAGSONIC_ERR_PLUGIN_RESULT_INVALID';

/** Candidates asked of a source when the caller does not say; the editor's table shows them all. */
export const DEFAULT_SEARCH_LIMIT = 20;
const MAX_SEARCH_LIMIT = 50;
const MAX_FIELD_CHARS = 500;

const text = (value: unknown): string => (typeof value === 'string' ? value.trim().slice(0, MAX_FIELD_CHARS) : '');

/** The options a source's `search` gets. `path` must be inside the media roots; it is passed on resolved. */
export async function searchQuery(query: Partial<SearchOptions> | null | undefined, roots: MediaRoots): Promise<SearchOptions> {
  const title = text(query?.title);
  if (title === '') throw invalid(SEARCH_TITLE_REQUIRED, '标题不能为空！');
  const limit = Number.isInteger(query?.limit) && query!.limit! > 0 ? Math.min(query!.limit!, MAX_SEARCH_LIMIT) : DEFAULT_SEARCH_LIMIT;
  const options: SearchOptions = { title, artist: text(query?.artist), album: text(query?.album), limit };
  if (typeof query?.duration === 'number' && Number.isFinite(query.duration) && query.duration > 0) options.duration = query.duration;
  if (query?.path !== undefined && query.path !== null && query.path !== '') {
    const resolved = await roots.resolve(query.path);
    options.path = resolved.path;
    if (options.duration === undefined) {
      // A file that cannot be read still gets its search; only the duration hint is missing then.
      const duration = await readTags(resolved.path).then((r) => r.audio.duration, () => 0);
      if (duration > 0) options.duration = Math.round(duration * 1000) / 1000;
    }
  }
  return options;
}

/** Checks a source's result and adds the scores; `resource` is filled in when the source left it empty. */
export function scoreSongs(resource: string, query: SearchOptions, result: JsonValue): ScoredSong[] {
  if (!Array.isArray(result)) throw resultInvalid(resource, 'search did not return an array');
  const file = { title: query.title, artist: query.artist || null, album: query.album || null, duration: query.duration ?? null };
  return result.map((item, index) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) throw resultInvalid(resource, `candidate ${index} is not an object`);
    const song = item as unknown as Partial<SearchResultSong>;
    if (typeof song.name !== 'string' || song.name === '') throw resultInvalid(resource, `candidate ${index} has no name`);
    const candidate: SearchResultSong = {
      id: song.id === undefined || song.id === null ? '' : String(song.id),
      name: song.name,
      artist: optionalText(song.artist),
      album: optionalText(song.album),
      album_img: optionalText(song.album_img),
      year: song.year === undefined || song.year === null ? null : String(song.year),
      tracknumber: count(song.tracknumber),
      totaltracks: count(song.totaltracks),
      discnumber: count(song.discnumber),
      totaldiscs: count(song.totaldiscs),
      duration: typeof song.duration === 'number' && Number.isFinite(song.duration) && song.duration > 0 ? song.duration : null,
      resource: typeof song.resource === 'string' && song.resource !== '' ? song.resource : resource,
    };
    return { ...candidate, ...scoreCandidate(file, candidate) };
  });
}

/** A track or disc number or count as a positive integer; a source's "3/12" or "03" is 3; anything else null. */
function count(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number.parseInt(value, 10) : Number.NaN;
  return Number.isInteger(n) && n > 0 ? n : null;
}

const optionalText = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : null);

const resultInvalid = (pluginId: string, what: string) =>
  new TagsonicError('unavailable', PLUGIN_RESULT_INVALID, `The plugin ${pluginId} answered a search with something else than candidates: ${what}.`, {
    details: { pluginId },
  });
