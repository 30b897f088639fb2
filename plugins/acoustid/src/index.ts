/**
 * AcoustID (https://acoustid.org) as a tag source: `search` fingerprints the file being tagged (`options.path`,
 * through the host's `fingerprint` capability: fpcalc, confined to the media roots) and POSTs the fingerprint to
 * `/v2/lookup` with `meta=recordings releasegroups releases tracks`, so one request returns the matching
 * MusicBrainz recordings with every release they are on and the track's place on it. One candidate per
 * (recording, release), best AcoustID score first; the cover is the release's full-resolution front image on the
 * Cover Art Archive (built, not fetched). Without a file there is nothing to listen to, so the search is empty.
 * The runtime paces this plugin at 3 requests per second, as AcoustID allows.
 *
 * Everything AcoustID answers is checked before use: a field that is missing or of another type means the API
 * changed, and is reported as `response shape changed: <field>` so the /mod screen says what broke.
 */
import { defineTagSource, PluginError, type FingerprintCapability, type HttpCapability, type Manifest, type SearchResultSong } from '@tagsonic/sdk';
import manifest from '../manifest.json' with { type: 'json' };

/** The public service; the administrator's base URL (`TAGSONIC_SOURCE_URL_ACOUSTID` or settings) wins over it. */
const DEFAULT_BASE_URL = 'https://api.acoustid.org';
const LOOKUP_PATH = '/v2/lookup';
const META = 'recordings releasegroups releases tracks';
const COVER_ART_ARCHIVE = 'https://coverartarchive.org';
const USER_AGENT = `Tagsonic-acoustid/${manifest.version}`;

type AcoustidManifest = Manifest & {
  permissions: { http: NonNullable<Manifest['permissions']['http']>; fingerprint: NonNullable<Manifest['permissions']['fingerprint']> };
};
type Caps = { http: HttpCapability; fingerprint: FingerprintCapability; config: { get(): Promise<Record<string, unknown>> } };

const upstream = (message: string, details?: Record<string, unknown>) => new PluginError('TAGSONIC_ERR_PLUGIN_UPSTREAM', message, details);
const shapeChanged = (field: string) => upstream(`response shape changed: ${field}`, { field });

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

function optionalString(v: Fields, name: string, at: string): string | null {
  if (v[name] === undefined || v[name] === null) return null;
  if (typeof v[name] !== 'string') throw shapeChanged(`${at}.${name}`);
  return (v[name] as string) || null;
}

function string(v: Fields, name: string, at: string): string {
  const value = optionalString(v, name, at);
  if (value === null) throw shapeChanged(`${at}.${name}`);
  return value;
}

/** A positive number, or null when absent or 0 ("not entered"). */
function optionalCount(v: Fields, name: string, at: string): number | null {
  if (v[name] === undefined || v[name] === null) return null;
  if (typeof v[name] !== 'number' || !Number.isFinite(v[name]) || (v[name] as number) < 0) throw shapeChanged(`${at}.${name}`);
  return (v[name] as number) || null;
}

/** "Simon & Garfunkel": each artist's name followed by its join phrase (AcoustID gives MusicBrainz's credits). */
function artists(value: unknown, at: string): string | null {
  const list = array(value, at).map((item, i) => object(item, `${at}[${i}]`));
  const text = list.map((a, i) => string(a, 'name', `${at}[${i}]`) + (optionalString(a, 'joinphrase', `${at}[${i}]`) ?? (i < list.length - 1 ? '; ' : ''))).join('').trim();
  return text || null;
}

/** `{ year: 1965, month: 8, day: 6 }` → `1965-08-06`; a year alone → `1965`. */
function date(value: unknown, at: string): string | null {
  if (value === undefined || value === null) return null;
  const d = object(value, at);
  const year = optionalCount(d, 'year', at);
  if (year === null) return null;
  const month = optionalCount(d, 'month', at);
  const day = optionalCount(d, 'day', at);
  const pad = (n: number) => String(n).padStart(2, '0');
  return month === null ? String(year) : day === null ? `${year}-${pad(month)}` : `${year}-${pad(month)}-${pad(day)}`;
}

const MBID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The candidates of one recording: one per release it is on (a recording on none is one, album unknown). */
function recordingSongs(value: unknown, at: string): SearchResultSong[] {
  const rec = object(value, at);
  const id = string(rec, 'id', at);
  // With meta=recordings, a recording nobody has described in MusicBrainz comes back as its id alone.
  const title = optionalString(rec, 'title', at);
  if (title === null) return [];
  const base = { name: title, artist: artists(rec.artists, `${at}.artists`), duration: optionalCount(rec, 'duration', at), resource: manifest.id };
  const songs: SearchResultSong[] = [];
  array(rec.releasegroups, `${at}.releasegroups`).forEach((group, g) => {
    const rgAt = `${at}.releasegroups[${g}]`;
    const rg = object(group, rgAt);
    const groupTitle = optionalString(rg, 'title', rgAt);
    array(rg.releases, `${rgAt}.releases`).forEach((item, r) => {
      const relAt = `${rgAt}.releases[${r}]`;
      const rel = object(item, relAt);
      const releaseId = string(rel, 'id', relAt);
      // The medium listing this recording's track (meta=tracks lists only that track on each medium).
      const media = array(rel.mediums, `${relAt}.mediums`).map((m, i) => object(m, `${relAt}.mediums[${i}]`));
      const mediumIndex = media.findIndex((m, i) => array(m.tracks, `${relAt}.mediums[${i}].tracks`).length > 0);
      const medium = mediumIndex < 0 ? null : media[mediumIndex]!;
      const mAt = `${relAt}.mediums[${mediumIndex}]`;
      const track = medium === null ? null : object(array(medium.tracks, `${mAt}.tracks`)[0], `${mAt}.tracks[0]`);
      songs.push({
        ...base,
        id: `${id}/${releaseId}`,
        album: optionalString(rel, 'title', relAt) ?? groupTitle,
        album_img: MBID.test(releaseId) ? `${COVER_ART_ARCHIVE}/release/${releaseId}/front` : null,
        year: date(rel.date, `${relAt}.date`),
        tracknumber: track === null ? null : optionalCount(track, 'position', `${mAt}.tracks[0]`),
        totaltracks: medium === null ? optionalCount(rel, 'track_count', relAt) : optionalCount(medium, 'track_count', mAt),
        discnumber: medium === null ? null : optionalCount(medium, 'position', mAt),
        totaldiscs: optionalCount(rel, 'medium_count', relAt),
      });
    });
  });
  if (songs.length === 0) {
    songs.push({ ...base, id, album: null, album_img: null, year: null, tracknumber: null, totaltracks: null, discnumber: null, totaldiscs: null });
  }
  return songs;
}

/** POSTs the lookup (fingerprints are long: a form body, as AcoustID recommends) and returns the checked results. */
async function lookup(caps: Caps, client: string, fingerprint: string, duration: number): Promise<unknown[]> {
  const base = caps.http.baseUrl ?? DEFAULT_BASE_URL;
  // Built by hand: the sandbox is plain V8, without URLSearchParams.
  const fields: Record<string, string> = { client, duration: String(Math.round(duration)), fingerprint, meta: META, format: 'json' };
  const form = Object.entries(fields).map(([k, v]) => `${k}=${encodeURIComponent(v).replace(/%20/g, '+')}`).join('&');
  const { status, body } = await caps.http.fetch({
    url: `${base}${LOOKUP_PATH}`,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': USER_AGENT, accept: 'application/json' },
    body: form,
    responseType: 'text',
  });
  let parsed: unknown;
  try {
    parsed = JSON.parse(String(body));
  } catch {
    throw status === 200 ? shapeChanged('(not JSON)') : upstream(`AcoustID answered HTTP ${status} to ${LOOKUP_PATH}.`, { status });
  }
  const root = object(parsed, '(root object)');
  if (root.status === 'error') {
    // e.g. { code: 4, message: 'invalid API key' }: AcoustID's own words name the problem.
    const error = object(root.error, 'error');
    const message = optionalString(error, 'message', 'error') ?? 'unknown error';
    if (error.code === 4) throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', `AcoustID refused the client API key (${message}); check it on the plugin page.`, { status, code: 4 });
    throw upstream(`AcoustID answered an error: ${message}`, { status, code: typeof error.code === 'number' ? error.code : null });
  }
  if (status !== 200) throw upstream(`AcoustID answered HTTP ${status} to ${LOOKUP_PATH}.`, { status });
  if (root.status !== 'ok') throw shapeChanged('status');
  if (!Array.isArray(root.results)) throw shapeChanged('results');
  return root.results;
}

export default defineTagSource<AcoustidManifest>({
  async search({ path, limit }, caps) {
    if (!path || !(limit > 0)) return [];
    const { client_key: client } = await caps.config.get();
    if (typeof client !== 'string' || !client.trim()) {
      throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', 'AcoustID needs a client API key: set it on the plugin page (free at https://acoustid.org/new-application).');
    }
    const { fingerprint, duration } = await caps.fingerprint.compute({ path });
    const results = await lookup(caps, client.trim(), fingerprint, duration);
    const scored = results.map((item, i) => {
      const result = object(item, `results[${i}]`);
      if (typeof result.score !== 'number') throw shapeChanged(`results[${i}].score`);
      return { score: result.score, songs: array(result.recordings, `results[${i}].recordings`).flatMap((rec, j) => recordingSongs(rec, `results[${i}].recordings[${j}]`)) };
    });
    // Best fingerprint match first (the sort is stable: AcoustID's own order among equals); each (recording,
    // release) once, even when two AcoustID tracks point at the same recording.
    scored.sort((a, b) => b.score - a.score);
    const seen = new Set<string>();
    const songs = scored.flatMap((r) => r.songs).filter((s) => !seen.has(s.id) && seen.add(s.id));
    return songs.slice(0, limit);
  },
});
