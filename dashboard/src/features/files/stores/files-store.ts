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
  /** Milliseconds from request to data, for the performance figures. */
  lastLoadMs: number;
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
    lastLoadMs: 0,
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
        const nodes = data.file_list_data;
        set((s) => {
          if (s.path !== data.file_path) {
            s.checked = new Set();
            s.anchorId = null;
            s.expanded = new Set();
          }
          s.path = data.file_path;
          s.parentPath = data.parent_path;
          s.folderName = data.file_name;
          s.nodes = nodes;
          s.rows = flattenTree(nodes, s.expanded);
          s.total = data.total;
          s.loading = false;
          s.lastLoadMs = Math.round(performance.now() - started);
        });
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
