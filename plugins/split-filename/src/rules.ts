/**
 * `rule_list` and `extract_field` of the splitFilename payload. A rule is a regular expression whose named
 * groups are tag fields (`(?<artist>.+?) - (?<title>.+)`); the first rule that matches the text wins, as in the
 * dialog's preview (`/apimt/preview_regex/` mode split_filename).
 */
import { PluginError, type JsonValue } from '@tagsonic/sdk';

/** The fields a group may name: the editable tag fields (`TrackTags` minus artwork). */
export const GROUP_FIELDS = [
  'title', 'artist', 'album', 'albumartist', 'genre', 'language', 'year', 'lyrics', 'comment', 'description',
  'discnumber', 'totaldiscs', 'tracknumber', 'totaltracks', 'composer', 'lyricist', 'album_type',
  'replaygain_album_gain', 'replaygain_album_peak', 'replaygain_track_gain', 'replaygain_track_peak',
] as const;
export type GroupField = (typeof GROUP_FIELDS)[number];

/** Written as numbers: a group must hold digits (`03` → 3) to be used. */
export const NUMBER_FIELDS: ReadonlySet<string> = new Set(['tracknumber', 'totaltracks', 'discnumber', 'totaldiscs']);

const MAX_RULES = 50;
const MAX_PATTERN_CHARS = 1000;

/** The named groups of a pattern, `(?<name>` or RE2's `(?P<name>`. */
export const groupNames = (pattern: string): string[] => [...pattern.matchAll(/\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/g)].map((m) => m[1]!);

/** The patterns, each with at least one named group and only tag fields as group names. */
export function rulesOf(value: JsonValue | undefined): string[] {
  if (!Array.isArray(value) || value.length === 0) throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', 'rule_list must list at least one pattern, e.g. (?<artist>.+?) - (?<title>.+)');
  if (value.length > MAX_RULES) throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', `rule_list has more than ${MAX_RULES} patterns`);
  return value.map((rule, i) => {
    if (typeof rule !== 'string' || rule === '') throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', `rule_list[${i}] must be a pattern (text)`);
    if (rule.length > MAX_PATTERN_CHARS) throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', `rule_list[${i}] is longer than ${MAX_PATTERN_CHARS} characters`);
    const names = groupNames(rule);
    if (!names.length) throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', `rule_list[${i}] has no named group: name each part by its tag field, e.g. (?<title>.+)`);
    const unknown = names.filter((n) => !(GROUP_FIELDS as readonly string[]).includes(n));
    if (unknown.length) throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', `rule_list[${i}]: named groups must be tag fields; ${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not`);
    return rule;
  });
}

export type ExtractField = 'filename' | 'title' | 'lyrics';

export function extractFieldOf(value: JsonValue | undefined): ExtractField {
  if (value === undefined || value === null) return 'filename';
  if (value === 'filename' || value === 'title' || value === 'lyrics') return value;
  throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', 'extract_field must be filename, title or lyrics');
}

/** The file's name without folder and extension: `/m/A/周杰伦 - 晴天.flac` → `周杰伦 - 晴天`. */
export function fileStem(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}
