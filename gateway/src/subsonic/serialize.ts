/**
 * Turns a SubsonicResponse into the bytes a client asked for: XML (the default), JSON (`f=json`) or
 * JSONP (`f=jsonp&callback=name`). The model is the same tree for all three; this file holds the
 * only XML rules that are not "scalar = attribute, object/array = element, `value` = text".
 */
import { hiddenSlot } from '@tagsonic/core';
import type { SubsonicResponse } from './model.ts';

export type Format = 'xml' | 'json' | 'jsonp';

const XMLNS = 'http://subsonic.org/restapi';

/**
 * String fields that Subsonic writes as child elements with text rather than attributes, per parent
 * element (the same names are attributes elsewhere, e.g. a song's `musicBrainzId`).
 */
const TEXT_ELEMENTS: Readonly<Record<string, ReadonlySet<string>>> = {
  artistInfo: new Set(['biography', 'musicBrainzId', 'lastFmUrl', 'smallImageUrl', 'mediumImageUrl', 'largeImageUrl']),
  artistInfo2: new Set(['biography', 'musicBrainzId', 'lastFmUrl', 'smallImageUrl', 'mediumImageUrl', 'largeImageUrl']),
  albumInfo: new Set(['notes', 'musicBrainzId', 'lastFmUrl', 'smallImageUrl', 'mediumImageUrl', 'largeImageUrl']),
};

/** The envelope keys written as attributes of the root element, in this order. */
const ROOT_ATTRIBUTES = ['status', 'version', 'type', 'serverVersion', 'openSubsonic'] as const;

// XML 1.0 cannot carry most control characters even escaped: tags sometimes hold them, so drop them.
const INVALID_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function escapeXml(s: string): string {
  return s.replace(INVALID_XML, '').replace(/[&<>"']/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&apos;'));
}

const isScalar = (v: unknown): v is string | number | boolean | Date => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v instanceof Date;

function scalarText(v: string | number | boolean | Date): string {
  if (v instanceof Date) return v.toISOString();
  return String(v);
}

function element(name: string, value: unknown, out: string[]): void {
  if (value === undefined || value === null) return;
  if (isScalar(value)) {
    out.push(`<${name}>${escapeXml(scalarText(value))}</${name}>`);
    return;
  }
  const textFields = TEXT_ELEMENTS[name];
  const attrs: string[] = [];
  const children: string[] = [];
  let text: string | undefined;
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (v === undefined || v === null) continue;
    if (key === 'value' && isScalar(v)) text = escapeXml(scalarText(v));
    else if (Array.isArray(v)) for (const item of v) element(key, item, children);
    else if (isScalar(v) && !textFields?.has(key)) attrs.push(` ${key}="${escapeXml(scalarText(v))}"`);
    else element(key, v, children);
  }
  const open = `<${name}${attrs.join('')}`;
  if (text === undefined && children.length === 0) out.push(`${open}/>`);
  else out.push(`${open}>${text ?? ''}${children.join('')}</${name}>`);
}

export function toXml(response: SubsonicResponse): string {
  const attrs = [` xmlns="${XMLNS}"`];
  for (const key of ROOT_ATTRIBUTES) attrs.push(` ${key}="${escapeXml(scalarText(response[key]))}"`);
  const children: string[] = [];
  for (const [key, v] of Object.entries(response)) {
    if ((ROOT_ATTRIBUTES as readonly string[]).includes(key)) continue;
    if (Array.isArray(v)) for (const item of v) element(key, item, children);
    else element(key, v, children);
  }
  const body = children.length ? `>${children.join('')}</subsonic-response>` : '/>';
  return `<?xml version="1.0" encoding="UTF-8"?>\n<subsonic-response${attrs.join('')}${body}`;
}

/**
 * Song, album and artist lists are most of what clients ask for, and `JSON.stringify` of 50 songs,
 * then encoding that text to UTF-8, costs more than the rest of such a request. An item marked by
 * `markCached` is written from cached UTF-8 bytes of everything but the caller's own marks, kept per
 * source document, item shape and library revision; the marks are appended. Anything unmarked (or
 * copied from a marked item: the mark does not survive a spread) goes through `JSON.stringify` as
 * usual. The response is assembled as bytes: cached items are copied, never encoded again.
 */
/** The item fields that depend on who asks; everything else depends on the source document only. */
const USER_FIELDS = ['userRating', 'playCount', 'starred', 'played'] as const;

interface ItemText {
  rev: unknown;
  /** UTF-8 JSON of the item without the user fields and without the closing brace. */
  head: Buffer;
  /** The item has no field but user fields. */
  empty: boolean;
}

/** What an item was built from: everything but its user fields follows from it and its revision. */
export interface ItemSource {
  readonly rev: unknown;
}

/** One cache per item shape: the same album document gives an `AlbumID3` and a folder-style `Child`. */
export type ItemShape = 'song' | 'albumID3' | 'albumChild' | 'artistID3' | 'indexArtist';

const newTexts = (): Record<ItemShape, WeakMap<ItemSource, ItemText>> => ({
  song: new WeakMap(),
  albumID3: new WeakMap(),
  albumChild: new WeakMap(),
  artistID3: new WeakMap(),
  indexArtist: new WeakMap(),
});

/**
 * What the cached texts may hold in all: a client syncing a whole 100k-song library would otherwise
 * leave ~1 KB per song behind. Past the budget the caches start over empty (the hot items come back
 * at the next request that needs them).
 */
const CACHE_BUDGET_BYTES = 32 * 1024 * 1024;
let texts = newTexts();
let cachedBytes = 0;

/** Bytes the item caches hold now (for tests and diagnostics). */
export const itemCacheBytes = (): number => cachedBytes;

function remember(mark: Mark, text: ItemText): void {
  cachedBytes += text.head.length + 64;
  if (cachedBytes > CACHE_BUDGET_BYTES) {
    texts = newTexts();
    cachedBytes = 0;
    return;
  }
  mark.texts.set(mark.source, text);
}

interface Mark {
  source: ItemSource;
  texts: WeakMap<ItemSource, ItemText>;
}

/** Marks live in a hidden slot: a copy of an item is not marked. */
const marks = hiddenSlot<Mark>();

export function markCached<T extends object>(item: T, shape: ItemShape, source: ItemSource): T {
  return marks.set(item, { source, texts: texts[shape] });
}

const markOf = (value: object): Mark | undefined => marks.get(value);

const isMarked = (v: unknown): boolean => v !== null && typeof v === 'object' && markOf(v) !== undefined;

/** Collects a response as UTF-8: text is gathered and encoded in runs, cached bytes are appended as they are. */
class Utf8Writer {
  private readonly parts: Buffer[] = [];
  private pending = '';
  private size = 0;

  text(s: string): void {
    this.pending += s;
  }

  bytes(b: Buffer): void {
    if (this.pending) this.flush();
    this.parts.push(b);
    this.size += b.length;
  }

  private flush(): void {
    const b = Buffer.from(this.pending);
    this.parts.push(b);
    this.size += b.length;
    this.pending = '';
  }

  finish(): Buffer {
    if (this.pending || this.parts.length === 0) this.flush();
    return this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.size);
  }
}

function writeItem(item: Record<string, unknown>, mark: Mark, out: Utf8Writer): void {
  let text = mark.texts.get(mark.source);
  if (!text || text.rev !== mark.source.rev) {
    const rest: Record<string, unknown> = { ...item };
    for (const key of USER_FIELDS) delete rest[key];
    const json = JSON.stringify(rest);
    text = { rev: mark.source.rev, head: ownBytes(json.slice(0, -1)), empty: json === '{}' };
    remember(mark, text);
  }
  out.bytes(text.head);
  let tail = '';
  let comma = !text.empty;
  for (const key of USER_FIELDS) {
    const v = item[key];
    if (v === undefined) continue;
    tail += `${comma ? ',' : ''}"${key}":${JSON.stringify(v)}`;
    comma = true;
  }
  out.text(`${tail}}`);
}

/**
 * UTF-8 bytes in a buffer of their own. `Buffer.from` puts short strings in slices of shared 8 KiB
 * slabs, and one cached item kept its whole slab (the transient pieces of the responses it shared it
 * with included) alive: the caches held about three times the bytes they counted.
 */
function ownBytes(s: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(s));
  bytes.write(s);
  return bytes;
}

/** Writes a value as `JSON.stringify` would, using the item cache inside objects and arrays. */
function writeJson(value: unknown, out: Utf8Writer): void {
  if (value === null || typeof value !== 'object' || value instanceof Date) {
    out.text(JSON.stringify(value) ?? 'null');
    return;
  }
  if (Array.isArray(value)) {
    if (!value.some(isMarked)) {
      out.text(JSON.stringify(value));
      return;
    }
    out.text('[');
    value.forEach((v, i) => {
      if (i > 0) out.text(',');
      writeJson(v, out);
    });
    out.text(']');
    return;
  }
  const mark = markOf(value);
  if (mark) {
    writeItem(value as Record<string, unknown>, mark, out);
    return;
  }
  out.text('{');
  let first = true;
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
    out.text(`${first ? '' : ','}${JSON.stringify(key)}:`);
    first = false;
    writeJson(v, out);
  }
  out.text('}');
}

/** The UTF-8 JSON of a response, optionally wrapped (JSONP). */
export function toJson(response: SubsonicResponse, prefix = '', suffix = ''): Buffer {
  // Dates serialise through Date#toJSON (ISO 8601); lone surrogates are escaped by JSON.stringify.
  const out = new Utf8Writer();
  out.text(`${prefix}{"subsonic-response":`);
  writeJson(response, out);
  out.text(`}${suffix}`);
  return out.finish();
}

/** A JSONP callback must be a plain (dotted) JavaScript name: anything else could inject script. */
export const JSONP_CALLBACK = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;

/** The response as UTF-8 bytes: a string body would be measured (Content-Length) and then encoded again. */
export function serialize(response: SubsonicResponse, format: Format, callback?: string): { contentType: string; body: Buffer } {
  if (format === 'json') return { contentType: 'application/json; charset=utf-8', body: toJson(response) };
  if (format === 'jsonp' && callback !== undefined && JSONP_CALLBACK.test(callback)) {
    return { contentType: 'application/javascript; charset=utf-8', body: toJson(response, `${callback}(`, ');') };
  }
  return { contentType: 'text/xml; charset=utf-8', body: Buffer.from(toXml(response)) };
}

/** The format a request asked for; an unknown `f` falls back to XML like the reference server. */
export function formatOf(f: string | undefined): Format {
  return f === 'json' ? 'json' : f === 'jsonp' ? 'jsonp' : 'xml';
}
