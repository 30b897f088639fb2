import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ButtonHTMLAttributes, type MouseEvent as ReactMouseEvent } from 'react';
import { ControlledTreeEnvironment, Tree, type InteractionManager, type TreeItem, type TreeItemIndex } from 'react-complex-tree';
import { FontIcon, Tag, type IconName } from '../../../components/ui/display.tsx';
import { Menu, MenuDivider, MenuItem, openContextMenu } from '../../../components/ui/menu.tsx';
import { TREE_BUFFER_ROWS, TREE_INDENT, TREE_ROW_HEIGHT, TREE_WINDOW_CHUNK } from '../../../lib/constants.ts';
import { useLang, useT } from '../../../lib/i18n.ts';
import { serverMessage } from '../../../lib/server-messages.ts';
import type { ScrapeState, TreeNode } from '../api/types.ts';
import { updateFolderState } from '../api/update-folder-state.ts';
import { rememberScroll, scrollTopOf } from '../lib/scroll-memory.ts';
import { dragRange, shiftRange, toggleRow } from '../lib/selection.ts';
import { isAudio, isImage, type TreeRow } from '../lib/tree-rows.ts';
import { rowWindow, scrollToReveal } from '../lib/virtual-window.ts';
import { useFilesStore } from '../stores/files-store.ts';

const TREE_ID = 'files';
const ROOT = '__root__';

const ICONS: Record<string, IconName> = {
  'icon-folder': 'folder-close',
  'icon-file': 'music',
  'icon-image': 'media',
  'icon-script-file': 'document',
  'icon-script-files': 'properties',
  'icon-cue': 'list-detail-view',
  'icon-strm': 'link',
  'icon-video': 'video',
  'icon-zip': 'compressed',
  'icon-other': 'document',
};

interface DragState {
  start: number;
  value: boolean;
  baseline: Set<string>;
}

/**
 * The folder's entries as a virtual-scrolled tree: only the rows in view (plus a buffer) are handed to
 * react-complex-tree, which keeps focus, keyboard navigation and ARIA; padding stands in for the rest,
 * so a 10 000-entry folder renders like a 60-entry one. Checkboxes follow §4: click, Shift range,
 * drag across.
 */
export function FileTree({ onOpenFile }: { onOpenFile: (node: TreeNode) => void }) {
  const t = useT();
  const lang = useLang((s) => s.lang);
  const rows = useFilesStore((s) => s.rows);
  const path = useFilesStore((s) => s.path);
  const checked = useFilesStore((s) => s.checked);
  const openFile = useFilesStore((s) => s.openFile);
  const loading = useFilesStore((s) => s.loading);
  const store = useFilesStore;

  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(600);
  const [focused, setFocused] = useState<TreeItemIndex | undefined>(undefined);
  const drag = useRef<DragState | null>(null);
  const shiftClicks = useRef<string[]>([]);
  const shiftAnchor = useRef<string | null>(null);
  const frame = useRef(0);

  // The render share of the listing time, for the performance figures (written straight to the DOM).
  useLayoutEffect(() => {
    const el = scroller.current;
    const { timing } = store.getState();
    if (!el || timing.at === 0) return;
    el.dataset.requestMs = String(timing.requestMs);
    el.dataset.storeMs = String(timing.storeMs);
    el.dataset.renderMs = String(Math.round(performance.now() - timing.at));
  }, [rows, store]);

  // Restore the folder's remembered scroll position whenever another folder's entries arrive (§4).
  const shownPath = useRef('');
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || path === shownPath.current) return;
    shownPath.current = path;
    const top = scrollTopOf(path);
    el.scrollTop = top;
    setScrollTop(el.scrollTop);
  }, [path, rows]);

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setViewport(el.clientHeight));
    ro.observe(el);
    setViewport(el.clientHeight);
    return () => ro.disconnect();
  }, []);

  const onScroll = useCallback(() => {
    if (frame.current) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = 0;
      const el = scroller.current;
      if (!el) return;
      setScrollTop(el.scrollTop);
      rememberScroll(store.getState().path, el.scrollTop);
    });
  }, [store]);

  const win = rowWindow(scrollTop, viewport, TREE_ROW_HEIGHT, rows.length, TREE_BUFFER_ROWS, TREE_WINDOW_CHUNK);
  const indexById = useMemo(() => new Map(rows.map((r, i) => [r.node.id, i])), [rows]);

  const items = useMemo(() => {
    const record: Record<TreeItemIndex, TreeItem<TreeRow>> = {
      [ROOT]: { index: ROOT, isFolder: true, children: [], data: { node: null as unknown as TreeNode, depth: -1, parentId: null } },
    };
    const children: TreeItemIndex[] = [];
    for (let i = win.start; i < win.end; i++) {
      const row = rows[i];
      children.push(row.node.id);
      record[row.node.id] = { index: row.node.id, isFolder: row.node.is_dir, children: [], data: row };
    }
    record[ROOT].children = children;
    return record;
  }, [rows, win.start, win.end]);

  // Shift held: clicks are collected; on release the whole range between the first and last is checked.
  useEffect(() => {
    const down = (e: KeyboardEvent) => {
      if (e.key === 'Shift' && shiftClicks.current.length === 0) shiftAnchor.current = store.getState().anchorId;
    };
    const up = (e: KeyboardEvent) => {
      if (e.key !== 'Shift' || shiftClicks.current.length === 0) return;
      const s = store.getState();
      const clicked = shiftClicks.current;
      shiftClicks.current = [];
      s.setChecked(shiftRange(s.checked, s.rows, clicked, shiftAnchor.current), clicked[clicked.length - 1]);
    };
    const release = () => {
      drag.current = null;
    };
    window.addEventListener('keydown', down);
    window.addEventListener('keyup', up);
    window.addEventListener('mouseup', release);
    window.addEventListener('blur', release);
    return () => {
      window.removeEventListener('keydown', down);
      window.removeEventListener('keyup', up);
      window.removeEventListener('mouseup', release);
      window.removeEventListener('blur', release);
    };
  }, [store]);

  const onCheckboxDown = (e: ReactMouseEvent, row: TreeRow) => {
    if (e.button !== 0) return;
    e.preventDefault();
    e.stopPropagation();
    const s = store.getState();
    const index = indexById.get(row.node.id) ?? -1;
    if (e.shiftKey) {
      shiftClicks.current.push(row.node.id);
      s.setChecked(toggleRow(s.checked, row, true));
      return;
    }
    const value = !s.checked.has(row.node.id);
    drag.current = { start: index, value, baseline: s.checked };
    s.setChecked(toggleRow(s.checked, row, value), row.node.id);
  };

  const onCheckboxEnter = (row: TreeRow) => {
    const d = drag.current;
    if (!d) return;
    const s = store.getState();
    const index = indexById.get(row.node.id) ?? -1;
    if (index >= 0) s.setChecked(dragRange(d.baseline, s.rows, d.start, index, d.value));
  };

  const activate = useCallback(
    (row: TreeRow) => {
      const s = store.getState();
      const n = row.node;
      if (n.is_dir) {
        if (n.children.length > 0) s.toggleExpanded(n.id);
        else void s.load(n.full_path);
      } else if (isImage(n)) s.setPreview(n);
      else if (s.checked.has(n.id)) s.setChecked(toggleRow(s.checked, row, false));
      else if (isAudio(n)) onOpenFile(n);
    },
    [onOpenFile, store],
  );

  const mark = async (node: TreeNode, state: ScrapeState) => {
    try {
      await updateFolderState(node.full_path, state);
      store.getState().patchNode(node.id, { state });
    } catch {
      // 创建失败！ has been shown.
    }
  };

  const contextMenu = (e: ReactMouseEvent, row: TreeRow) => {
    const n = row.node;
    openContextMenu(
      <Menu>
        {n.is_dir ? <MenuItem icon="folder-open" text={t('打开')} onClick={() => activate(row)} /> : null}
        {isImage(n) ? <MenuItem icon="eye-open" text={t('预览')} onClick={() => activate(row)} /> : null}
        {isAudio(n) ? <MenuItem icon="edit" text={t('编辑标签')} onClick={() => onOpenFile(n)} /> : null}
        <MenuDivider title={t('刮削状态')} />
        <MenuItem icon="tick-circle" text={t('标记为已刮削')} onClick={() => void mark(n, 'success')} />
        <MenuItem icon="error" text={t('标记为失败')} onClick={() => void mark(n, 'failed')} />
        <MenuItem icon="circle" text={t('标记为未刮削')} onClick={() => void mark(n, null)} />
      </Menu>,
      e,
    );
  };

  const interaction = useMemo<InteractionManager>(
    () => ({
      mode: 'tagsonic-click',
      createInteractiveElementProps: (item, _treeId, actions, flags) => ({
        onClick: () => {
          actions.focusItem();
          activate(item.data as TreeRow);
        },
        onFocus: () => actions.focusItem(false),
        tabIndex: flags.isFocused ? 0 : -1,
      }),
    }),
    [activate],
  );

  const onFocusItem = useCallback(
    (item: TreeItem<TreeRow>) => {
      setFocused(item.index);
      // Keyboard focus can walk past the rendered rows; scrolling brings the next ones in.
      const el = scroller.current;
      const index = indexById.get(String(item.index));
      if (!el || index === undefined) return;
      const top = scrollToReveal(index, el.scrollTop, el.clientHeight, TREE_ROW_HEIGHT);
      if (top !== null) el.scrollTop = top;
    },
    [indexById],
  );

  const viewState = useMemo(
    () => ({ [TREE_ID]: { focusedItem: focused, selectedItems: openFile ? [openFile.id] : [], expandedItems: [] as TreeItemIndex[] } }),
    [focused, openFile],
  );

  return (
    <div
      className="ts-tree-scroller"
      ref={scroller}
      onScroll={onScroll}
      data-testid="file-tree"
      data-row-count={rows.length}
      data-loading={loading || undefined}
      aria-busy={loading}
    >
      {rows.length === 0 && !loading ? <div className="ts-tree-empty">{t('暂无文件')}</div> : null}
      <div style={{ height: win.padTop }} aria-hidden="true" />
      <ControlledTreeEnvironment<TreeRow>
        items={items}
        getItemTitle={(item) => item.data.node?.title ?? ''}
        viewState={viewState}
        onFocusItem={onFocusItem}
        onPrimaryAction={(item) => activate(item.data)}
        defaultInteractionMode={interaction}
        canSearch={false}
        canDragAndDrop={false}
        canRename={false}
        renderDepthOffset={TREE_INDENT}
        renderTreeContainer={({ children, containerProps }) => (
          <div {...containerProps} className="ts-tree">
            {children}
          </div>
        )}
        renderItemsContainer={({ children, containerProps }) => (
          <ul {...containerProps} className="ts-tree-items">
            {children}
          </ul>
        )}
        renderItemArrow={() => null}
        renderItem={({ item, title, context }) => {
          const row = item.data;
          const n = row.node;
          const isChecked = checked.has(n.id);
          return (
            <li
              {...context.itemContainerWithChildrenProps}
              className={`ts-tree-li${context.isFocused ? ' ts-focused' : ''}${context.isSelected ? ' ts-selected' : ''}${isChecked ? ' ts-checked' : ''}`}
              aria-level={row.depth + 1}
              data-name={n.name}
              data-state={n.state ?? 'null'}
              data-scan-problem={n.scan_problem?.code}
              onContextMenu={(e) => contextMenu(e, row)}
            >
              <div {...context.itemContainerWithoutChildrenProps} className="ts-tree-row" style={row.depth > 0 ? { paddingLeft: 4 + row.depth * TREE_INDENT } : undefined}>
                <span
                  role="checkbox"
                  aria-checked={isChecked}
                  aria-label={`${t('勾选')} ${n.name}`}
                  tabIndex={-1}
                  className={`ts-check${isChecked ? ' ts-on' : ''}`}
                  onMouseDown={(e) => onCheckboxDown(e, row)}
                  onMouseEnter={() => onCheckboxEnter(row)}
                  onKeyDown={(e) => {
                    if (e.key === ' ') {
                      e.preventDefault();
                      const s = store.getState();
                      s.setChecked(toggleRow(s.checked, row), n.id);
                    }
                  }}
                />
                {n.is_dir && n.children.length > 0 ? (
                  <button type="button" className="ts-tree-arrow" tabIndex={-1} aria-label={t('展开')} onClick={() => store.getState().toggleExpanded(n.id)}>
                    <FontIcon icon={store.getState().expanded.has(n.id) ? 'chevron-down' : 'chevron-right'} />
                  </button>
                ) : null}
                <button {...(context.interactiveElementProps as ButtonHTMLAttributes<HTMLButtonElement>)} type="button" className="ts-tree-button" title={n.name}>
                  <FontIcon icon={ICONS[n.icon] ?? 'document'} className={`ts-tree-icon ts-${n.icon}`} />
                  <span className={`ts-tree-title ts-state-${n.state ?? 'null'}`}>{title}</span>
                  {n.scan_problem ? (
                    <Tag className="ts-tree-problem" intent="danger" minimal data-code={n.scan_problem.code} title={serverMessage(n.scan_problem.code, n.scan_problem.message, lang)} style={{ flex: 'none', marginLeft: 6 }}>
                      {t('不是歌曲')}
                    </Tag>
                  ) : null}
                </button>
              </div>
            </li>
          );
        }}
      >
        <Tree treeId={TREE_ID} rootItem={ROOT} treeLabel={t('文件树')} />
      </ControlledTreeEnvironment>
      <div style={{ height: win.padBottom }} aria-hidden="true" />
    </div>
  );
}
