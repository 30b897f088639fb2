/**
 * Smart-playlist rules (the spec's condition builder): groups combined by OR, each a list of
 * `{ key, operate, value }` combined by AND. Parsing turns client JSON into a checked rule; evaluation
 * runs it over catalogue tracks with the playlist owner's marks.
 */
import { invalid } from '../errors/errors.ts';
import { fold } from '../library/text.ts';
import type { TrackDoc } from '../library/model.ts';

export const BOOL_KEYS = ['favourite-track', 'favourite-album', 'favourite-artist', 'album-img', 'artist-img'] as const;
export const NUMBER_KEYS = ['play-count', 'sample-rate', 'bit-rate', 'size', 'year', 'duration', 'accessed-date', 'created-at'] as const;
export const TEXT_KEYS = ['title', 'album', 'artist', 'genre', 'comment', 'lyrics', 'language', 'file-path'] as const;

export type BoolKey = (typeof BOOL_KEYS)[number];
export type NumberKey = (typeof NUMBER_KEYS)[number];
export type TextKey = (typeof TEXT_KEYS)[number];
export type ConditionKey = BoolKey | NumberKey | TextKey;

export const BOOL_OPERATORS = ['is', 'not'] as const;
export const NUMBER_OPERATORS = ['gte', 'lte', 'is', 'not'] as const;
export const TEXT_OPERATORS = ['contain', 'not_contain', 'is', 'not', 'startwith', 'endwith'] as const;

export type Condition =
  | { key: BoolKey; operate: (typeof BOOL_OPERATORS)[number]; value: boolean }
  | { key: NumberKey; operate: (typeof NUMBER_OPERATORS)[number]; value: number }
  | { key: TextKey; operate: (typeof TEXT_OPERATORS)[number]; value: string };

/** OR of AND groups. */
export type ConditionGroups = Condition[][];

/**
 * Orders a smart playlist can be cut by (its "select standard"). `-` in front = descending. The spec's
 * select values (`?` for random, `plays_count`, `accessed_date`, `created_at`, each optionally with `-`)
 * and the dashboard's list names are accepted as aliases (see ORDER_ALIASES).
 */
export const ORDER_FIELDS = ['random', 'title', 'album', 'artist', 'year', 'play-count', 'created-at', 'accessed-date', 'duration', 'bit-rate', 'size', 'sample-rate'] as const;
const ORDER_ALIASES: Record<string, string> = {
  '?': 'random',
  'plays-count': 'play-count',
  'recently-added': '-created-at',
  'recently-played': '-accessed-date',
  'most-played': '-play-count',
  'least-played': 'play-count',
  'a-z': 'title',
  newest: '-year',
  oldest: 'year',
};

export const MAX_GROUPS = 20;
export const MAX_CONDITIONS_PER_GROUP = 20;
export const DEFAULT_SMART_LIMIT = 25;
export const MAX_SMART_LIMIT = 5000;

const BAD = 'TAGSONIC_ERR_PLAYLIST_BAD_CONDITION';

const isBoolKey = (k: string): k is BoolKey => (BOOL_KEYS as readonly string[]).includes(k);
const isNumberKey = (k: string): k is NumberKey => (NUMBER_KEYS as readonly string[]).includes(k);
const isTextKey = (k: string): k is TextKey => (TEXT_KEYS as readonly string[]).includes(k);

/**
 * Parses the `conditions` field: JSON text (or an already parsed value) shaped as an array of groups,
 * where a group is an array of conditions or an object holding one (`conditions`, `children`, `sub`,
 * `items`). A flat array of conditions is one group.
 */
export function parseConditions(input: unknown): ConditionGroups {
  let raw = input;
  if (typeof raw === 'string') {
    try {
      raw = JSON.parse(raw);
    } catch {
      throw invalid(BAD, 'The conditions are not valid JSON: send a list of groups, each a list of {key, operate, value}.');
    }
  }
  if (!Array.isArray(raw) || raw.length === 0) throw invalid(BAD, 'Give at least one condition group.');
  const flat = raw.every((x) => x !== null && typeof x === 'object' && !Array.isArray(x) && 'key' in x);
  const groupsRaw: unknown[] = flat ? [raw] : raw;
  if (groupsRaw.length > MAX_GROUPS) throw invalid(BAD, `At most ${MAX_GROUPS} condition groups.`);
  return groupsRaw.map((g, gi) => {
    const list = Array.isArray(g) ? g : groupList(g);
    if (!list || list.length === 0) throw invalid(BAD, `Condition group ${gi + 1} is empty.`);
    if (list.length > MAX_CONDITIONS_PER_GROUP) throw invalid(BAD, `At most ${MAX_CONDITIONS_PER_GROUP} conditions per group.`);
    return list.map((c, ci) => parseCondition(c, `group ${gi + 1}, condition ${ci + 1}`));
  });
}

function groupList(g: unknown): unknown[] | null {
  if (g === null || typeof g !== 'object') return null;
  const o = g as Record<string, unknown>;
  for (const k of ['conditions', 'children', 'sub', 'items']) if (Array.isArray(o[k])) return o[k] as unknown[];
  return null;
}

function parseCondition(c: unknown, where: string): Condition {
  if (c === null || typeof c !== 'object' || Array.isArray(c)) throw invalid(BAD, `${where}: expected {key, operate, value}.`);
  const { key, operate, value } = c as Record<string, unknown>;
  if (typeof key !== 'string') throw invalid(BAD, `${where}: "key" is missing.`);
  if (typeof operate !== 'string') throw invalid(BAD, `${where}: "operate" is missing.`);
  if (isBoolKey(key)) {
    if (!(BOOL_OPERATORS as readonly string[]).includes(operate)) throw invalid(BAD, `${where}: ${key} takes is or not, not "${operate}".`);
    return { key, operate: operate as 'is' | 'not', value: parseBool(value, where) };
  }
  if (isNumberKey(key)) {
    if (!(NUMBER_OPERATORS as readonly string[]).includes(operate)) throw invalid(BAD, `${where}: ${key} takes gte, lte, is or not, not "${operate}".`);
    const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value.trim()) : NaN;
    if (!Number.isFinite(n)) throw invalid(BAD, `${where}: ${key} needs a number, not ${JSON.stringify(value)}.`);
    return { key, operate: operate as 'gte' | 'lte' | 'is' | 'not', value: n };
  }
  if (isTextKey(key)) {
    if (!(TEXT_OPERATORS as readonly string[]).includes(operate)) {
      throw invalid(BAD, `${where}: ${key} takes contain, not_contain, is, not, startwith or endwith, not "${operate}".`);
    }
    if (typeof value !== 'string' && typeof value !== 'number') throw invalid(BAD, `${where}: ${key} needs a text value.`);
    const text = String(value);
    if (text.length > 500) throw invalid(BAD, `${where}: the text is longer than 500 characters.`);
    return { key, operate: operate as Condition['operate'] & (typeof TEXT_OPERATORS)[number], value: text };
  }
  throw invalid(BAD, `${where}: unknown key "${key}". Keys: ${[...BOOL_KEYS, ...NUMBER_KEYS, ...TEXT_KEYS].join(', ')}.`);
}

/** Bool conditions read "is favourite" with no value, or carry an explicit true/false. */
function parseBool(value: unknown, where: string): boolean {
  if (value === undefined || value === null || value === '' || value === true || value === 1) return true;
  if (value === false || value === 0) return false;
  if (typeof value === 'string') {
    const v = value.trim().toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(v)) return true;
    if (['0', 'false', 'no', 'off'].includes(v)) return false;
  }
  throw invalid(BAD, `${where}: expected true or false, not ${JSON.stringify(value)}.`);
}

/** The limit field is free text in the dashboard: a positive whole number, default 25. */
export function parseLimit(input: unknown): number {
  if (input === undefined || input === null || input === '') return DEFAULT_SMART_LIMIT;
  const n = typeof input === 'number' ? input : Number(String(input).trim());
  if (!Number.isInteger(n) || n < 1 || n > MAX_SMART_LIMIT) {
    throw invalid('TAGSONIC_ERR_PLAYLIST_BAD_LIMIT', `The limit must be a whole number from 1 to ${MAX_SMART_LIMIT}, not ${JSON.stringify(input)}.`);
  }
  return n;
}

/** Checks an order and returns it in canonical form (`field` or `-field`); default random. */
export function parseOrderBy(input: unknown): string {
  if (input === undefined || input === null || input === '') return 'random';
  if (typeof input !== 'string') throw invalid('TAGSONIC_ERR_PLAYLIST_BAD_ORDER', 'order_by must be text.');
  let v = input.trim().toLowerCase().replace(/_/g, '-');
  v = ORDER_ALIASES[v] ?? v;
  let desc = v.startsWith('-');
  if (desc) v = v.slice(1);
  const m = /^(.*?)[\s:]+(asc|desc)$/.exec(v);
  if (m) {
    v = m[1]!;
    desc = m[2] === 'desc';
  }
  v = ORDER_ALIASES[v]?.replace(/^-/, '') ?? v;
  if (!(ORDER_FIELDS as readonly string[]).includes(v)) {
    throw invalid('TAGSONIC_ERR_PLAYLIST_BAD_ORDER', `Unknown order "${input}". Use ${ORDER_FIELDS.join(', ')} (prefix "-" for descending) or ${Object.keys(ORDER_ALIASES).join(', ')}.`);
  }
  if (v === 'random') return 'random';
  return desc ? `-${v}` : v;
}

/** The owner's marks and library facts a rule may look at. */
export interface ConditionContext {
  now: number;
  starredTracks: ReadonlySet<string>;
  starredAlbums: ReadonlySet<string>;
  starredArtists: ReadonlySet<string>;
  /** The owner's plays per track id. */
  plays: ReadonlyMap<string, { count: number; last: Date | null }>;
  albumHasCover(albumId: string): boolean;
  artistHasCover(artistId: string): boolean;
  /** The track's lyrics text ('' when none); only called for lyrics conditions, after the cheap ones. */
  lyrics(track: TrackDoc): Promise<string>;
}

/** Which owner data a rule needs, so evaluation loads only that. */
export function needs(groups: ConditionGroups): { stars: boolean; plays: boolean; lyrics: boolean } {
  const keys = new Set(groups.flat().map((c) => c.key));
  return {
    stars: keys.has('favourite-track') || keys.has('favourite-album') || keys.has('favourite-artist'),
    plays: keys.has('play-count') || keys.has('accessed-date'),
    lyrics: keys.has('lyrics'),
  };
}

const DAY_MS = 86_400_000;
const MB = 1024 * 1024;

function boolFact(key: BoolKey, t: TrackDoc, ctx: ConditionContext): boolean {
  switch (key) {
    case 'favourite-track':
      return ctx.starredTracks.has(t._id);
    case 'favourite-album':
      return ctx.starredAlbums.has(t.albumId);
    case 'favourite-artist':
      return t.artistIds.some((a) => ctx.starredArtists.has(a)) || t.albumArtistIds.some((a) => ctx.starredArtists.has(a));
    case 'album-img':
      return ctx.albumHasCover(t.albumId);
    case 'artist-img':
      return t.artistIds.some((a) => ctx.artistHasCover(a));
  }
}

/** The value a number key compares, in the spec's unit; null when the track has none (no year, never played). */
function numberFact(key: NumberKey, t: TrackDoc, ctx: ConditionContext): number | null {
  switch (key) {
    case 'play-count':
      return ctx.plays.get(t._id)?.count ?? 0;
    case 'sample-rate':
      return t.sampleRate;
    case 'bit-rate':
      return t.bitRate;
    case 'size':
      return t.size / MB;
    case 'year':
      return t.year;
    case 'duration':
      return t.duration;
    case 'accessed-date': {
      const last = ctx.plays.get(t._id)?.last;
      return last ? Math.floor((ctx.now - last.getTime()) / DAY_MS) : null;
    }
    case 'created-at':
      return Math.floor((ctx.now - t.createdAt.getTime()) / DAY_MS);
  }
}

/** Decimal places written in a number, so "is 5" on a size compares whole megabytes and "is 5.2" tenths. */
const decimals = (n: number): number => {
  const s = String(n);
  const dot = s.indexOf('.');
  return dot < 0 ? 0 : Math.min(6, s.length - dot - 1);
};

function compareNumber(fact: number | null, operate: 'gte' | 'lte' | 'is' | 'not', value: number, key: NumberKey): boolean {
  if (fact === null) return operate === 'not';
  // Sample rates are stored in Hz; people type 44.1 or 48 meaning kHz.
  const target = key === 'sample-rate' && Math.abs(value) < 1000 ? value * 1000 : value;
  if (operate === 'gte') return fact >= target;
  if (operate === 'lte') return fact <= target;
  const p = 10 ** decimals(target);
  const equal = Math.round(fact * p) === Math.round(target * p);
  return operate === 'is' ? equal : !equal;
}

/** Text facts: every value a key may match (a multi-valued field matches when any value does). */
function textFacts(key: Exclude<TextKey, 'lyrics'>, t: TrackDoc): string[] {
  switch (key) {
    case 'title':
      return [t.title];
    case 'album':
      return [t.album];
    case 'artist':
      return [t.artist, ...t.artists];
    case 'genre':
      return t.genres.length ? t.genres : t.genre ? [t.genre] : [];
    case 'comment':
      return [t.comment ?? ''];
    case 'language':
      return [t.language ?? ''];
    case 'file-path':
      return [t.path, t.relPath];
  }
}

function matchText(facts: readonly string[], operate: (typeof TEXT_OPERATORS)[number], value: string): boolean {
  const v = fold(value);
  const any = (test: (f: string) => boolean) => facts.some((f) => test(fold(f)));
  switch (operate) {
    case 'contain':
      return any((f) => f.includes(v));
    case 'not_contain':
      return !any((f) => f.includes(v));
    case 'is':
      return any((f) => f === v);
    case 'not':
      return !any((f) => f === v);
    case 'startwith':
      return any((f) => f.startsWith(v));
    case 'endwith':
      return any((f) => f.endsWith(v));
  }
}

/** One condition; lyrics conditions are the only async ones. */
function test(c: Condition, t: TrackDoc, ctx: ConditionContext): boolean | Promise<boolean> {
  if (isBoolKey(c.key)) {
    const fact = boolFact(c.key, t, ctx);
    return c.operate === 'is' ? fact === c.value : fact !== c.value;
  }
  if (isNumberKey(c.key)) return compareNumber(numberFact(c.key, t, ctx), c.operate as 'gte', c.value as number, c.key);
  const op = c.operate as (typeof TEXT_OPERATORS)[number];
  if (c.key === 'lyrics') return ctx.lyrics(t).then((text) => matchText([text], op, c.value as string));
  return matchText(textFacts(c.key as Exclude<TextKey, 'lyrics'>, t), op, c.value as string);
}

/** Lyrics last: they may read the file, so only tracks passing the rest of the group pay for it. */
const cheapFirst = (groups: ConditionGroups): ConditionGroups =>
  groups.map((g) => [...g].sort((a, b) => Number(a.key === 'lyrics') - Number(b.key === 'lyrics')));

/** The tracks matching the rule, in the order given. */
export async function matchTracks(tracks: readonly TrackDoc[], groups: ConditionGroups, ctx: ConditionContext): Promise<TrackDoc[]> {
  const ordered = cheapFirst(groups);
  const out: TrackDoc[] = [];
  for (const t of tracks) {
    let matched = false;
    for (const group of ordered) {
      let all = true;
      for (const c of group) {
        let r = test(c, t, ctx);
        if (typeof r !== 'boolean') r = await r;
        if (!r) {
          all = false;
          break;
        }
      }
      if (all) {
        matched = true;
        break;
      }
    }
    if (matched) out.push(t);
  }
  return out;
}

/** Sorts matches by a canonical order (see parseOrderBy); `random` shuffles. Ties keep library order. */
export function orderTracks(tracks: TrackDoc[], orderBy: string, ctx: Pick<ConditionContext, 'plays'>, random: () => number = Math.random): TrackDoc[] {
  if (orderBy === 'random') {
    for (let i = tracks.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [tracks[i], tracks[j]] = [tracks[j]!, tracks[i]!];
    }
    return tracks;
  }
  const desc = orderBy.startsWith('-');
  const field = desc ? orderBy.slice(1) : orderBy;
  const key = (t: TrackDoc): number | string | null => {
    switch (field) {
      case 'title':
        return fold(t.title);
      case 'album':
        return fold(t.album);
      case 'artist':
        return fold(t.artist);
      case 'year':
        return t.year;
      case 'play-count':
        return ctx.plays.get(t._id)?.count ?? 0;
      case 'created-at':
        return t.createdAt.getTime();
      case 'accessed-date':
        return ctx.plays.get(t._id)?.last?.getTime() ?? null;
      case 'duration':
        return t.duration;
      case 'bit-rate':
        return t.bitRate;
      case 'size':
        return t.size;
      case 'sample-rate':
        return t.sampleRate;
      default:
        return null;
    }
  };
  const keyed = tracks.map((t, i) => ({ t, i, k: key(t) }));
  keyed.sort((a, b) => {
    // Tracks without the value (no year, never played) go last whatever the direction.
    if (a.k === null || b.k === null) return a.k === b.k ? a.i - b.i : a.k === null ? 1 : -1;
    const c = a.k < b.k ? -1 : a.k > b.k ? 1 : 0;
    return (desc ? -c : c) || a.i - b.i;
  });
  return keyed.map((x) => x.t);
}
