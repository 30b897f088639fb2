import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useLocation, useSearch } from 'wouter';
import backgroundUrl from '../../../assets/background.svg';
import placeholderUrl from '../../../assets/placeholder.svg';
import { Button } from '../../../components/ui/button.tsx';
import { Drawer } from '../../../components/ui/overlay.tsx';
import { useT } from '../../../lib/i18n.ts';
import { loadSetting, saveSetting } from '../../../lib/local-settings.ts';
import { useIsMobile } from '../../../lib/use-media.ts';
import { useSession } from '../../../stores/session-store.ts';
import { useThemeStore } from '../../../stores/theme-store.ts';
import type { Id3Row, TreeNode } from '../api/types.ts';
import { checkedTopLevel, useFilesStore } from '../stores/files-store.ts';
import { CheckedPanel } from './checked-panel.tsx';
import { FileTree } from './file-tree.tsx';
import { Id3Table, type Id3Source } from './id3-table.tsx';
import { ImagePreviewDialog } from './image-preview-dialog.tsx';
import { isSystemFile } from '../lib/system-files.ts';
import { clampTreeWidth, ResizeHandle } from './resize-handle.tsx';
import { TreeToolbar } from './tree-toolbar.tsx';

/** The file the editor shows: the server path and the name for titles. */
export interface EditorTarget {
  filePath: string;
  name: string;
}

export interface RightPanel {
  title: string;
  node: ReactNode;
  onClose: () => void;
}

interface FileScreenProps {
  /** /detail: the resource area lists the current folder's tags even with nothing checked. */
  detail: boolean;
  renderEditor: (target: EditorTarget | null, controls: { onSaved: (renamedTo?: string) => void; close: () => void }) => ReactNode;
  /** Something another feature shows in the resource area instead (lyric translation). */
  rightPanel?: RightPanel | null;
  /** The batch side bar (another feature): the ticked entries of the folder shown; `onCreated` reloads the list. */
  renderBatch?: (ticked: TickedEntries, controls: { onCreated: () => void; mobile: boolean }) => ReactNode;
}

/** What is ticked, as the batch calls name it: the folder shown and the ticked entries in it. */
export interface TickedEntries {
  folder: string;
  items: { icon: string; name: string; title: string }[];
}

const DEFAULT_TREE_WIDTH = 340;

/**
 * The main file screen (/ and /detail): tree on the left, the edit area in the middle, the resource area
 * on the right; on small screens the tree alone with a bottom bar, and drawers for the rest (§2).
 */
export function FileScreen({ detail, renderEditor, rightPanel, renderBatch }: FileScreenProps) {
  const t = useT();
  const mobile = useIsMobile();
  const [, navigate] = useLocation();
  const search = useSearch();
  const files = useFilesStore();
  const hideBackground = useThemeStore((s) => s.hideBackground);
  const customBackground = useSession((s) => s.user?.sys_dict.background_url ?? null);
  const [treeWidth, setTreeWidth] = useState(() => clampTreeWidth(loadSetting('treeWidth', DEFAULT_TREE_WIDTH), window.innerWidth));

  // ?path= opens a folder, ?target=detail picks the route; the query is then cleared (§2).
  useEffect(() => {
    const query = new URLSearchParams(search);
    const path = query.get('path');
    const target = query.get('target');
    if (path !== null || target !== null) {
      void useFilesStore.getState().load(path ?? undefined);
      navigate(target === 'detail' ? '/detail' : '/', { replace: true });
      return;
    }
    const s = useFilesStore.getState();
    if (s.nodes.length === 0 && !s.loading) void s.load(s.path);
    // Only the query matters here; navigation inside the screen is the store's.
  }, [search, navigate]);

  const openFile = useCallback((node: TreeNode) => useFilesStore.getState().setOpenFile(node), []);
  const openRow = useCallback((row: Id3Row) => useFilesStore.getState().setOpenFile(rowAsNode(row)), []);

  const target: EditorTarget | null = files.openFile ? { filePath: files.openFile.full_path, name: files.openFile.name } : null;
  const closeEditor = useCallback(() => useFilesStore.getState().setOpenFile(null), []);
  const onSaved = useCallback((renamedTo?: string) => {
    const s = useFilesStore.getState();
    s.tagsChanged();
    if (renamedTo && s.openFile) s.setOpenFile({ ...s.openFile, id: renamedTo, full_path: renamedTo, name: renamedTo.slice(renamedTo.lastIndexOf('/') + 1) });
    if (renamedTo) void s.load();
  }, []);

  const checkedNodes = useMemo(() => checkedTopLevel({ nodes: files.nodes, checked: files.checked }), [files.nodes, files.checked]);
  const source: Id3Source | null = useMemo(() => {
    if (checkedNodes.length > 0) return { folder: files.path, items: checkedNodes.map((n) => ({ name: n.name, icon: n.icon, title: n.title })) };
    if (!detail || files.path === '') return null;
    if (files.parentPath === null) return { folder: files.path, items: files.nodes.map((n) => ({ name: n.name, icon: n.icon, title: n.title })) };
    return { folder: files.parentPath, items: [{ name: files.folderName, icon: 'icon-folder', title: files.folderName }] };
  }, [checkedNodes, detail, files.path, files.parentPath, files.folderName, files.nodes]);

  // System files (desktop.ini…) are not the user's: not sent to batch actions, as the checked card does not count them.
  const ticked: TickedEntries = useMemo(
    () => ({ folder: files.path, items: checkedNodes.filter((n) => n.is_dir || !isSystemFile(n.name)).map((n) => ({ icon: n.icon, name: n.name, title: n.title })) }),
    [checkedNodes, files.path],
  );
  const onBatchCreated = useCallback(() => {
    const s = useFilesStore.getState();
    s.tagsChanged();
    void s.load();
  }, []);
  const batch = (isMobile: boolean) => renderBatch?.(ticked, { onCreated: onBatchCreated, mobile: isMobile }) ?? null;

  const table = source ? <Id3Table source={source} version={files.tagsVersion} onOpenRow={openRow} /> : null;
  const editor = renderEditor(target, { onSaved, close: closeEditor });

  const background = hideBackground ? (
    <div className="ts-placeholder" data-testid="resource-placeholder">
      <img src={placeholderUrl} alt="" />
      <p className="ts-muted">{t('勾选文件或文件夹以查看标签列表')}</p>
    </div>
  ) : (
    <div className="ts-background" data-testid="resource-background" style={{ backgroundImage: `url("${customBackground ?? backgroundUrl}")` }} />
  );

  if (mobile) {
    return (
      <div className="ts-files ts-files-mobile">
        <aside className="ts-tree-panel">
          <TreeToolbar />
          <FileTree onOpenFile={openFile} />
        </aside>
        <nav className="ts-bottom-bar" aria-label={t('底部导航')}>
          <Button variant="minimal" icon="home" text={t('首页')} active={!detail} onClick={() => navigate('/')} />
          <Button variant="minimal" icon="th-list" text={t('详情')} active={detail} onClick={() => navigate('/detail')} />
        </nav>
        <Drawer isOpen={target !== null} onClose={closeEditor} title={t('元数据详情')} position="right" size="100%" className="ts-mobile-drawer">
          <div className="ts-drawer-body">{editor}</div>
        </Drawer>
        <Drawer isOpen={detail && target === null} onClose={() => navigate('/')} title={t('标签列表')} position="bottom" size="85%" className="ts-mobile-drawer">
          <div className="ts-drawer-body ts-fill">{table ?? <Id3Table source={null} version={0} onOpenRow={openRow} />}</div>
        </Drawer>
        {/* Above the editor drawer: the lyric translation is opened from inside the editor. */}
        <Drawer isOpen={!!rightPanel} onClose={() => rightPanel?.onClose()} title={rightPanel ? t(rightPanel.title) : ''} position="bottom" size="85%" className="ts-mobile-drawer">
          <div className="ts-drawer-body ts-fill">{rightPanel?.node}</div>
        </Drawer>
        {checkedNodes.length > 0 && !detail ? (
          <div className="ts-mobile-checked">
            <span>{t('已勾选 {n}', { n: files.checked.size })}</span>
            <Button size="small" text={t('查看标签')} onClick={() => navigate('/detail')} />
            {batch(true)}
          </div>
        ) : null}
        <ImagePreviewDialog />
      </div>
    );
  }

  return (
    // The checked card needs less room than the editor: the table beside it gets the rest.
    <div
      className="ts-files"
      style={{ gridTemplateColumns: `${treeWidth}px 6px ${checkedNodes.length > 0 ? 'minmax(300px, 340px)' : 'minmax(340px, 460px)'} minmax(0, 1fr)`, ['--ts-tree-w' as string]: `${treeWidth}px` }}
    >
      <aside className="ts-tree-panel" aria-label={t('文件树')}>
        <TreeToolbar />
        <FileTree onOpenFile={openFile} />
      </aside>
      <ResizeHandle width={treeWidth} onResize={setTreeWidth} onDone={(w) => saveSetting('treeWidth', w)} />
      <section className="ts-edit-area" aria-label={t('编辑区')}>
        {batch(false)}
        {checkedNodes.length > 0 ? <CheckedPanel /> : editor}
      </section>
      <section className="ts-resource-area" aria-label={t('资源区')}>
        {rightPanel ? (
          <div className="ts-right-panel">
            <div className="ts-right-head">
              <strong>{t(rightPanel.title)}</strong>
              <Button variant="minimal" icon="cross" aria-label={t('关闭')} onClick={rightPanel.onClose} />
            </div>
            {rightPanel.node}
          </div>
        ) : (
          (table ?? background)
        )}
      </section>
      <ImagePreviewDialog />
    </div>
  );
}

/** A table row as the tree node the editor opens (table rows can come from sub-folders). */
function rowAsNode(row: Id3Row): TreeNode {
  return {
    id: row.file_full_path,
    name: row.filename,
    title: row.filename,
    icon: row.icon,
    state: row.state,
    children: [],
    selected: false,
    is_dir: false,
    full_path: row.file_full_path,
    size: row.size,
    update_time: '',
  };
}
