/**
 * The capabilities the host injects into a plugin. The host builds them from the manifest's grants and
 * re-checks every call, so a capability the manifest does not grant is simply absent. Each call takes one
 * options object and returns one result, always asynchronously; "no data" is `null`, and failure throws a
 * {@link PluginError} with a code. Values cross the sandbox boundary as copies: JSON values and `Uint8Array`.
 */
import type { Manifest } from './manifest.ts';
import type { SearchOptions, SearchResultSong } from './songs.ts';

/**
 * A value that can cross the sandbox boundary and be stored in {@link KvCapability}.
 *
 * @example
 * const token: JsonValue = { access_token: 'abc', expires_at: 1767225600000 };
 */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

// ---------------------------------------------------------------- http

/**
 * A query value; `null` and `undefined` are left out, an array repeats the key (`inc=a&inc=b`).
 *
 * @example
 * const query: Record<string, QueryValue | readonly QueryValue[]> = { query: 'Yesterday', limit: 10, inc: ['artists', 'releases'] };
 */
export type QueryValue = string | number | boolean | null | undefined;

/**
 * A request to a granted host. `query` is appended to the URL's own query; a `string` or `Uint8Array`
 * body is sent as is, any other value as JSON (with `content-type: application/json` unless `headers`
 * says otherwise).
 *
 * @example
 * const request: HttpRequest = {
 *   url: 'https://lrclib.net/api/search',
 *   query: { track_name: 'Yesterday', artist_name: 'The Beatles' },
 *   headers: { 'user-agent': 'tagsonic-lrclib/1.0' },
 *   responseType: 'json',
 *   timeoutMs: 8000,
 * };
 */
export interface HttpRequest {
  /** An absolute `http:` or `https:` URL on a granted host (or under {@link HttpCapability.baseUrl}). */
  url: string;
  /** Defaults to `GET`. */
  method?: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
  headers?: Record<string, string>;
  query?: Record<string, QueryValue | readonly QueryValue[]>;
  body?: string | Uint8Array | JsonValue;
  /** The whole request, redirects and body included; capped by (and defaulting to) the host's limit. */
  timeoutMs?: number;
  /** How the body comes back: parsed JSON, UTF-8 text (the default) or bytes. */
  responseType?: 'json' | 'text' | 'bytes';
}

/**
 * A response. Any status, 404 and 500 included, is a response, not a failure: the plugin decides what it
 * means (a tag source usually returns `null` on 404). Header names are lowercase, repeated headers are
 * joined with `, `, and `set-cookie` is never passed on.
 *
 * @example
 * const response: HttpResponse<string> = { status: 200, headers: { 'content-type': 'text/plain' }, body: 'ok', url: 'https://lrclib.net/api/get/1' };
 */
export interface HttpResponse<Body> {
  status: number;
  headers: Record<string, string>;
  body: Body;
  /** The URL that answered, after redirects. */
  url: string;
}

/**
 * Outgoing HTTP to the hosts the manifest grants only, checked on the resolved address at connect time
 * and again on every redirect; loopback, private, link-local and metadata addresses are refused unless
 * granted. Requests are paced by a per-plugin rate limit. Throws a {@link PluginError} with one of the
 * codes of the `PLUGIN_HTTP_` family (see {@link PluginErrorCode}).
 *
 * @example
 * const base = caps.http.baseUrl ?? 'https://itunes.apple.com';
 * const { status, body } = await caps.http.fetch({ url: `${base}/search`, query: { term }, responseType: 'json' });
 * if (status !== 200) throw new PluginError('TAGSONIC_ERR_PLUGIN_UPSTREAM', `iTunes answered HTTP ${status}`, { status });
 */
export interface HttpCapability {
  /**
   * The administrator's base URL for this source (settings, or `TAGSONIC_SOURCE_URL_<ID>`), or `null`.
   * A source must use it instead of its built-in one when set: self-hosted mirrors are reached this way,
   * and it is granted even on loopback.
   */
  readonly baseUrl: string | null;
  fetch(request: HttpRequest & { responseType: 'json' }): Promise<HttpResponse<JsonValue>>;
  fetch(request: HttpRequest & { responseType: 'bytes' }): Promise<HttpResponse<Uint8Array>>;
  fetch(request: HttpRequest & { responseType?: 'text' }): Promise<HttpResponse<string>>;
}

// ---------------------------------------------------------------- tags

/**
 * Embedded cover art.
 *
 * @example
 * const artwork: Artwork = { mime: 'image/jpeg', data: new Uint8Array(jpegBytes) };
 */
export interface Artwork {
  mime: 'image/jpeg' | 'image/png';
  data: Uint8Array;
}

/**
 * A track's tags, by the spec's field names. Numbers are numbers; a missing tag is `null`.
 *
 * @example
 * const tags: Partial<TrackTags> = { title: 'Yesterday', artist: 'The Beatles', tracknumber: 13, year: '1965' };
 */
export interface TrackTags {
  title: string | null;
  artist: string | null;
  album: string | null;
  albumartist: string | null;
  genre: string | null;
  language: string | null;
  year: string | null;
  lyrics: string | null;
  comment: string | null;
  description: string | null;
  composer: string | null;
  lyricist: string | null;
  album_type: string | null;
  tracknumber: number | null;
  totaltracks: number | null;
  discnumber: number | null;
  totaldiscs: number | null;
  replaygain_track_gain: string | null;
  replaygain_track_peak: string | null;
  replaygain_album_gain: string | null;
  replaygain_album_peak: string | null;
  artwork: Artwork | null;
}

/**
 * What `tags.read` returns: the tags plus the audio facts a matcher needs (read-only).
 *
 * @example
 * const { title, duration } = await caps.tags.read({ path: 'Beatles/Help!/13 Yesterday.flac' });
 */
export interface TrackInfo extends Omit<TrackTags, 'artwork'> {
  /**
   * The embedded cover's bytes — only when read with `{ artwork: true }` (absent otherwise: a cover can be
   * megabytes, and every concurrent item's copy counts against the plugin's memory limit). `null`: no cover.
   */
  artwork?: Artwork | null;
  /** Whether the file has an embedded cover, its type and size, without its bytes (always present). */
  artworkInfo: { mime: string; size: number } | null;
  /** The file's full path, as the host resolved it. */
  path: string;
  /** Seconds. */
  duration: number;
  /** `mp3`, `flac`, `m4a`, … */
  format: string;
}

/**
 * Tags of audio files inside the media roots (`path` is a full path inside them, or relative to the media
 * folder). `write` needs the `write` grant and changes only the fields given; a field set to `null` is removed.
 * It goes through the host's journaled tag engine: verified before it replaces the file, and undoable like an
 * edit in the editor (the journal names the plugin as `plugin:<id>`).
 *
 * @example
 * const track = await caps.tags.read({ path });
 * await caps.tags.write({ path, tags: { lyrics: lrc, lyricist: '林夕' } });
 */
export interface TagsCapability {
  /** The tags; the cover's bytes only with `artwork: true` (else `artworkInfo` says whether there is one). */
  read(options: { path: string; artwork?: boolean }): Promise<TrackInfo>;
  write(options: { path: string; tags: Partial<TrackTags> }): Promise<{ path: string }>;
  /**
   * `${var}` templates (`${artist} - ${title}`, `${file_song_name}`, `${first_artist_letter}` …, the editor's
   * variables) rendered for the track from its current tags and path, in order (one read of the track for all, up
   * to 50); an unknown variable throws naming the known ones.
   */
  render(options: { path: string; templates: string[] }): Promise<string[]>;
  /** The `.lrc` beside the track (same name), as text; `null` when there is none. */
  lyricsFile(options: { path: string }): Promise<string | null>;
  /** The cover picture of the track's folder (cover.jpg, folder.jpg …; other formats as JPEG); `null` when none. */
  folderCover(options: { path: string }): Promise<Artwork | null>;
  /**
   * Writes the track's current lyrics into its `.lrc`, or its embedded cover into its folder's `cover.jpg` (write
   * grant). Identical bytes already there: `written: false`. A different file is replaced; in a task the old one
   * goes into the media root's trash first (`.tagsonic-trash/<task>/…`), and undoing the task takes the written
   * file away and puts the old one back. Nothing to write: `path: null`.
   */
  writeSideFile(options: { path: string; kind: 'lyrics' | 'cover' }): Promise<{ path: string | null; written: boolean; replaced: boolean }>;
}

// ---------------------------------------------------------------- files

/**
 * One directory entry.
 *
 * @example
 * const entry: FileEntry = { name: '01 Intro.flac', path: 'Album/01 Intro.flac', type: 'file', size: 24117248, modifiedAt: '2026-01-02T03:04:05.000Z' };
 */
export interface FileEntry {
  name: string;
  /** Full path (inside the media roots). */
  path: string;
  type: 'file' | 'directory';
  /** Bytes; 0 for directories. */
  size: number;
  /** ISO 8601. */
  modifiedAt: string;
}

/**
 * Files inside the media roots; every path is a full path inside them (or relative to the media folder)
 * and may not leave them (`..`, absolute paths and symlinks pointing outside throw
 * `TAGSONIC_ERR_PLUGIN_DENIED`; a listing leaves such symlinks out). `move`, `copy`, `delete` and `removeDir`
 * need the `write` grant (with `read` they are absent); all but `removeDir` work on files, not folders. `move` and `copy` create the
 * target's folders and throw `TAGSONIC_ERR_PLUGIN_CONFLICT` when the target exists unless `overwrite` is set.
 * In a batch action's `runItem` (a task), `move` is journaled under the task (undoing the task moves the file
 * back; an audio file's same-name `.lrc` travels with it), `delete` moves the file into the media folder's trash
 * (`.tagsonic-trash/<task>/`, kept 30 days; it comes back when the task is undone) instead of deleting it, and the
 * files the task creates (`copy`, `writeStrm`, ffmpeg's outputs, `tags.writeSideFile`) go into the trash when the
 * task is undone, unless changed since.
 *
 * @example
 * const { entries } = await caps.files.list({ path: 'Incoming' });
 * const info = await caps.files.stat({ path: 'Incoming/cover.jpg' }); // null when missing
 * await caps.files.move({ from: 'Incoming/a.flac', to: 'Library/Artist/a.flac' });
 */
export interface FilesCapability {
  list(options: { path: string }): Promise<{ entries: FileEntry[] }>;
  stat(options: { path: string }): Promise<FileEntry | null>;
  move(options: { from: string; to: string; overwrite?: boolean }): Promise<{ path: string }>;
  copy(options: { from: string; to: string; overwrite?: boolean }): Promise<{ path: string }>;
  delete(options: { path: string }): Promise<{ path: string }>;
  /**
   * SHA-256 of a file's bytes (hex), streamed by the host: duplicate checks without reading files into the plugin.
   * `range: 'edges'` hashes only the size and the first and last 64 KiB (a cheap first pass: different edges, different
   * files); `complete` says whether the digest covers the whole file (always with the default `'full'`).
   */
  hash(options: { path: string; range?: 'full' | 'edges' }): Promise<{ path: string; sha256: string; size: number; complete: boolean }>;
  /**
   * `hash` over up to 1000 paths in one call (one crossing into the host instead of one per file: a duplicate check's
   * groups). `results[i]` answers `paths[i]`, `null` when that file is not there; a path outside the media roots
   * refuses the whole call, as `hash` refuses it.
   *
   * @example
   * const { results } = await caps.files.hashMany({ paths: ['A/x.flac', 'B/x (1).flac'], range: 'edges' });
   */
  hashMany(options: { paths: string[]; range?: 'full' | 'edges' }): Promise<{ results: Array<{ path: string; sha256: string; size: number; complete: boolean } | null> }>;
  /** `stat` over up to 1000 paths in one call: `entries[i]` answers `paths[i]` (`null` when missing). */
  statMany(options: { paths: string[] }): Promise<{ entries: Array<FileEntry | null> }>;
  /** The bytes of a small file (a CUE sheet, a playlist; at most 1 MiB, else `TAGSONIC_ERR_PLUGIN_LIMIT`): decode them with `caps.text.decode`. */
  readBytes(options: { path: string }): Promise<{ path: string; bytes: Uint8Array }>;
  /** Removes an empty folder (`TAGSONIC_ERR_PLUGIN_CONFLICT` when it is not empty); never a media folder itself. */
  removeDir(options: { path: string }): Promise<{ path: string }>;
  /**
   * Writes the `.strm` file of an audio file: at its path relative to its media folder under `dir` (default: beside
   * it), holding its full path, or with `sign` a signed HTTP link to the server's stream of that one file (`origin`:
   * the server as players reach it). Only `.strm` files are written; `dryRun` writes nothing. `before` is the file's
   * old content (null: new).
   */
  writeStrm(options: { path: string; dir?: string | null; sign?: boolean; origin?: string; dryRun?: boolean }): Promise<{ path: string; content: string; before: string | null; status: 'created' | 'updated' | 'unchanged' }>;
}

// ---------------------------------------------------------------- ffmpeg

/**
 * A named ffmpeg job. Plugins never pass raw ffmpeg arguments: each preset is a fixed, reviewed command.
 * - `probe`: duration, codec and stream facts of `input`.
 * - `convert`: `input` → `output` in `format` (tags and cover carried over).
 * - `cut`: the `start`–`end` seconds of `input` → `output` (CUE splitting).
 * - `loudness`: ReplayGain 2 track gain and peak of `input`.
 * - `loudness-album`: ReplayGain 2 of an album's tracks (`inputs`, up to 200) and of the album, gated over all
 *   its tracks' blocks as libebur128 does; each track decoded once. Gains "-6.52 dB" (reference −18 LUFS),
 *   linear true peaks "0.988553"; a silent track has a null loudness and gain.
 * - `extract-cover`: the embedded cover of `input` as JPEG bytes, or `null`.
 * - `transcode`: `input` → `output` in `format` at `bitrateKbps` (lossy targets; fitted to what the codec takes)
 *   and `sampleRate` (both optional: the source's when absent); every tag carried over, and the embedded cover in
 *   mp3, flac and m4a (write it with `tags.write` for the other targets).
 * - `extract`: the samples `[startSample, endSample)` of `input` (to its end without `endSample`) → `output`,
 *   sample-exact (a CUE track), with `tags` replacing the input's (keys: title, artist, album, album_artist,
 *   composer, genre, date, track, disc, comment) and the input's cover kept where the target holds one.
 *
 * @example
 * const job: FfmpegJob = { preset: 'convert', input: 'a.wav', output: 'a.flac', format: 'flac' };
 */
export type FfmpegJob =
  | { preset: 'probe'; input: string }
  | { preset: 'convert'; input: string; output: string; format: 'mp3' | 'flac' | 'm4a' | 'ogg' | 'opus' | 'wav'; bitrateKbps?: number }
  | { preset: 'cut'; input: string; output: string; start: number; end: number }
  | { preset: 'loudness'; input: string }
  | { preset: 'loudness-album'; inputs: string[] }
  | { preset: 'extract-cover'; input: string }
  | { preset: 'transcode'; input: string; output: string; format: ConvertFormat; bitrateKbps?: number; sampleRate?: number }
  | { preset: 'extract'; input: string; output: string; format: ConvertFormat; startSample: number; endSample?: number; bitrateKbps?: number; tags?: Record<string, string> };

/** The targets of the `transcode` and `extract` presets. */
export type ConvertFormat = 'mp3' | 'flac' | 'wav' | 'ogg' | 'wma' | 'm4a' | 'opus';

/**
 * What each preset returns.
 *
 * @example
 * const probe: FfmpegResult<'probe'> = { duration: 215.4, codec: 'flac', bitrate: 1012000, sampleRate: 44100, channels: 2 };
 */
export type FfmpegResult<P extends FfmpegJob['preset']> = {
  probe: { duration: number; codec: string; bitrate: number; sampleRate: number; channels: number };
  convert: { path: string };
  cut: { path: string };
  loudness: { trackGain: string; trackPeak: string };
  'loudness-album': {
    tracks: Array<{ input: string; loudness: number | null; trackGain: string | null; trackPeak: string }>;
    albumLoudness: number | null;
    albumGain: string | null;
    albumPeak: string;
  };
  'extract-cover': Artwork | null;
  transcode: { path: string };
  extract: { path: string };
}[P];

/**
 * The host's ffmpeg presets on media-root paths (needs the `ffmpeg` grant; writing an `output` also needs
 * `files: write`; an output never replaces an existing file: `TAGSONIC_ERR_PLUGIN_CONFLICT`). The host runs two
 * ffmpeg/fpcalc processes at a time per worker and queues the rest (`TAGSONIC_ERR_PLUGIN_LIMIT` after a minute).
 *
 * @example
 * const { duration } = await caps.ffmpeg.run({ preset: 'probe', input: 'Album/01.flac' });
 */
export interface FfmpegCapability {
  run<J extends FfmpegJob>(job: J): Promise<FfmpegResult<J['preset']>>;
}

// ---------------------------------------------------------------- library

/**
 * The music collection (needs the `library: write` grant): `index` puts one audio file inside the media roots
 * into the library now, as a scan would (same reading, same track id when it is listed), so Subsonic clients
 * list it at once: import collection. `status`: `added` (a new track), `updated` (its track re-read and
 * changed), `unchanged` (listed and the same). `sameAs`: another listed track with the same size and content
 * fingerprint (a copy). `dryRun: true` reads and compares only. A file that is no song fails with the scanner's
 * code (`TAGSONIC_ERR_LIBRARY_NOT_AUDIO`, the tag engine's `TAGSONIC_ERR_TAGS_…`) and its reason; while a
 * library scan runs the call waits for it, then fails with `TAGSONIC_ERR_LIBRARY_SCAN_RUNNING` if it is not done in time.
 *
 * @example
 * const { status, trackId } = await caps.library.index({ path: 'Incoming/01.flac' });
 */
export interface LibraryCapability {
  index(options: { path: string; dryRun?: boolean }): Promise<{
    path: string;
    status: 'added' | 'updated' | 'unchanged';
    trackId: string;
    sameAs: { id: string; path: string } | null;
  }>;
}

// ---------------------------------------------------------------- fingerprint

/**
 * Chromaprint (fpcalc) fingerprints, the input of an AcoustID lookup. `duration` is in seconds (fpcalc's).
 *
 * @example
 * const { fingerprint, duration } = await caps.fingerprint.compute({ path: 'Album/01.flac' });
 */
export interface FingerprintCapability {
  compute(options: { path: string }): Promise<{ fingerprint: string; duration: number }>;
}

// ---------------------------------------------------------------- llm

/**
 * One message of a chat with the language model.
 *
 * @example
 * const message: LlmMessage = { role: 'user', content: 'Which genre is "Blue in Green" by Miles Davis? One word.' };
 */
export interface LlmMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/**
 * The OpenAI-compatible language model the administrator configured in the system settings (needs the `llm`
 * grant). The host reads the settings on every call and holds the endpoint and its key: the plugin sends
 * messages and gets text back. At most two calls of one plugin run at a time per worker (the rest wait their
 * turn, inside the invocation's time); a plugin granted `llm` has a 3 min wall clock per invocation.
 *
 * Failures keep the host's codes (not {@link PluginErrorCode}s; compare `error.code` as a string):
 * `TAGSONIC_ERR_LLM_NOT_CONFIGURED` (no base URL or model set), `…_LLM_TIMEOUT`, `…_LLM_HTTP` (the endpoint's
 * status and message), `…_LLM_UNREACHABLE`, `…_LLM_BAD_RESPONSE`; bad options are `TAGSONIC_ERR_PLUGIN_INVALID`,
 * too much text `TAGSONIC_ERR_PLUGIN_LIMIT`.
 *
 * @example
 * const genre = await caps.llm.chat({ messages: [{ role: 'system', content: 'Answer with one genre name.' }, { role: 'user', content: `${artist} - ${title}` }], maxTokens: 20 });
 */
export interface LlmCapability {
  /** The first answer's text. Up to 100 messages and 200,000 characters in all; `maxTokens` 1–32768. */
  chat(options: { messages: LlmMessage[]; maxTokens?: number }): Promise<string>;
  /**
   * The lyric translated into Simplified Chinese line by line, each line behind its original time tags (header
   * tags such as `[ar:]` and blank lines kept as they are): the editor's translation. Up to 200,000 characters.
   *
   * @example
   * const translated = await caps.llm.translateLyric({ lyrics: '[00:01.00]Hello' }); // '[00:01.00]你好'
   */
  translateLyric(options: { lyrics: string }): Promise<string>;
  /**
   * Resolves when a model is configured, else throws `TAGSONIC_ERR_LLM_NOT_CONFIGURED` (settings only, no
   * request): a batch action's `plan` calls it to refuse the whole task at once instead of failing every item.
   *
   * @example
   * if (options.translate) await caps.llm.check();
   */
  check(): Promise<void>;
}

// ---------------------------------------------------------------- always granted

/**
 * Chinese script conversion with OpenCC (phrases included): `s2t` simplified → traditional, `t2s`
 * traditional → simplified, `s2tw`/`tw2s` with Taiwan's standard, `s2hk`/`hk2s` with Hong Kong's.
 * Up to 1 MiB of text per call (`TAGSONIC_ERR_PLUGIN_LIMIT`). Also the text tools a sandbox lacks: legacy
 * decoding and linear-time regular expressions.
 *
 * @example
 * const simplified = await caps.text.convert({ text: '張學友', direction: 't2s' }); // '张学友'
 */
export interface TextCapability {
  convert(options: { text: string; direction: 's2t' | 't2s' | 's2tw' | 'tw2s' | 's2hk' | 'hk2s' }): Promise<string>;
  /**
   * Bytes → text in a legacy encoding (the sandbox has no `TextDecoder`, and the CJK tables are large). With
   * `fatal`, bytes that are not valid in `encoding` give `null` instead of U+FFFD replacements (up to 1 MiB).
   *
   * @example
   * const name = await caps.text.decode({ bytes: new Uint8Array([0xd5, 0xc5]), encoding: 'gbk', fatal: true }); // '张'
   */
  decode(options: { bytes: Uint8Array; encoding: TextEncodingName; fatal?: boolean }): Promise<string | null>;
  /**
   * Applies `{ before, after }` rules in order: literal text (default), or regular expressions on the host's RE2
   * engine — linear time, no look-around or back-references, `$1` and `$<name>` in `after`, `(?<name>…)` groups —
   * the engine of the editor's regex preview. A bad pattern throws `TAGSONIC_ERR_PLUGIN_INVALID` saying why.
   * Texts up to 100,000 characters, 50 rules.
   *
   * @example
   * const { text, count } = await caps.text.replace({ text: 'A  -  B', rules: [{ before: '\\s+', after: ' ' }], mode: 'regex' }); // 'A - B', 2
   */
  replace(options: { text: string; rules: Array<{ before: string; after: string }>; mode?: 'text' | 'regex'; ignoreCase?: boolean }): Promise<{ text: string; count: number }>;
  /**
   * The first of `patterns` (RE2, as in {@link TextCapability.replace}) that matches `text`: its index, its named
   * groups and its numbered groups (unmatched ones `''`); `null` when none matches. Every pattern is checked.
   *
   * @example
   * const m = await caps.text.match({ text: '周杰伦 - 晴天', patterns: ['(?<artist>.+?) - (?<title>.+)'] }); // { index: 0, groups: { artist: '周杰伦', title: '晴天' }, … }
   */
  match(options: { text: string; patterns: string[]; ignoreCase?: boolean }): Promise<{ index: number; groups: Record<string, string>; numbered: string[] } | null>;
}

/** The encodings {@link TextCapability.decode} takes (WHATWG names). */
export type TextEncodingName = 'utf-8' | 'gbk' | 'gb18030' | 'big5' | 'shift_jis' | 'euc-jp' | 'euc-kr' | 'windows-1252' | 'iso-8859-1' | 'utf-16le' | 'utf-16be';

/**
 * The plugin's log, shown on its page and in the server log with the plugin id. Fire-and-forget on
 * purpose: logging sits in hot loops and cannot fail, so awaiting it would only add a boundary round trip.
 * Never log secrets; the host also masks the values of `secret` settings.
 *
 * @example
 * caps.log.info('search', { title, results: songs.length });
 */
export interface LogCapability {
  debug(message: string, fields?: Record<string, JsonValue>): void;
  info(message: string, fields?: Record<string, JsonValue>): void;
  warn(message: string, fields?: Record<string, JsonValue>): void;
  error(message: string, fields?: Record<string, JsonValue>): void;
}

/**
 * Progress of a batch action, shown on its task. Fire-and-forget like {@link LogCapability}; the host
 * keeps the latest report only.
 *
 * @example
 * caps.progress({ done: i + 1, total: paths.length, message: paths[i] });
 */
export type ProgressCapability = (report: { done: number; total: number; message?: string }) => void;

/**
 * A small key-value store private to the plugin (tokens, caches). Values are JSON; the host caps key and
 * value sizes (`TAGSONIC_ERR_PLUGIN_LIMIT`). `get` returns `null` for a missing key.
 *
 * @example
 * const cached = await caps.kv.get({ key: 'token' });
 * await caps.kv.set({ key: 'token', value: { value: 'abc', expiresAt: Date.now() + 3600_000 } });
 */
export interface KvCapability {
  get(options: { key: string }): Promise<JsonValue | null>;
  set(options: { key: string; value: JsonValue }): Promise<void>;
  delete(options: { key: string }): Promise<void>;
  /** The plugin's keys starting with `prefix` (all when absent), sorted. */
  list(options?: { prefix?: string }): Promise<string[]>;
}

// ---------------------------------------------------------------- sources and matching

/**
 * A candidate with the host's scores (the spec's title_score, artist_score, album_score: 2 exact, 1
 * contained, 0 no match, −2 another artist).
 *
 * @example
 * const song: ScoredSong = { ...candidate, title_score: 2, artist_score: 2, album_score: 1 };
 */
export interface ScoredSong extends SearchResultSong {
  title_score: number;
  artist_score: number;
  album_score: number;
}

/**
 * Searches another installed, enabled tag source through the host (needs the `sources` grant naming that
 * id). The host runs the source in its own sandbox with its own grants and scores its candidates; each
 * keeps its source's `resource`. Throws `TAGSONIC_ERR_PLUGIN_DENIED` for an id the manifest does not list,
 * and the source's own error (its code and message) when it fails.
 *
 * `timeoutMs` (100–60000; default: as long as the calling invocation may still run) is how long this search
 * waits for the source: past it the call fails with `TAGSONIC_ERR_PLUGIN_TIMEOUT` (the source's own run is not
 * cut short). A source whose request pacing would only let it ask its service after that fails at once with
 * `TAGSONIC_ERR_PLUGIN_HTTP_BUSY`, so a busy source costs an aggregator nothing.
 *
 * @example
 * const songs = await caps.sources.search({ id: 'itunes', query: { title, artist, album, limit: 10 }, timeoutMs: 5000 });
 */
export interface SourcesCapability {
  search(options: { id: string; query: SearchOptions; timeoutMs?: number }): Promise<ScoredSong[]>;
  /**
   * A candidate's lyrics from its source (`id` its `resource`, `songId` its `id`), as normalised LRC text; `null`
   * when the source has none (or no lyrics export). The source's own errors are thrown as from `search`.
   *
   * @example
   * const lrc = await caps.sources.lyrics({ id: song.resource, songId: song.id });
   */
  lyrics(options: { id: string; songId: string }): Promise<string | null>;
  /**
   * A candidate's `album_img`, downloaded by the host (public addresses only, or the source's own base URL; a
   * size cap; JPEG or PNG) as artwork for `tags.write`. Fails with `TAGSONIC_ERR_TAGS_COVER_FETCH` saying why.
   *
   * @example
   * const artwork = await caps.sources.cover({ id: song.resource, url: song.album_img });
   * await caps.tags.write({ path, tags: { artwork } });
   */
  cover(options: { id: string; url: string }): Promise<Artwork>;
  /**
   * An artist looked up by name in a source's `artist` export (the editor's fetch_artist_by_keyword): its name as
   * the source spells it, its picture's URL (for {@link SourcesCapability.cover}) and biography; `null` when the
   * source knows none (or has no artist lookup). The source's own errors are thrown as from `search`.
   *
   * @example
   * const found = await caps.sources.artist({ id: 'kuwo', keyword: '周杰伦' });
   */
  artist(options: { id: string; keyword: string }): Promise<{ name: string; image: string | null; description: string | null } | null>;
}

/**
 * An artist's picture and biography as the library keeps them (`image`: what is saved, not the bytes).
 *
 * @example
 * const meta: ArtistMeta = { artistId: 'ar-…', name: '周杰伦', image: { mime: 'image/jpeg', size: 48213, url: 'https://img1.kuwo.cn/…' }, description: '华语流行乐男歌手…', source: 'kuwo' };
 */
export interface ArtistMeta {
  artistId: string;
  name: string;
  /** What is saved: its type, size and the address it was downloaded from (`url`, null when given as bytes). */
  image: { mime: string; size: number; url: string | null } | null;
  description: string | null;
  /** Where they came from (a tag source id, or `user`); null when never set. */
  source: string | null;
}

/**
 * Artist pictures and biographies in the library (needs the `artists` grant). `set` saves the picture's bytes
 * (JPEG, PNG, WebP or GIF, at most 8 MiB; the host checks them) under the server's data folder and the text; a
 * field left out is kept, `null` removes it; `imageUrl` records where the picture came from. Made for a task, it
 * is undone with the task (undo_task). Subsonic clients then get the picture from getCoverArt and the text from
 * getArtistInfo. Unknown artist ids fail with `TAGSONIC_ERR_PLUGIN_NOT_FOUND`.
 *
 * @example
 * const artwork = await caps.sources.cover({ id: 'kuwo', url: found.image });
 * await caps.artists.set({ artistId, image: artwork, imageUrl: found.image, description: found.description, source: 'kuwo' });
 */
export interface ArtistsCapability {
  get(options: { artistId: string }): Promise<ArtistMeta>;
  set(options: { artistId: string; image?: Artwork | null; imageUrl?: string; description?: string | null; source: string }): Promise<ArtistMeta>;
}

/**
 * The host's matcher (no grant needed): scores candidates against what the file says and orders them best
 * first, as auto-matching does. `mode` is 宽松 `simple`, 标准 `normal` (default) or 严格 `hard`; `accepted` says
 * whether the mode takes the candidate.
 *
 * @example
 * const best = await caps.match.rank({ query: { title, artist, album, duration }, candidates: songs, mode: 'normal', limit: 15 });
 */
export interface MatchCapability {
  rank<C extends SearchResultSong>(options: {
    query: { title: string; artist?: string | null; album?: string | null; duration?: number | null };
    candidates: C[];
    mode?: 'simple' | 'normal' | 'hard';
    limit?: number;
  }): Promise<Array<C & { title_score: number; artist_score: number; album_score: number; accepted: boolean }>>;
}

// ---------------------------------------------------------------- the whole set

/**
 * Everything a plugin may receive, as the second argument of each of its functions. The granted ones are
 * present; the others are absent (`undefined`). Use {@link CapabilitiesFor} to have TypeScript know which
 * are present from a literal manifest.
 *
 * @example
 * async function search(options: SearchOptions, caps: Capabilities) {
 *   if (!caps.http) throw new PluginError('TAGSONIC_ERR_PLUGIN_DENIED', 'http is not granted');
 * }
 */
export interface Capabilities {
  http?: HttpCapability;
  tags?: TagsCapability;
  files?: FilesCapability;
  ffmpeg?: FfmpegCapability;
  fingerprint?: FingerprintCapability;
  library?: LibraryCapability;
  sources?: SourcesCapability;
  llm?: LlmCapability;
  artists?: ArtistsCapability;
  config: ConfigCapability;
  match: MatchCapability;
  text: TextCapability;
  log: LogCapability;
  progress: ProgressCapability;
  kv: KvCapability;
}

/**
 * The capabilities a given manifest grants, with the granted ones non-optional. `tags`/`files` with
 * `access: 'read'` get the read half only.
 *
 * @example
 * const manifest = defineManifest({ ..., permissions: { http: { hosts: [{ host: 'lrclib.net', reason: 'Lyrics' }] } } });
 * type Caps = CapabilitiesFor<typeof manifest>; // caps.http is HttpCapability, caps.files is absent
 */
export type CapabilitiesFor<M extends Manifest> = Pick<Capabilities, 'config' | 'text' | 'log' | 'progress' | 'kv' | 'match'> &
  (M['permissions'] extends { sources: object } ? { sources: SourcesCapability } : unknown) &
  (M['permissions'] extends { llm: object } ? { llm: LlmCapability } : unknown) &
  (M['permissions'] extends { artists: object } ? { artists: ArtistsCapability } : unknown) &
  (M['permissions'] extends { http: object } ? { http: HttpCapability } : unknown) &
  (M['permissions'] extends { ffmpeg: object } ? { ffmpeg: FfmpegCapability } : unknown) &
  (M['permissions'] extends { fingerprint: object } ? { fingerprint: FingerprintCapability } : unknown) &
  (M['permissions'] extends { library: object } ? { library: LibraryCapability } : unknown) &
  (M['permissions'] extends { tags: { access: 'write' } } ? { tags: TagsCapability }
    : M['permissions'] extends { tags: object } ? { tags: Pick<TagsCapability, 'read' | 'render' | 'lyricsFile' | 'folderCover'> } : unknown) &
  (M['permissions'] extends { files: { access: 'write' } } ? { files: FilesCapability }
    : M['permissions'] extends { files: object } ? { files: Pick<FilesCapability, 'list' | 'stat' | 'hash' | 'hashMany' | 'statMany' | 'readBytes'> } : unknown);

/**
 * The settings values a plugin receives, by key, as its config schema declares them (defaults applied;
 * a setting with no value and no default is absent).
 *
 * @example
 * const config: ConfigValues = { client_id: 'abc', limit: 10, use_proxy: false };
 */
export type ConfigValues = Record<string, string | number | boolean | undefined>;

/**
 * The plugin's settings as the administrator saved them (always granted). Read them per call: the
 * administrator may change them between two invocations.
 *
 * @example
 * const { client_id, client_secret } = await caps.config.get();
 * if (!client_id) throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', 'set the Client ID on the plugin page');
 */
export interface ConfigCapability<Config extends ConfigValues = ConfigValues> {
  get(): Promise<Config>;
}
