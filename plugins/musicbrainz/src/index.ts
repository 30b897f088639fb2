/**
 * MusicBrainz (https://musicbrainz.org) as a tag source: `search` asks the WS/2 recording search
 * (`GET /ws/2/recording?query=…&fmt=json`) with a Lucene query on title, artist and album, and returns one
 * candidate per (recording, release) — the same recording on the album, the single and a compilation differ in
 * album, year and track number, and the user picks which. The cover is the release's full-resolution front image
 * on the Cover Art Archive; its URL is built, not fetched (a release without art 404s when the host downloads it).
 * MusicBrainz has no lyrics. The runtime paces this plugin at 1 request per second, as MusicBrainz requires.
 *
 * Everything MusicBrainz answers is checked before use: a field that is missing or of another type means the API
 * changed, and is reported as `response shape changed: <field>` so the /mod screen says what broke.
 */
import { defineTagSource, PluginError, type HttpCapability, type Manifest, type SearchResultSong } from '@tagsonic/sdk';
import manifest from '../manifest.json' with { type: 'json' };

/** The public service; the administrator's base URL (`TAGSONIC_SOURCE_URL_MUSICBRAINZ` or settings) wins over it. */
const DEFAULT_BASE_URL = 'https://musicbrainz.org';
const SEARCH_PATH = '/ws/2/recording';

/** Covers: `/release/<mbid>/front` redirects to the original upload (full resolution, not a thumbnail). */
const COVER_ART_ARCHIVE = 'https://coverartarchive.org';

/**
 * MusicBrainz blocks anonymous clients: the User-Agent must name the application, its version and a contact
 * (https://musicbrainz.org/doc/MusicBrainz_API/Rate_Limiting#Provide_meaningful_User-Agent_strings).
 */
const USER_AGENT = `Tagsonic-musicbrainz/${manifest.version} ( Tagsonic tag source; https://musicbrainz.org/doc/MusicBrainz_API )`;

/** WS/2 answers at most 100 results per page. */
const MAX_LIMIT = 100;

/** This plugin's grants, for typed `caps` (the manifest itself is the JSON file beside `src/`). */
type MusicBrainzManifest = Manifest & { permissions: { http: NonNullable<Manifest['permissions']['http']> } };

/** The fields of one search hit that Tagsonic uses, checked. */
interface Recording {
  id: string;
  title: string;
  /** Milliseconds; absent when nobody entered it. */
  length: number | null;
  artist: string | null;
  releases: Release[];
}

interface Release {
  id: string;
  title: string;
  date: string | null;
  /** The medium holding this recording (search results list only that one), or null when none is listed. */
  medium: { position: number | null; trackCount: number | null; trackNumber: number | null } | null;
  mediumCount: number | null;
}

const upstream = (message: string, details?: Record<string, unknown>) => new PluginError('TAGSONIC_ERR_PLUGIN_UPSTREAM', message, details);
const shapeChanged = (field: string) => upstream(`response shape changed: ${field}`, { field });

/**
 * One Lucene phrase for `field`: inside double quotes only `"` and `\` are special, so escaping those two keeps
 * `AC/DC`, `Don't Stop (Live)` or `a AND b` a literal phrase instead of query syntax.
 */
const phrase = (field: string, value: string) => `${field}:"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

/** The WS/2 query: title always, artist and album only when known (each term filters). */
function recordingQuery(title: string, artist: string, album: string): string {
  const terms = [phrase('recording', title)];
  if (artist) terms.push(phrase('artist', artist));
  if (album) terms.push(phrase('release', album));
  return terms.join(' AND ');
}

/**
 * GETs the recording search and returns its JSON. The body is read as text and parsed here, so an HTML error
 * page (a 503 from the rate limiter, a 502 from the proxy) is reported by its HTTP status rather than as "not JSON".
 */
async function searchJson(caps: { http: HttpCapability }, query: string, limit: number): Promise<unknown> {
  const base = caps.http.baseUrl ?? DEFAULT_BASE_URL;
  const { status, body } = await caps.http.fetch({
    url: `${base}${SEARCH_PATH}`,
    query: { query, fmt: 'json', limit: String(limit) },
    headers: { 'user-agent': USER_AGENT, accept: 'application/json' },
    responseType: 'text',
  });
  if (status !== 200) throw upstream(`MusicBrainz answered HTTP ${status} to ${SEARCH_PATH}.`, { status });
  try {
    return JSON.parse(String(body));
  } catch {
    throw shapeChanged('(not JSON)');
  }
}

type Fields = Record<string, unknown>;

function object(value: unknown, at: string): Fields {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw shapeChanged(at);
  return value as Fields;
}

function array(value: unknown, at: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw shapeChanged(at);
  return value;
}

function string(v: Fields, name: string, at: string): string {
  if (typeof v[name] !== 'string') throw shapeChanged(`${at}.${name}`);
  return v[name] as string;
}

function optionalString(v: Fields, name: string, at: string): string | null {
  if (v[name] === undefined || v[name] === null) return null;
  if (typeof v[name] !== 'string') throw shapeChanged(`${at}.${name}`);
  return (v[name] as string) || null;
}

/** A non-negative integer, or null when absent. */
function optionalInteger(v: Fields, name: string, at: string): number | null {
  if (v[name] === undefined || v[name] === null) return null;
  if (typeof v[name] !== 'number' || !Number.isSafeInteger(v[name]) || (v[name] as number) < 0) throw shapeChanged(`${at}.${name}`);
  return v[name] as number;
}

/** Counts and positions start at 1: a 0 means "not entered", which SearchResultSong says as null. */
const optionalCount = (v: Fields, name: string, at: string): number | null => optionalInteger(v, name, at) || null;

/** "Simon & Garfunkel", "Jay-Z feat. Alicia Keys": each credited name followed by its join phrase. */
function artistCredit(value: unknown, at: string): string | null {
  const text = array(value, at).map((item, i) => {
    const credit = object(item, `${at}[${i}]`);
    return string(credit, 'name', `${at}[${i}]`) + (optionalString(credit, 'joinphrase', `${at}[${i}]`) ?? '');
  }).join('').trim();
  return text || null;
}

/**
 * The track number on its medium: `position` when given; else `number` when it is plain digits (vinyl sides
 * number tracks "A1", which is no track number); else the medium's 0-based `track-offset` + 1.
 */
function trackNumber(medium: Fields, at: string): number | null {
  const track = array(medium.track, `${at}.track`)[0];
  if (track !== undefined) {
    const t = object(track, `${at}.track[0]`);
    const position = optionalCount(t, 'position', `${at}.track[0]`);
    if (position !== null) return position;
    const number = optionalString(t, 'number', `${at}.track[0]`);
    if (number !== null && /^\d{1,4}$/.test(number.trim())) return Number(number.trim()) || null;
  }
  const offset = optionalInteger(medium, 'track-offset', at);
  return offset === null ? null : offset + 1;
}

function release(value: unknown, at: string): Release {
  const r = object(value, at);
  const media = array(r.media, `${at}.media`);
  const m = media.length > 0 ? object(media[0], `${at}.media[0]`) : null;
  return {
    id: string(r, 'id', at),
    title: string(r, 'title', at),
    date: optionalString(r, 'date', at),
    medium: m === null ? null : {
      position: optionalCount(m, 'position', `${at}.media[0]`),
      trackCount: optionalCount(m, 'track-count', `${at}.media[0]`),
      trackNumber: trackNumber(m, `${at}.media[0]`),
    },
    mediumCount: optionalCount(r, 'medium-count', at),
  };
}

function recording(value: unknown, at: string): Recording {
  const r = object(value, at);
  if (r.length !== undefined && r.length !== null && (typeof r.length !== 'number' || !(r.length >= 0))) throw shapeChanged(`${at}.length`);
  return {
    id: string(r, 'id', at),
    title: string(r, 'title', at),
    length: typeof r.length === 'number' && r.length > 0 ? r.length : null,
    artist: artistCredit(r['artist-credit'], `${at}.artist-credit`),
    releases: array(r.releases, `${at}.releases`).map((item, i) => release(item, `${at}.releases[${i}]`)),
  };
}

/** MusicBrainz MBIDs are UUIDs; anything else would make a cover URL into some other path. */
const MBID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One candidate per release the recording is on; a recording on no release still is one (album unknown). */
function toSongs(rec: Recording): SearchResultSong[] {
  const duration = rec.length === null ? null : Math.round(rec.length / 1000);
  const base = { name: rec.title, artist: rec.artist, duration, resource: manifest.id };
  if (rec.releases.length === 0) {
    return [{ ...base, id: rec.id, album: null, album_img: null, year: null, tracknumber: null, totaltracks: null, discnumber: null, totaldiscs: null }];
  }
  return rec.releases.map((rel) => ({
    ...base,
    // Both ids: the recording says which song, the release which pressing of it the tags came from.
    id: `${rec.id}/${rel.id}`,
    album: rel.title || null,
    album_img: MBID.test(rel.id) ? `${COVER_ART_ARCHIVE}/release/${rel.id}/front` : null,
    year: rel.date,
    tracknumber: rel.medium?.trackNumber ?? null,
    totaltracks: rel.medium?.trackCount ?? null,
    discnumber: rel.medium?.position ?? null,
    totaldiscs: rel.mediumCount,
  }));
}

export default defineTagSource<MusicBrainzManifest>({
  async search({ title, artist, album, duration, limit }, caps) {
    // MusicBrainz searches by recording title; no title means nothing to look for.
    if (!title?.trim() || !(limit > 0)) return [];
    const body = object(
      await searchJson(caps, recordingQuery(title.trim(), artist?.trim() ?? '', album?.trim() ?? ''), Math.min(MAX_LIMIT, Math.ceil(limit))),
      '(root object)',
    );
    if (!Array.isArray(body.recordings)) throw shapeChanged('recordings');
    const songs = body.recordings.map((item, i) => recording(item, `recordings[${i}]`)).flatMap(toSongs);
    // The file's duration, when known, puts the right edit of a song first (radio edit vs album version);
    // the sort is stable, so MusicBrainz's own relevance order stays among equals.
    if (typeof duration === 'number' && duration > 0) {
      const distance = (s: SearchResultSong) => (s.duration == null ? Number.POSITIVE_INFINITY : Math.abs(s.duration - duration));
      songs.sort((a, b) => distance(a) - distance(b));
    }
    return songs.slice(0, limit);
  },
});
