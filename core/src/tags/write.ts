/**
 * Applying an edit to a file's bytes with taglib-wasm. No safety here: safe-write.ts owns the temp
 * file, the verification and the rename. This file owns "which TagLib keys, which backend, and the
 * gaps we fill ourselves".
 */
import { readFile, writeFile } from 'node:fs/promises';
import type { AudioFile, PropertyMap, TagLib } from 'taglib-wasm';
import type { AudioFormat, TagSnapshot } from './model.ts';
import { profileOf, type FormatProfile, type WriteFamily } from './formats.ts';
import { TAG_MAPPING, canStore, propertyKey, usesNumberPair, type MappedKey } from './mapping.ts';
import { deriveNames, type NormalizedArtwork, type NormalizedEdit } from './edit.ts';
import { releaseAfter, taglibForPictures, taglibForTags, wireKeys } from './taglib.ts';
import { TAG_ERRORS, invalid, unsupported } from './errors.ts';
import { isTagsonicError } from '../errors/index.ts';

/** Covers MP4 can label: iTunes only knows JPEG, PNG, GIF and BMP. */
const MP4_COVER_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/bmp']);

export interface WritePlan {
  path: string;
  format: AudioFormat;
  profile: FormatProfile;
  family: WriteFamily;
  edit: NormalizedEdit;
  before: TagSnapshot;
}

/** Checks up front that the format can hold everything asked, so nothing is ever half-written. */
export function planWrite(path: string, format: AudioFormat, edit: NormalizedEdit, before: TagSnapshot): WritePlan {
  const profile = profileOf(format);
  if (!profile?.writeFamily) {
    throw unsupported(TAG_ERRORS.UNSUPPORTED_FORMAT, `Tagsonic can read ${format} files but not write their tags (${path}).`, { path, format });
  }
  const family = profile.writeFamily;
  const refused = (Object.keys(edit.fields) as MappedKey[]).filter((f) => !canStore(f, family));
  if (refused.length > 0) {
    throw unsupported(TAG_ERRORS.FIELD_UNSUPPORTED, `${format} files cannot hold ${refused.join(', ')} (${path}).`, { path, format, fields: refused });
  }
  if (edit.artwork !== undefined && profile.artwork === 'none') {
    throw unsupported(TAG_ERRORS.ARTWORK_UNSUPPORTED, `Tagsonic does not write covers to ${format} files (${path}).`, { path, format });
  }
  if (edit.artwork && family === 'mp4' && !MP4_COVER_TYPES.has(edit.artwork.mime)) {
    throw unsupported(TAG_ERRORS.ARTWORK_UNSUPPORTED, `MP4 covers must be JPEG, PNG, GIF or BMP, not ${edit.artwork.mime}.`, { path, format });
  }
  return { path, format, profile, family, edit, before };
}

/**
 * The file's new bytes. `scratchPath` is a private temp path the WASI picture pass may use; it is
 * overwritten and the caller replaces it with the returned bytes.
 */
export async function renderEdit(original: Uint8Array, plan: WritePlan, scratchPath: string): Promise<Uint8Array> {
  try {
    return await render(original, plan, scratchPath);
  } finally {
    releaseAfter(original.byteLength);
  }
}

async function render(original: Uint8Array, plan: WritePlan, scratchPath: string): Promise<Uint8Array> {
  const taglib = await taglibForTags();
  let bytes = original;
  let source: TagState | null = null;
  if (plan.edit.artwork !== undefined && plan.profile.artwork === 'taglib-wasi') {
    // The WASI pass rewrites every tag its own lossy way ("1/2" → "1"): take the tags from the
    // original and put them all back after it.
    source = await withFile(taglib, original, plan, (file) => tagState(file));
    bytes = await picturePass(original, plan.edit.artwork, scratchPath);
  }
  let out: Uint8Array = await withFile(taglib, bytes, plan, (file) => {
    applyFields(file, plan, source ?? tagState(file));
    if (plan.edit.artwork !== undefined && plan.profile.artwork === 'taglib') setCover(file, plan.edit.artwork);
    if (!file.save()) throw failed(plan, 'TagLib refused to save it');
    // Copy out of the wasm heap before the handle (and its memory) is released.
    return new Uint8Array(file.getFileBuffer());
  });
  if (plan.family === 'id3v2' && (plan.format === 'mp3' || plan.format === 'mp2') && !endsWithId3v1(original)) out = stripId3v1(out);
  return out;
}

async function withFile<T>(taglib: TagLib, bytes: Uint8Array, plan: WritePlan, work: (file: AudioFile) => T): Promise<T> {
  let file: AudioFile;
  try {
    file = await taglib.open(bytes, { partial: false });
  } catch (err) {
    throw failed(plan, 'TagLib could not open it', err);
  }
  try {
    if (!file.isValid()) throw failed(plan, 'TagLib does not recognise it');
    return work(file);
  } catch (err) {
    throw isTagsonicError(err) ? err : failed(plan, 'TagLib failed while writing', err);
  } finally {
    file.dispose();
  }
}

function failed(plan: WritePlan, why: string, cause?: unknown) {
  const e = invalid(TAG_ERRORS.WRITE_FAILED, `Could not write tags to ${plan.path}: ${why}.`, { path: plan.path, format: plan.format });
  if (cause !== undefined) Object.assign(e, { cause });
  return e;
}

async function picturePass(original: Uint8Array, artwork: NormalizedArtwork | null, scratchPath: string): Promise<Uint8Array> {
  await writeFile(scratchPath, original);
  const taglib = await taglibForPictures();
  const file = await taglib.open(scratchPath);
  try {
    setCover(file, artwork);
    if (!file.save()) throw invalid(TAG_ERRORS.WRITE_FAILED, `Could not write the cover to ${scratchPath}.`);
  } finally {
    file.dispose();
  }
  return new Uint8Array(await readFile(scratchPath));
}

function setCover(file: AudioFile, artwork: NormalizedArtwork | null): void {
  if (artwork === null) file.removePictures();
  else file.setPictures([{ mimeType: artwork.mime, data: artwork.data, type: 'FrontCover', description: '' }]);
}

/** A file's whole PropertyMap in TagLib's own keys, lyrics included. */
interface TagState {
  map: Record<string, string[]>;
  hasLyrics: boolean;
}

function tagState(file: AudioFile): TagState {
  const map: Record<string, string[]> = {};
  for (const [key, values] of Object.entries(file.properties())) {
    if (values && values.length > 0) map[wireKeys[key] ?? key] = [...values];
  }
  // taglib-wasm keeps lyrics out of properties(); they are a PropertyMap key like any other in TagLib.
  const lyrics = file.getLyrics().map((l) => l.text).filter((t) => t !== '');
  if (lyrics.length > 0) map.LYRICS = lyrics;
  return { map, hasLyrics: lyrics.length > 0 };
}

/** Sets the complete PropertyMap (TagLib replaces, not merges): `state` with the edit applied. */
function applyFields(file: AudioFile, plan: WritePlan, state: TagState): void {
  const { edit, family, before } = plan;
  const map = { ...state.map };

  const set = (key: MappedKey, values: string[] | null) => {
    for (const alias of TAG_MAPPING[key].aliases?.[family] ?? []) delete map[alias];
    const prop = propertyKey(key, family);
    if (values && values.length > 0) map[prop] = values;
    else delete map[prop];
  };
  const fields = edit.fields;
  for (const [field, value] of Object.entries(fields) as [MappedKey, string | null][]) {
    switch (field) {
      case 'artist':
      case 'albumartist':
      case 'genre':
      case 'tracknumber':
      case 'totaltracks':
      case 'discnumber':
      case 'totaldiscs':
        break; // written below, together with their companions
      case 'album_type':
        set(field, value === null ? null : value.split(';'));
        break;
      default:
        set(field, value === null ? null : [value]);
    }
  }
  people(set, 'artist', 'artists', fields, edit.artists);
  people(set, 'albumartist', 'albumartists', fields, edit.albumartists);
  if (edit.genres && edit.genres.length > 0) set('genre', edit.genres);
  else if ('genre' in fields) set('genre', fields.genre ? [fields.genre] : null);
  numberPair(set, family, fields, before, 'tracknumber', 'totaltracks');
  numberPair(set, family, fields, before, 'discnumber', 'totaldiscs');

  file.setProperties(map as PropertyMap);
  // setProperties() keeps lyrics it is not given; clearing them takes an explicit call.
  if (!('LYRICS' in map) && (state.hasLyrics || file.getLyrics().length > 0)) file.setLyrics([]);
}

type Setter = (key: MappedKey, values: string[] | null) => void;

/**
 * The display string goes to ARTIST as typed; the individual names go to Picard's ARTISTS (TXXX:ARTISTS,
 * ARTISTS comment, iTunes freeform) — only when there are several, or when the caller spelled them out.
 */
function people(set: Setter, display: 'artist' | 'albumartist', list: 'artists' | 'albumartists', fields: NormalizedEdit['fields'], explicit: string[] | undefined) {
  const edited = display in fields;
  if (!edited && !explicit) return;
  if (edited) set(display, fields[display] ? [fields[display]!] : null);
  if (edited && fields[display] === null) {
    set(list, null);
    return;
  }
  if (explicit && explicit.length > 0) {
    set(list, explicit);
    return;
  }
  const derived = deriveNames(fields[display] ?? null);
  set(list, derived.length >= 2 ? derived : null);
}

/** Number and total travel together: "n/total" in ID3/MP4/APE/ASF, two comments in Vorbis. */
function numberPair(set: Setter, family: WriteFamily, fields: NormalizedEdit['fields'], before: TagSnapshot, numberField: 'tracknumber' | 'discnumber', totalField: 'totaltracks' | 'totaldiscs') {
  if (!(numberField in fields) && !(totalField in fields)) return;
  const no = numberField in fields ? fields[numberField]! : before.fields[numberField];
  const of = totalField in fields ? fields[totalField]! : before.fields[totalField];
  if (usesNumberPair(family)) {
    set(numberField, no === null && of === null ? null : [of === null ? (no as string) : `${no ?? 0}/${of}`]);
    return;
  }
  set(numberField, no === null ? null : [no]);
  set(totalField, of === null ? null : [of]);
}

function endsWithId3v1(b: Uint8Array): boolean {
  return b.length >= 128 && b[b.length - 128] === 0x54 && b[b.length - 127] === 0x41 && b[b.length - 126] === 0x47;
}

/** TagLib adds an ID3v1 tag to every MP3 it saves; a file that had none keeps having none. */
function stripId3v1(b: Uint8Array): Uint8Array {
  return endsWithId3v1(b) ? b.subarray(0, b.length - 128) : b;
}
