/**
 * Every system setting of the spec (doc 2 §3 "System settings keys"), in one typed table: its TypeBox schema, its
 * default, its screen group, whether it is a secret (never sent back), whether users other than administrators may
 * read it, and how the settings screen sends it (doc 2 §5: booleans "1"/"0", lists comma-joined, objects as JSON
 * text). Readers get the defaults from here, so no reader keeps its own.
 */
import { Type, type Static, type TSchema } from 'typebox';

/** The screen's groups (doc 2 §2 "System settings": its side menu and drawers). */
export type SettingGroup = 'save' | 'files' | 'lastfm' | 'transcode' | 'switches' | 'scrape' | 'tidy' | 'speaker' | 'alist' | 'api' | 'llm';

/** How a value arrives from the screen, so `"1"`, `"a,b"` and `'{"x":1}'` become the typed value the schema checks. */
export type WireForm = 'boolean' | 'integer' | 'text' | 'list' | 'json';

export interface SettingDef {
  group: SettingGroup;
  schema: TSchema;
  default: unknown;
  wire: WireForm;
  /** Never sent back: GET answers '' and names it in `secrets_set` when it has a value. */
  secret?: boolean;
  /** Readable by every signed-in user (the others are the administrators' only). */
  public?: boolean;
  /** A folder on this machine: confined to the media roots when saved (stored as its real path; '' = the default). */
  folder?: boolean;
}

/** The tidy levels the tidy-folder action accepts (plugins/tidy-folder/src/template.ts DIMENSIONS; a test keeps them equal). */
export const TIDY_DIMENSIONS = ['title', 'artist', 'album', 'album_artist', 'album_type', 'genre', 'language', 'track_number', 'disc_number', 'comment', 'custom'] as const;
/** doc 2 §9 "Modify scopes". */
export const MODIFY_SCOPES = ['title', 'artist', 'album', 'albumartist', 'album_img', 'year', 'lyrics', 'is_save_lyrics_file', 'discnumber', 'tracknumber', 'composer', 'lyricist', 'language'] as const;
/** doc 2 §9 "Clean rules": formats. */
export const CLEAN_FORMATS = ['mp3', 'wav', 'flac', 'wma', 'ogg'] as const;

/** Navidrome-style placeholders: %s input file, %b bit rate (kbps), %t start offset (seconds); see transcode/command.ts. */
export const DEFAULT_DECODE_COMMAND = 'ffmpeg -i %s -ss %t -map 0:a:0 -b:a %bk -v 0 -f mp3 -';
/** Transcoded files kept on disk. */
export const DEFAULT_DECODE_CACHE_ENTRIES = 50;

const MAX_TEXT = 2000;
const Text = (options: Record<string, unknown> = {}) => Type.String({ maxLength: MAX_TEXT, ...options });
const Bool = Type.Boolean();
/** One of the listed strings (the error names them). */
const Enum = <const T extends readonly string[]>(...values: T) => Type.Unsafe<T[number]>({ type: 'string', enum: [...values] });
const Rule = Enum('larger', 'smaller', 'none');
/** '' or an http(s) address. */
const HttpUrl = Type.String({ maxLength: MAX_TEXT, pattern: '^(|https?://[^\\s]+)$' });
const SourceId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z0-9][a-z0-9_-]*$' });

const def = <S extends TSchema>(group: SettingGroup, wire: WireForm, schema: S, value: Static<S>, extra: Pick<SettingDef, 'secret' | 'public' | 'folder'> = {}) =>
  ({ ...extra, group, wire, schema, default: value });

export const SETTINGS = {
  // Saving: where tag edits go (file metadata, the library database), for local files and for the network drive (_wb).
  save_in_metadata: def('save', 'boolean', Bool, true),
  save_in_db: def('save', 'boolean', Bool, true),
  save_in_metadata_wb: def('save', 'boolean', Bool, false),
  save_in_db_wb: def('save', 'boolean', Bool, true),
  // doc 2 §9: 5000 entries per directory; §5: numeric, min 0.
  file_list_limit: def('files', 'integer', Type.Integer({ minimum: 0, maximum: 1_000_000 }), 5000),

  is_record_lastfm: def('lastfm', 'boolean', Bool, false),
  lastfm_user: def('lastfm', 'text', Text(), ''),
  lastfm_pass: def('lastfm', 'text', Text(), '', { secret: true }),
  lastfm_api_key: def('lastfm', 'text', Text({ pattern: '^[A-Za-z0-9]*$' }), ''),
  lastfm_api_secret: def('lastfm', 'text', Text(), '', { secret: true }),

  is_play_decode: def('transcode', 'boolean', Bool, false),
  decode_cache_num: def('transcode', 'integer', Type.Integer({ minimum: 0, maximum: 100_000 }), DEFAULT_DECODE_CACHE_ENTRIES),
  decode_command: def('transcode', 'text', Text(), DEFAULT_DECODE_COMMAND),

  // The download watcher runs unless switched off (spec §9: every 3 minutes).
  is_watch_file: def('switches', 'boolean', Bool, true),
  is_voiceprint: def('switches', 'boolean', Bool, false),
  is_fix_encoding: def('switches', 'boolean', Bool, false),
  is_tran_sim: def('switches', 'boolean', Bool, false),
  auto_mod: def('switches', 'boolean', Bool, false),
  manual_mod: def('switches', 'boolean', Bool, false),
  // '' = scraped downloads stay in the download folder.
  tidy_music: def('tidy', 'text', Enum('', 'tidy', 'move'), ''),

  // Background scraping: auto-scrape's own defaults (doc 2 §2: sources qmusic then netease, mode simple).
  silent_select_mode: def('scrape', 'text', Enum('simple', 'normal', 'hard'), 'simple'),
  silence_source_list: def('scrape', 'list', Type.Array(SourceId, { minItems: 1, maxItems: 20 }), ['qmusic', 'netease']),
  silence_modify_list: def('scrape', 'list', Type.Array(Enum(...MODIFY_SCOPES), { maxItems: MODIFY_SCOPES.length }), ['artist', 'album', 'album_img', 'year', 'lyrics']),
  silence_is_skip_tag: def('scrape', 'boolean', Bool, false),
  silence_is_folder_album: def('scrape', 'boolean', Bool, false),
  // The scrape drawer's other fields; scrape_rate (items a second, doc 1 §9 default 1) is the one the watcher uses.
  silence_music_info: def('scrape', 'json', Type.Object({ scrape_rate: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 100 })) }), { scrape_rate: 1 }),

  // Tidy (doc 1 §9): root '' = the media folder, levels artist then album, clean-up flac before mp3, smaller size goes.
  root_path: def('tidy', 'text', Text(), '', { folder: true }),
  dir_list: def('tidy', 'json', Type.Array(Type.Object({ value: Enum(...TIDY_DIMENSIONS), value2: Type.Optional(Type.String({ maxLength: 500 })) }), { maxItems: 10 }), [{ value: 'artist' }, { value: 'album' }]),
  is_clean_music: def('tidy', 'boolean', Bool, false),
  clean_format_priority: def('tidy', 'list', Type.Array(Enum(...CLEAN_FORMATS), { maxItems: CLEAN_FORMATS.length }), ['flac', 'mp3']),
  clean_size_rule: def('tidy', 'text', Rule, 'smaller'),
  clean_bitrate_rule: def('tidy', 'text', Rule, 'none'),
  clean_sample_rule: def('tidy', 'text', Rule, 'none'),
  clean_name_rule: def('tidy', 'text', Rule, 'none'),
  clean_delete_rule: def('tidy', 'text', Enum('delete', 'move'), 'delete'),

  mi_user_id: def('speaker', 'text', Text(), ''),
  mi_password: def('speaker', 'text', Text(), '', { secret: true }),
  device_list: def('speaker', 'json', Type.Array(Type.Object({ name: Text(), type: Text(), active: Bool }), { maxItems: 100 }), []),
  mi_keyword: def('speaker', 'text', Text(), ''),
  // Seconds between speaker polls; spec §9 recommends 5.
  mi_timeloop: def('speaker', 'integer', Type.Integer({ minimum: 1, maximum: 3600 }), 5),
  // host:port on the local network, never a URL (doc 2 §5: must not start with http).
  inner_ip: def('speaker', 'text', Text({ pattern: '^(?!https?:)[^\\s/]*$' }), ''),
  mi_open: def('speaker', 'boolean', Bool, false),
  // Shown to every user (doc 1 §3 user info sys_dict.mi_play_in_pl).
  mi_play_in_pl: def('speaker', 'boolean', Bool, false, { public: true }),

  alist_mode: def('alist', 'text', Enum('direct', 'local'), 'local'),
  alist_url: def('alist', 'text', HttpUrl, ''),
  alist_root_path: def('alist', 'text', Text({ pattern: '^(|/.*)$' }), '/'),
  alist_username: def('alist', 'text', Text(), ''),
  alist_password: def('alist', 'text', Text(), '', { secret: true }),
  alist_page_size: def('alist', 'integer', Type.Integer({ minimum: 1, maximum: 1000 }), 100),

  // The open API token (doc 2 §9: about 20 alphanumerics); the screen shows and copies it, so it is not write-only.
  access_token: def('api', 'text', Type.String({ pattern: '^([A-Za-z0-9]{16,64})?$' }), ''),
  llm_base_url: def('llm', 'text', HttpUrl, ''),
  llm_api_key: def('llm', 'text', Text(), '', { secret: true }),
  llm_model_name: def('llm', 'text', Text(), ''),
} satisfies Record<string, SettingDef>;

export type SettingKey = keyof typeof SETTINGS;
export const SETTING_KEYS = Object.keys(SETTINGS) as SettingKey[];

/** The settings with their types, as readSettings returns them. */
export type SystemSettings = { -readonly [K in SettingKey]: Static<(typeof SETTINGS)[K]['schema']> };

export const isSettingKey = (key: unknown): key is SettingKey => typeof key === 'string' && Object.hasOwn(SETTINGS, key);
