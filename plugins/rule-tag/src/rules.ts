/**
 * ruleTagTask's `rule_form` (spec doc 2 "Genre rules"): `artistRules` [{ artist, genre }], `useAlbumMajorityGenre`,
 * `useAI`; and the item's `data` the host computes from the library (the track's artists as the library split
 * them, and the genres of the album's other tracks). Parsed strictly: a bad rule refuses the item with its reason.
 */
import { PluginError, type JsonValue } from '@tagsonic/sdk';

export interface ArtistRule {
  artist: string;
  genre: string;
}

export interface RuleForm {
  /** In the order given; keyed by the folded artist, the first rule of an artist wins. */
  artistRules: Map<string, ArtistRule>;
  albumMajority: boolean;
  ai: boolean;
}

/** What the host passes per track (gateway/src/routes/library-tasks.ts). */
export interface TrackData {
  /** The track's individual artists, as the library split them. */
  artists: string[];
  /**
   * Genres of the album's other tracks with how many carry each, most first; null: the track has no album;
   * undefined: not counted (an item from run_action over a selection, not from the library).
   */
  albumGenres: Array<[string, number]> | null | undefined;
}

const MAX_RULES = 10_000;
const MAX_TEXT = 200;

const invalid = (message: string) => new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', message);

const isObject = (v: JsonValue | undefined): v is Record<string, JsonValue> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function parseRuleForm(options: Record<string, JsonValue>): RuleForm {
  const raw = options.rule_form;
  if (!isObject(raw)) throw invalid('rule_form must be an object { artistRules, useAlbumMajorityGenre, useAI }');
  const list = raw.artistRules ?? [];
  if (!Array.isArray(list)) throw invalid('artistRules must be a list of { artist, genre }');
  if (list.length > MAX_RULES) throw invalid(`artistRules holds more than ${MAX_RULES} rules`);
  const artistRules = new Map<string, ArtistRule>();
  for (const [i, rule] of list.entries()) {
    const artist = isObject(rule) && typeof rule.artist === 'string' ? rule.artist.trim() : '';
    const genre = isObject(rule) && typeof rule.genre === 'string' ? rule.genre.trim() : '';
    if (!artist || !genre) throw invalid(`artistRules[${i}] needs an artist and a genre`);
    if (artist.length > MAX_TEXT || genre.length > MAX_TEXT) throw invalid(`artistRules[${i}] is longer than ${MAX_TEXT} characters`);
    const key = fold(artist);
    if (!artistRules.has(key)) artistRules.set(key, { artist, genre });
  }
  const form = { artistRules, albumMajority: raw.useAlbumMajorityGenre === true, ai: raw.useAI === true };
  if (!form.artistRules.size && !form.albumMajority && !form.ai) throw invalid('rule_form gives no rule: add an artist rule, or use the album majority or AI');
  return form;
}

/** The host's data for the item, or what the file alone says (run_action over a selection: no album counts). */
export function trackData(data: JsonValue | undefined, artistTag: string | null): TrackData {
  const artists = isObject(data) && Array.isArray(data.artists) ? data.artists.filter((a): a is string => typeof a === 'string') : splitArtists(artistTag ?? '');
  const counts = isObject(data) ? data.albumGenres : undefined;
  const albumGenres = Array.isArray(counts)
    ? counts.flatMap((c): Array<[string, number]> => (Array.isArray(c) && typeof c[0] === 'string' && typeof c[1] === 'number' ? [[c[0], c[1]]] : []))
    : counts === null ? null : undefined;
  return { artists, albumGenres };
}

/** The first of the track's artists (in tag order) that has a rule, with its rule. */
export function artistRule(form: RuleForm, artists: readonly string[]): ArtistRule | null {
  for (const artist of artists) {
    const rule = form.artistRules.get(fold(artist));
    if (rule) return rule;
  }
  return null;
}

/**
 * The genre most of the album's other tracks carry; null when none carries one, or when two genres are carried
 * equally often (no majority to follow).
 */
export function albumMajority(counts: ReadonlyArray<[string, number]> | null | undefined): { genre: string; count: number } | null {
  if (!counts?.length) return null;
  const sorted = [...counts].sort((a, b) => b[1] - a[1]);
  const [first, second] = sorted;
  if (!first || first[1] <= 0 || (second && second[1] === first[1])) return null;
  return { genre: first[0], count: first[1] };
}

/** Case, width and accents folded, as the library compares names (core/library text.ts `fold`). */
export function fold(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC')
    .trim();
}

/** The library's artist separators (core/library text.ts), for a track the host sent no artist list for. */
const SEPARATORS = /\s*(?:[,/&、，;；]|\s(?:feat\.?|ft\.|featuring)\s)\s*/iu;

export function splitArtists(display: string): string[] {
  return display.split(SEPARATORS).map((s) => s.trim()).filter(Boolean);
}
