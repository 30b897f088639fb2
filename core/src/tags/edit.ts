/**
 * Edits as values: validation and canonical form of what the user typed, the snapshot a write must
 * produce, and comparisons between snapshots. Pure functions, shared by the writer, the verifier and undo.
 */
import { EDITABLE_FIELDS, isTagField, type ArtworkInfo, type TagEdit, type TagField, type TagSnapshot } from './model.ts';
import { ALBUM_TYPE_JOINER, MULTI_VALUE_JOINER, NUMERIC_FIELDS, splitMultiValue } from './mapping.ts';
import { artworkInfo, sniffImage } from './image-info.ts';
import { TAG_ERRORS, invalid } from './errors.ts';
import { MAX_EDIT_CHARS, MAX_FIELD_CHARS, MAX_NAMES, MAX_PICTURE_BYTES } from './bounds.ts';

export interface NormalizedArtwork {
  mime: string;
  data: Uint8Array;
  info: ArtworkInfo;
}

export interface NormalizedEdit {
  /** Only the fields the edit touches, in canonical form; `null` clears. */
  fields: Partial<Record<TagField, string | null>>;
  artists?: string[];
  albumartists?: string[];
  genres?: string[];
  /** `undefined`: cover untouched; `null`: remove every picture. */
  artwork?: NormalizedArtwork | null;
}

/** The largest cover an edit may carry (bounds.ts). */
export const MAX_ARTWORK_BYTES = MAX_PICTURE_BYTES;
/** MP4 keeps track and disc numbers in 16 bits. */
const MAX_NUMBER = 65535;
const MULTILINE: ReadonlySet<TagField> = new Set(['lyrics', 'comment', 'description']);

const bad = (field: string, message: string, value?: unknown) =>
  invalid(TAG_ERRORS.INVALID_VALUE, `${field}: ${message}`, { field, value: typeof value === 'string' ? value.slice(0, 200) : value });

/** An edit beyond the bounds of bounds.ts: refused before any file is read. */
const tooLarge = (field: string, message: string) => invalid(TAG_ERRORS.EDIT_TOO_LARGE, `${field}: ${message}`, { field });

export function normalizeEdit(edit: TagEdit): NormalizedEdit {
  if (edit === null || typeof edit !== 'object') throw bad('edit', 'expected an object with fields and/or artwork');
  const out: NormalizedEdit = { fields: {} };
  const input = edit.fields ?? {};
  for (const [name, raw] of Object.entries(input)) {
    if (!isTagField(name)) throw bad(name, `"${name}" is not an editable field (expected one of ${EDITABLE_FIELDS.join(', ')})`);
    if (raw === undefined) continue;
    if (raw !== null && typeof raw !== 'string') throw bad(name, 'expected a string or null', raw);
    out.fields[name] = canonical(name, raw);
  }
  // "3/12" typed into the track number fills the total too, unless the total is edited as well.
  for (const [numberField, totalField] of [['tracknumber', 'totaltracks'], ['discnumber', 'totaldiscs']] as const) {
    const typed = input[numberField];
    if (typeof typed === 'string' && typed.includes('/') && input[totalField] === undefined) {
      const total = typed.split('/')[1]!.trim();
      out.fields[totalField] = total === '' ? null : canonical(totalField, total);
    }
  }
  if (edit.artists !== undefined) out.artists = names('artists', edit.artists);
  if (edit.albumartists !== undefined) out.albumartists = names('albumartists', edit.albumartists);
  if (edit.genres !== undefined) out.genres = names('genres', edit.genres);
  if (edit.artwork !== undefined) out.artwork = edit.artwork === null ? null : normalizeArtwork(edit.artwork);
  const chars = [...Object.values(out.fields), ...(out.artists ?? []), ...(out.albumartists ?? []), ...(out.genres ?? [])].reduce((n, v) => n + (v?.length ?? 0), 0);
  if (chars > MAX_EDIT_CHARS) throw tooLarge('edit', `${chars} characters of text in one edit; at most ${MAX_EDIT_CHARS} fit in a tag beside a cover`);
  return out;
}

function canonical(field: TagField, raw: string | null): string | null {
  if (raw === null) return null;
  if (raw.length > MAX_FIELD_CHARS) throw tooLarge(field, `${raw.length} characters; a field holds at most ${MAX_FIELD_CHARS}`);
  if (raw.includes('\u0000')) throw bad(field, 'contains a NUL character', raw);
  const text = MULTILINE.has(field) ? raw : raw.trim();
  if (text === '') return null;
  if (NUMERIC_FIELDS.has(field)) {
    const m = /^(\d+)\s*(?:\/.*)?$/.exec(text);
    if (!m) throw bad(field, 'expected a whole number', raw);
    const n = Number.parseInt(m[1]!, 10);
    if (n > MAX_NUMBER) throw bad(field, `must be at most ${MAX_NUMBER}`, raw);
    return n === 0 ? null : String(n);
  }
  switch (field) {
    case 'year':
      if (!/^\d{1,4}(-\d{1,2}(-\d{1,2})?)?$/.test(text)) throw bad(field, 'expected a year such as 2021 (or a date such as 2021-05-03)', raw);
      return text;
    case 'album_type': {
      const parts = text.split(';').map((p) => p.trim()).filter((p) => p !== '');
      return parts.length > 0 ? parts.join(ALBUM_TYPE_JOINER) : null;
    }
    case 'replaygain_album_gain':
    case 'replaygain_track_gain':
      if (!/^[+-]?\d+(\.\d+)?(\s*dB)?$/i.test(text)) throw bad(field, 'expected a gain such as "-6.50 dB"', raw);
      return text;
    case 'replaygain_album_peak':
    case 'replaygain_track_peak':
      if (!/^\d+(\.\d+)?$/.test(text)) throw bad(field, 'expected a peak such as "0.988"', raw);
      return text;
    default:
      return text;
  }
}

function names(field: string, list: unknown): string[] {
  if (!Array.isArray(list) || list.some((x) => typeof x !== 'string')) throw bad(field, 'expected a list of names');
  if (list.length > MAX_NAMES) throw tooLarge(field, `${list.length} names; a tag holds at most ${MAX_NAMES}`);
  if ((list as string[]).some((x) => x.length > MAX_FIELD_CHARS)) throw tooLarge(field, `a name is longer than ${MAX_FIELD_CHARS} characters`);
  const clean = (list as string[]).map((x) => x.trim()).filter((x) => x !== '');
  if (clean.some((x) => x.includes('\u0000'))) throw bad(field, 'contains a NUL character');
  return [...new Set(clean)];
}

function normalizeArtwork(artwork: { mime: string; data: Uint8Array }): NormalizedArtwork {
  if (!artwork || !(artwork.data instanceof Uint8Array) || artwork.data.byteLength === 0) {
    throw invalid(TAG_ERRORS.ARTWORK_INVALID, 'The cover is empty or not binary data.');
  }
  if (artwork.data.byteLength > MAX_ARTWORK_BYTES) {
    throw tooLarge('artwork', `the cover is ${artwork.data.byteLength} bytes; at most ${MAX_ARTWORK_BYTES} fit in every format`);
  }
  const header = sniffImage(artwork.data);
  if (!header) throw invalid(TAG_ERRORS.ARTWORK_INVALID, 'The cover is not a JPEG, PNG, GIF, WebP or BMP image.');
  // Own copy: the caller may reuse its buffer while the write is in flight.
  const data = new Uint8Array(artwork.data);
  return { mime: header.mime, data, info: artworkInfo(data, header.mime) };
}

/** The individual names a display string stands for when no explicit list is given. */
export function deriveNames(display: string | null): string[] {
  if (display === null) return [];
  const parts = splitMultiValue(display);
  return parts.length >= 2 ? parts : [display];
}

/** What a file must read back as after `edit` is applied to a file that read as `before`. */
export function expectedSnapshot(before: TagSnapshot, edit: NormalizedEdit): TagSnapshot {
  const fields = { ...before.fields, ...edit.fields };
  // Several genres are stored as several values, so the display reads back joined.
  if (edit.genres && edit.genres.length > 0) fields.genre = edit.genres.join(MULTI_VALUE_JOINER);
  const people = (displayField: 'artist' | 'albumartist', explicit: string[] | undefined, previous: string[]): string[] => {
    const display = fields[displayField];
    if (display === null) return [];
    if (explicit && explicit.length > 0) return explicit;
    return displayField in edit.fields ? deriveNames(display) : previous;
  };
  return {
    fields,
    artists: people('artist', edit.artists, before.artists),
    albumartists: people('albumartist', edit.albumartists, before.albumartists),
    genres: genresAfter(fields.genre, edit, before.genres),
    artwork: edit.artwork === undefined ? before.artwork : edit.artwork === null ? null : edit.artwork.info,
  };
}

function genresAfter(display: string | null, edit: NormalizedEdit, previous: string[]): string[] {
  if (edit.genres && edit.genres.length > 0) return edit.genres;
  if (!('genre' in edit.fields)) return previous;
  return display === null ? [] : [display];
}

export interface SnapshotDifference {
  what: TagField | 'artists' | 'albumartists' | 'genres' | 'artwork';
  expected: unknown;
  actual: unknown;
}

/**
 * Differences between two snapshots. `lenient` names the parts compared modulo "/": an ID3v2.3 file
 * read through music-metadata reports "A / B" as ["A", "B"], the same bytes upgraded to ID3v2.4 read
 * as ["A / B"]; for parts a write did not touch, both mean the same stored text.
 */
export function diffSnapshots(expected: TagSnapshot, actual: TagSnapshot, lenient: ReadonlySet<SnapshotDifference['what']> = new Set()): SnapshotDifference[] {
  const out: SnapshotDifference[] = [];
  for (const f of EDITABLE_FIELDS) {
    const same = lenient.has(f) ? slashless([expected.fields[f]]) === slashless([actual.fields[f]]) : sameField(f, expected.fields[f], actual.fields[f]);
    if (!same) out.push({ what: f, expected: expected.fields[f], actual: actual.fields[f] });
  }
  for (const list of ['artists', 'albumartists', 'genres'] as const) {
    const same = lenient.has(list) ? slashless(expected[list]) === slashless(actual[list]) : sameList(expected[list], actual[list]);
    if (!same) out.push({ what: list, expected: expected[list], actual: actual[list] });
  }
  if ((expected.artwork?.sha256 ?? null) !== (actual.artwork?.sha256 ?? null)) {
    out.push({ what: 'artwork', expected: expected.artwork?.sha256 ?? null, actual: actual.artwork?.sha256 ?? null });
  }
  return out;
}

const slashless = (values: readonly (string | null)[]): string =>
  values
    .flatMap((v) => (v === null ? [] : v.split('/')))
    .map((v) => v.trim())
    .filter((v) => v !== '')
    .join('/');

/** The parts of a snapshot an edit leaves alone (everything `lenient` may relax). */
export function untouchedParts(edit: NormalizedEdit): Set<SnapshotDifference['what']> {
  const parts = new Set<SnapshotDifference['what']>(EDITABLE_FIELDS.filter((f) => !(f in edit.fields)));
  if (!('artist' in edit.fields) && !edit.artists) parts.add('artists');
  if (!('albumartist' in edit.fields) && !edit.albumartists) parts.add('albumartists');
  if (!('genre' in edit.fields) && !edit.genres) parts.add('genres');
  return parts;
}

function sameField(field: TagField, a: string | null, b: string | null): boolean {
  if (a === b) return true;
  if (a === null || b === null) return false;
  return NUMERIC_FIELDS.has(field) && Number.parseInt(a, 10) === Number.parseInt(b, 10);
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Editable fields whose value differs between two snapshots. */
export function changedFields(before: TagSnapshot, after: TagSnapshot): TagField[] {
  return EDITABLE_FIELDS.filter((f) => !sameField(f, before.fields[f], after.fields[f]));
}

/** The edit that turns a file reading as `current` back into `target` (used by undo). */
export function editTowards(current: TagSnapshot, target: TagSnapshot): Omit<TagEdit, 'artwork'> {
  const fields: Partial<Record<TagField, string | null>> = {};
  for (const f of changedFields(current, target)) fields[f] = target.fields[f];
  const edit: Omit<TagEdit, 'artwork'> = { fields };
  const people = (displayField: 'artist' | 'albumartist', list: 'artists' | 'albumartists') => {
    if (sameList(current[list], target[list])) return;
    fields[displayField] = target.fields[displayField];
    // Only spell the list out when deriving it from the display string would not give it back.
    if (!sameList(deriveNames(target.fields[displayField]), target[list])) edit[list] = target[list];
  };
  people('artist', 'artists');
  people('albumartist', 'albumartists');
  if (!sameList(current.genres, target.genres)) {
    fields.genre = target.fields.genre;
    if (target.genres.length > 1) edit.genres = target.genres;
  }
  return edit;
}
