/**
 * batchAutoUpdateId3's payload (spec doc 1 §7): `music_info { select_mode, source_list, is_skip_tag, is_folder_album,
 * scrape_rate }` and `modify_list`, with the spec's defaults (§9): mode simple, sources qmusic then netease, fields
 * artist, album, album_img, year, lyrics. scrape_rate is the host's (the task's pace), not read here.
 */
import { PluginError, type JsonValue } from '@tagsonic/sdk';

export type Mode = 'simple' | 'normal' | 'hard';
export const MODES: readonly Mode[] = ['simple', 'normal', 'hard'];
/** The sources auto-scrape may search (its manifest's grant), as the spec lists them. */
export const SOURCES = ['qmusic', 'netease', 'migu', 'kugou', 'kuwo', 'itunes', 'spotify', 'musicbrainz'] as const;
export const DEFAULT_SOURCES = ['qmusic', 'netease'];
/** The fields a candidate can fill: its tags, its source's cover and lyrics. */
export const FIELDS = ['title', 'artist', 'album', 'albumartist', 'album_img', 'year', 'lyrics', 'tracknumber', 'discnumber'] as const;
export type Field = (typeof FIELDS)[number];
export const DEFAULT_FIELDS: readonly Field[] = ['artist', 'album', 'album_img', 'year', 'lyrics'];

export interface ScrapeOptions {
  mode: Mode;
  sources: string[];
  /** Keep fields that already hold a value; a track whose chosen fields are all set is skipped. */
  skipTagged: boolean;
  /** The tracks of one folder are one album: the folder's first match decides album, cover and year. */
  folderAlbum: boolean;
  fields: Field[];
  /** modify_list entries no source can fill (composer, language …): named in the report, not refused. */
  ignored: string[];
}

const invalid = (message: string) => new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', message);

export function parseOptions(options: Record<string, JsonValue>): ScrapeOptions {
  const raw = options.music_info ?? {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalid('music_info must be an object');
  const info = raw as Record<string, JsonValue>;
  const mode = info.select_mode ?? 'simple';
  if (typeof mode !== 'string' || !MODES.includes(mode as Mode)) throw invalid(`select_mode must be one of ${MODES.join(', ')}`);
  const list = info.source_list ?? DEFAULT_SOURCES;
  if (!Array.isArray(list) || list.some((s) => typeof s !== 'string')) throw invalid('source_list must be a list of source ids');
  const sources = [...new Set(list as string[])];
  const unknown = sources.filter((s) => !(SOURCES as readonly string[]).includes(s));
  if (unknown.length) throw invalid(`source_list: ${unknown.join(', ')} cannot be searched (one of ${SOURCES.join(', ')})`);
  if (!sources.length) throw invalid('source_list is empty: choose at least one source');
  const modify = options.modify_list ?? [...DEFAULT_FIELDS];
  if (!Array.isArray(modify) || modify.some((f) => typeof f !== 'string')) throw invalid('modify_list must be a list of field names');
  const fields = (modify as string[]).filter((f): f is Field => (FIELDS as readonly string[]).includes(f));
  const ignored = (modify as string[]).filter((f) => !(FIELDS as readonly string[]).includes(f));
  if (!fields.length) throw invalid(`modify_list names no field a source can fill (${FIELDS.join(', ')})`);
  return { mode: mode as Mode, sources, skipTagged: info.is_skip_tag === true, folderAlbum: info.is_folder_album === true, fields: [...new Set(fields)], ignored };
}
