/** The spec's fixed values (§1, §9) used across the dashboard. */

export const DISPLAY_VERSION = '2.4.3';
export const PROJECT_VERSION = '20250516';

/** Notice durations of the error catalogue, in milliseconds. */
export const SECONDS = { one: 1000, two: 2000, three: 3000, five: 5000 } as const;

export const HTTP_TIMEOUT_MS = 200_000;
export const SEARCH_DEBOUNCE_MS = 300;
export const RECORD_PAGE_SIZE = 20;
/** Cookies username, salt, hash (for the dashboard's own Subsonic calls) live 7 days. */
export const COOKIE_DAYS = 7;

export const TREE_ROW_HEIGHT = 28;
export const TREE_INDENT = 12;
/** Rows rendered beyond the visible ones on each side; keeps fast scrolling free of blank gaps. */
export const TREE_BUFFER_ROWS = 20;
/** The rendered window moves in steps of this many rows (fewer re-renders while scrolling). */
export const TREE_WINDOW_CHUNK = 10;
export const TREE_MIN_WIDTH = 200;
export const TREE_MAX_WIDTH_RATIO = 0.8;

export const DEFAULT_TABLE_HEIGHT = 800;
export const DEFAULT_FOLDER_LIMIT = 100;
export const DEFAULT_DETAIL_LIMIT = 30;

/** Below this width the layout switches to the mobile one (bottom bar, drawers). */
export const MOBILE_BREAKPOINT = 768;

export const ALBUM_TYPES = ['album;album', 'ep', 'album;compilation', 'album;live', 'album;remix', 'album;soundtrack', 'album;demo', 'single'] as const;
export const PRESET_GENRES = ['流行', '摇滚', '说唱', '民谣', '电子', '爵士', '纯音乐', '金属', '世界音乐', '新世纪', '古典', '独立', '氛围音乐'] as const;
export const LANGUAGES = ['Chinese', 'English', 'Japanese', 'Korean', 'French', 'Thai', 'unknown', '${guess_language}'] as const;

export const SCRAPE_SOURCES = ['netease', 'migu', 'qmusic', 'kugou', 'kuwo', 'itunes', 'spotify', 'musicbrainz', 'acoustid', 'smart_tag'] as const;
export const DEFAULT_SCRAPE_SOURCE = 'netease';

/** Template variables a tag field accepts after `$` (§5). */
export const TEMPLATE_VARIABLES = [
  'title', 'artist', 'first_artist', 'first_artist_letter', 'album', 'albumartist', 'discnumber', 'tracknumber', 'filename',
  'file_song_name', 'parent_path', 'parent_parent_path', 'lyrics', 'comment', 'year', 'genre', 'composer', 'lyricist', 'null',
] as const;

/** Clears a tag when sent in a single edit (§5). */
export const CLEAR_PLACEHOLDER = '${null}';

/** The table's default visible columns (§9). */
export const DEFAULT_TABLE_COLUMNS = ['album_img', 'filename', 'title', 'artist', 'album', 'albumartist', 'lyrics', 'lyrics_file', 'year', 'genre'] as const;
