/**
 * The file screen's state: the folder shown, its entries, checks, the file open in the editor, sort and
 * filter (remembered in the browser).
 */
import { enableMapSet } from 'immer';
import { create } from 'zustand';
import { immer } from 'zustand/middleware/immer';
import { loadSetting, saveSetting } from '../../../lib/local-settings.ts';
import { getFileList } from '../api/get-file-list.ts';
import type { TreeNode } from '../api/types.ts';
import { flattenTree, type TreeRow } from '../lib/tree-rows.ts';

enableMapSet();

export const SORT_FIELDS = ['name', 'update_time', 'size', 'state', 'folder'] as const;

interface FilesState {
  /** The folder shown ('' until the server names its default). */
  path: string;
  parentPath: string | null;
  folderName: string;
  nodes: TreeNode[];
  rows: TreeRow[];
  total: number;
  loading: boolean;
  /** The last listing's timing, for the performance figures: request + parse, and store update. */
  timing: { requestMs: number; storeMs: number; at: number };
  expanded: Set<string>;
  checked: Set<string>;
  /** The last plain-clicked row: a single Shift click ranges from here. */
  anchorId: string | null;
  openFile: TreeNode | null;
  preview: TreeNode | null;
  sortedField: string;
  searchWord: string;
  /** Bumped when tags were saved, so views of tags reload. */
  tagsVersion: number;

  load: (path?: string, options?: { refresh?: boolean }) => Promise<void>;
  toggleExpanded: (id: string) => void;
  setChecked: (checked: Set<string>, anchorId?: string | null) => void;
  clearChecked: () => void;
  setOpenFile: (node: TreeNode | null) => void;
  setPreview: (node: TreeNode | null) => void;
  setSort: (field: string) => void;
  setSearchWord: (word: string) => void;
  tagsChanged: () => void;
  patchNode: (id: string, patch: Partial<TreeNode>) => void;
}

let inFlight: AbortController | null = null;

export const useFilesStore = create<FilesState>()(
  immer((set, get) => ({
    path: '',
    parentPath: null,
    folderName: '',
    nodes: [],
    rows: [],
    total: 0,
    loading: false,
    timing: { requestMs: 0, storeMs: 0, at: 0 },
    expanded: new Set<string>(),
    checked: new Set<string>(),
    anchorId: null,
    openFile: null,
    preview: null,
    sortedField: loadSetting('sortedField', 'folder'),
    searchWord: loadSetting('searchWord', ''),
    tagsVersion: 0,

    async load(path, options = {}) {
      const target = path ?? get().path;
      const changing = target !== get().path;
      inFlight?.abort();
      const controller = new AbortController();
      inFlight = controller;
      set((s) => {
        s.loading = true;
        // Changing the folder clears the checks (§4).
        if (changing) {
          s.checked = new Set();
          s.anchorId = null;
        }
      });
      const started = performance.now();
      try {
        const { sortedField, searchWord } = get();
        const data = await getFileList(
          { file_path: target, sorted_fields: sortedField === 'folder' ? 'folder,name' : sortedField, search_word: searchWord, refresh: options.refresh },
          controller.signal,
        );
        if (controller.signal.aborted) return;
        const received = performance.now();
        const nodes = data.file_list_data;
        const moved = get().path !== data.file_path;
        const expanded = moved ? new Set<string>() : get().expanded;
        // A plain object bypasses immer: drafting and deep-freezing 10 000 nodes would cost more than the render.
        set({
          ...(moved ? { checked: new Set<string>(), anchorId: null, expanded } : {}),
          path: data.file_path,
          parentPath: data.parent_path,
          folderName: data.file_name,
          nodes,
          rows: flattenTree(nodes, expanded),
          total: data.total,
          loading: false,
        });
        const done = performance.now();
        set({ timing: { requestMs: Math.round(received - started), storeMs: Math.round(done - received), at: done } });
      } catch {
        if (!controller.signal.aborted) set((s) => void (s.loading = false));
      }
    },

    toggleExpanded(id) {
      set((s) => {
        const next = new Set(s.expanded);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        s.expanded = next;
        s.rows = flattenTree(s.nodes, next);
      });
    },

    setChecked(checked, anchorId) {
      set((s) => {
        s.checked = checked;
        if (anchorId !== undefined) s.anchorId = anchorId;
      });
    },

    clearChecked() {
      set((s) => {
        s.checked = new Set();
        s.anchorId = null;
      });
    },

    setOpenFile(node) {
      set((s) => void (s.openFile = node));
    },

    setPreview(node) {
      set((s) => void (s.preview = node));
    },

    setSort(field) {
      saveSetting('sortedField', field);
      set((s) => void (s.sortedField = field));
      void get().load();
    },

    setSearchWord(word) {
      saveSetting('searchWord', word);
      set((s) => void (s.searchWord = word));
      void get().load();
    },

    tagsChanged() {
      set((s) => void (s.tagsVersion += 1));
    },

    patchNode(id, patch) {
      set((s) => {
        const i = s.nodes.findIndex((n) => n.id === id);
        if (i >= 0) Object.assign(s.nodes[i], patch);
        s.rows = flattenTree(s.nodes, s.expanded);
      });
    },
  })),
);

/** Checked entries of the current folder as the batch calls want them (top level only: a folder stands for its content). */
export function checkedTopLevel(state: Pick<FilesState, 'nodes' | 'checked'>): TreeNode[] {
  return state.nodes.filter((n) => state.checked.has(n.id));
}
