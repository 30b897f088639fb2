/**
 * The single-track editor: the file's Music info as loaded, the form being edited, cover and side-file
 * options, and the newest write that Undo can take back. Also what the resource area (or a drawer on
 * phones) shows next to the editor: the online-source results or the lyric translation (§2: one at a time).
 */
import { create } from 'zustand';
import { immer } from 'zustand/middleware/immer';
import { isApiError } from '../../../lib/api-client.ts';
import { translate } from '../../../lib/i18n.ts';
import { notify, notifyError } from '../../../lib/notify.ts';
import { getMusicId3 } from '../api/get-music-id3.ts';
import type { MusicInfo, SaveReport } from '../api/types.ts';
import { undoWrite } from '../api/undo-write.ts';
import { updateId3 } from '../api/update-id3.ts';
import { buildUpdate, type EditorOptions, type Values } from '../lib/build-update.ts';
import { TEXT_FIELDS } from '../lib/fields.ts';

export type EditorPanel = 'results' | 'translation';

const NO_OPTIONS: EditorOptions = { is_save_lyrics_file: false, is_import_lyrics_file: false, is_save_album_cover: false, is_import_album_cover: false };

interface EditorState {
  filePath: string | null;
  info: MusicInfo | null;
  original: Values;
  values: Values;
  /** undefined: cover unchanged; null: to be removed; string: a new picture's URL. */
  cover: string | null | undefined;
  options: EditorOptions;
  loading: boolean;
  saving: boolean;
  /** The write Undo takes back: the last save here, or the newest one the server knows for the file. */
  undoId: string | null;
  /** The editor's panel in the resource area, or null for the area's own content. */
  panel: EditorPanel | null;
  translation: string;

  load: (filePath: string) => Promise<void>;
  setValue: (field: string, value: string) => void;
  setCover: (cover: string | null | undefined) => void;
  setOption: (option: keyof EditorOptions, on: boolean) => void;
  save: () => Promise<{ renamedTo?: string } | null>;
  undo: (force?: boolean) => Promise<boolean>;
  setPanel: (panel: EditorPanel | null) => void;
  setTranslation: (text: string) => void;
  reset: () => void;
}

const valuesOf = (info: MusicInfo): Values => {
  const v: Values = {};
  for (const f of [...TEXT_FIELDS, 'lyrics'] as const) v[f] = (info[f] ?? '') as string;
  return v;
};

let loading: AbortController | null = null;

export const useEditor = create<EditorState>()(
  immer((set, get) => ({
    filePath: null,
    info: null,
    original: {},
    values: {},
    cover: undefined,
    options: NO_OPTIONS,
    loading: false,
    saving: false,
    undoId: null,
    panel: null,
    translation: '',

    async load(filePath) {
      loading?.abort();
      const controller = new AbortController();
      loading = controller;
      const sameFile = get().filePath === filePath;
      set((s) => {
        s.filePath = filePath;
        s.loading = true;
        if (!sameFile) {
          s.info = null;
          s.undoId = null;
          // Candidates were looked up for the previous file.
          if (s.panel === 'results') s.panel = null;
        }
      });
      try {
        const info = await getMusicId3(filePath, controller.signal);
        if (controller.signal.aborted) return;
        set((s) => {
          s.info = info;
          s.original = valuesOf(info);
          s.values = valuesOf(info);
          s.cover = undefined;
          s.options = NO_OPTIONS;
          s.loading = false;
          s.undoId = info.last_write_id;
        });
      } catch {
        if (!controller.signal.aborted) set((s) => void (s.loading = false));
      }
    },

    setValue(field, value) {
      set((s) => void (s.values[field] = value));
    },

    setCover(cover) {
      set((s) => void (s.cover = cover));
    },

    setOption(option, on) {
      set((s) => void (s.options[option] = on));
    },

    async save() {
      const s = get();
      if (!s.filePath || !s.info || s.saving) return null;
      let entry: Record<string, unknown>;
      try {
        entry = buildUpdate({ filePath: s.filePath, original: s.original, values: s.values, cover: s.cover, options: s.options });
      } catch (e) {
        notifyError(translate('修改失败！'), e instanceof Error ? e.message : String(e), 5000);
        return null;
      }
      set((d) => void (d.saving = true));
      try {
        const report: SaveReport = await updateId3(entry, (r) => {
          const id = r.items[0]?.write_id;
          return id ? { text: translate('撤销'), onClick: () => void get().undo() } : undefined;
        });
        const item = report.items[0];
        const renamedTo = item?.renamed_from && item.path ? item.path : undefined;
        set((d) => {
          d.saving = false;
          if (item?.write_id) d.undoId = item.write_id;
        });
        await get().load(renamedTo ?? s.filePath);
        if (item?.write_id) set((d) => void (d.undoId = item.write_id));
        return { renamedTo };
      } catch {
        set((d) => void (d.saving = false));
        return null;
      }
    },

    async undo(force = false) {
      const { undoId, filePath } = get();
      if (!undoId || !filePath) return false;
      try {
        const report = await undoWrite(undoId, force);
        const path = report.items[0]?.path ?? filePath;
        set((d) => void (d.undoId = null));
        await get().load(path);
        return true;
      } catch (e) {
        if (isApiError(e) && e.details.status === 409) {
          notify({
            intent: 'warning',
            title: translate('撤销失败！'),
            content: e.message,
            timeout: 0,
            action: { text: translate('仍然撤销'), onClick: () => void get().undo(true) },
          });
        }
        return false;
      }
    },

    setPanel(panel) {
      set((s) => void (s.panel = panel));
    },

    setTranslation(text) {
      set((s) => void (s.translation = text));
    },

    reset() {
      loading?.abort();
      set((s) => {
        s.filePath = null;
        s.info = null;
        s.panel = null;
      });
    },
  })),
);

/** Whether the form differs from the file. */
export const isDirty = (s: Pick<EditorState, 'original' | 'values' | 'cover' | 'options'>): boolean =>
  s.cover !== undefined || Object.values(s.options).some(Boolean) || Object.keys(s.values).some((k) => (s.values[k] ?? '') !== (s.original[k] ?? ''));
