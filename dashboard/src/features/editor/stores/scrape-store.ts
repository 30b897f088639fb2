/**
 * Online lookup for the single-track editor (§2): the candidates of the last lookup by title with the
 * chosen source, and the actions that copy a candidate's cells, row, cover and lyric into the editor.
 */
import { create } from 'zustand';
import { isApiError } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';
import { translate } from '../../../lib/i18n.ts';
import { notifySuccess, notifyWarning } from '../../../lib/notify.ts';
import { extractLyric } from '../api/extract-lyric.ts';
import { fetchId3ByTitle, type LookupQuery } from '../api/fetch-id3-by-title.ts';
import { fetchLyric } from '../api/fetch-lyric.ts';
import type { ScoredSong } from '../api/types.ts';
import { cellValues, rowValues, type CopyCell } from '../lib/scrape-copy.ts';
import { useEditor } from './editor-store.ts';

interface ScrapeState {
  query: LookupQuery | null;
  status: 'idle' | 'loading' | 'done' | 'error';
  results: ScoredSong[];
  /**
   * The failure: `text` in the interface language (catalogue text by code), `detail` the server's own words
   * when they say more (a source's "iTunes answered HTTP 503 to /search." names what broke).
   */
  error: { text: string; detail: string } | null;
  /** Candidate ids whose lyric or cover is being fetched. */
  busy: Record<string, boolean>;
  /** The lyric shown for a candidate (lyrics button), once fetched. */
  lyric: { song: ScoredSong; text: string } | null;

  /**
   * Looks the editor's title (artist, album) up in `resource`; `given` stands in for the editor's values (a task
   * report's row looks its own file up by the title the report kept, before the editor has loaded it).
   */
  lookup: (resource: string, given?: Partial<Omit<LookupQuery, 'resource'>>) => Promise<void>;
  /** Candidates known already (the ones auto-scrape saw for a missed file), shown as a lookup's results. */
  show: (results: ScoredSong[], query: LookupQuery | null) => void;
  copyCell: (song: ScoredSong, cell: CopyCell) => void;
  copyRow: (song: ScoredSong) => void;
  /**
   * The candidate's cover URL becomes the new cover as is: the preview shows it straight from the source, and
   * the save sends the URL, which the server downloads and embeds byte for byte (update_id3). The browser
   * cannot copy it itself: most cover CDNs send no CORS headers, and a canvas re-encode would lose quality.
   */
  copyCover: (song: ScoredSong) => boolean;
  showLyric: (song: ScoredSong) => Promise<void>;
  copyLyric: (song: ScoredSong, text?: string) => Promise<void>;
  closeLyric: () => void;
  reset: () => void;
}

let running: AbortController | null = null;

const setValues = (values: Record<string, string>) => {
  const { setValue } = useEditor.getState();
  for (const [field, value] of Object.entries(values)) setValue(field, value);
};

export const useScrape = create<ScrapeState>()((set, get) => {
  const busy = (id: string, on: boolean) => set((s) => ({ busy: { ...s.busy, [id]: on } }));

  /** The lyric of a candidate; '未找到歌词！' for 2 s and null when the source has none. */
  async function lyricOf(song: ScoredSong): Promise<string | null> {
    busy(song.id, true);
    try {
      const text = await fetchLyric(song.id, song.resource);
      if (text.trim() === '') {
        notifyWarning(translate('未找到歌词！'), undefined, SECONDS.two);
        return null;
      }
      return text;
    } catch {
      return null; // 获取歌词失败！ has been shown.
    } finally {
      busy(song.id, false);
    }
  }

  return {
    query: null,
    status: 'idle',
    results: [],
    error: null,
    busy: {},
    lyric: null,

    async lookup(resource, given = {}) {
      const { values } = useEditor.getState();
      const filePath = given.full_path ?? useEditor.getState().filePath;
      const title = (given.title ?? values.title ?? '').trim();
      if (title === '') {
        notifyWarning(translate('标题不能为空！'), undefined, SECONDS.two);
        return;
      }
      const query: LookupQuery = { title, resource };
      const artist = (given.artist ?? values.artist ?? '').trim();
      const album = (given.album ?? values.album ?? '').trim();
      if (artist) query.artist = artist;
      if (album) query.album = album;
      if (filePath) query.full_path = filePath;
      running?.abort();
      const controller = new AbortController();
      running = controller;
      set({ query, status: 'loading', error: null, results: [], lyric: null });
      useEditor.getState().setPanel('results');
      try {
        const results = await fetchId3ByTitle(query, controller.signal);
        if (!controller.signal.aborted) set({ status: 'done', results });
      } catch (e) {
        if (controller.signal.aborted) return;
        const text = e instanceof Error ? e.message : String(e);
        const said = isApiError(e) ? e.details.serverMessage : '';
        set({ status: 'error', error: { text, detail: said && said !== text ? said : '' } });
      }
    },

    show(results, query) {
      running?.abort();
      set({ query, status: 'done', error: null, results, lyric: null });
    },

    copyCell(song, cell) {
      setValues(cellValues(song, cell));
    },

    copyRow(song) {
      setValues(rowValues(song));
      if (!get().copyCover(song)) notifySuccess(translate('已复制到编辑器'), translate('保存后写入文件'), SECONDS.two);
    },

    copyCover(song) {
      if (!song.album_img) return false;
      useEditor.getState().setCover(song.album_img);
      notifySuccess(translate('已复制到编辑器'), translate('新封面（保存后写入）'), SECONDS.two);
      return true;
    },

    async showLyric(song) {
      const text = await lyricOf(song);
      if (text !== null) set({ lyric: { song, text } });
    },

    async copyLyric(song, known) {
      const text = known ?? (await lyricOf(song));
      if (text === null) return;
      setValues({ lyrics: text });
      busy(song.id, true);
      try {
        const credits = await extractLyric(text);
        const fill: Record<string, string> = {};
        if (credits.composer) fill.composer = credits.composer;
        if (credits.lyricist) fill.lyricist = credits.lyricist;
        setValues(fill);
      } catch {
        // The lyric is copied; the credits failure has been shown.
      } finally {
        busy(song.id, false);
      }
      set({ lyric: null });
      notifySuccess(translate('已复制到歌词'), translate('保存后写入文件'), SECONDS.two);
    },

    closeLyric() {
      set({ lyric: null });
    },

    reset() {
      running?.abort();
      set({ query: null, status: 'idle', results: [], error: null, busy: {}, lyric: null });
    },
  };
});

// Candidates belong to the file they were looked up for: another file starts with none.
useEditor.subscribe((s, prev) => {
  if (s.filePath !== prev.filePath) useScrape.getState().reset();
});
