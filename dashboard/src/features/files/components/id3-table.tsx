import { useEffect, useMemo, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Cell, Column, ColumnHeaderCell, RegionCardinality, SelectionModes, Table2, type Region } from '../../../components/ui/data-table.tsx';
import { NonIdealState, Spinner } from '../../../components/ui/display.tsx';
import { Checkbox, SegmentedControl, Switch } from '../../../components/ui/form.tsx';
import { Menu, Popover } from '../../../components/ui/menu.tsx';
import { DEFAULT_FOLDER_LIMIT, DEFAULT_TABLE_COLUMNS } from '../../../lib/constants.ts';
import { useT } from '../../../lib/i18n.ts';
import { loadSetting, saveSetting, type LocalSettings } from '../../../lib/local-settings.ts';
import { getFileId3List } from '../api/get-file-id3-list.ts';
import type { Id3Row, SelectItem } from '../api/types.ts';
import { fitColumnWidths } from '../lib/column-widths.ts';
import { nextSort, sortRows, UNSORTED, type SortState } from '../lib/sort-cycle.ts';

type Size = LocalSettings['tableSize'];

/** `width` is the column's share when the table is wide enough; `min` the narrowest it gets (default 56). */
export const TABLE_COLUMNS: { key: keyof Id3Row; label: string; width: number; min?: number }[] = [
  { key: 'album_img', label: '封面', width: 56, min: 56 },
  { key: 'filename', label: '文件名', width: 200 },
  { key: 'title', label: '标题', width: 170 },
  { key: 'artist', label: '艺术家|字段', width: 140 },
  { key: 'album', label: '专辑|字段', width: 150 },
  { key: 'albumartist', label: '专辑艺术家', width: 140 },
  { key: 'lyrics', label: '歌词', width: 110 },
  { key: 'lyrics_file', label: '歌词文件', width: 64, min: 56 },
  { key: 'year', label: '年份', width: 60, min: 52 },
  { key: 'genre', label: '流派|字段', width: 110, min: 64 },
  { key: 'tracknumber', label: '音轨号', width: 70 },
  { key: 'discnumber', label: '碟号', width: 60 },
  { key: 'composer', label: '作曲', width: 130 },
  { key: 'lyricist', label: '作词', width: 130 },
  { key: 'comment', label: '备注', width: 150 },
  { key: 'language', label: '语言', width: 90 },
  { key: 'album_type', label: '专辑类型', width: 120 },
  { key: 'duration', label: '时长', width: 70 },
  { key: 'bit_rate', label: '比特率', width: 80 },
  { key: 'sample_rate', label: '采样率', width: 80 },
  { key: 'size', label: '大小', width: 70 },
  { key: 'state', label: '状态', width: 80 },
];

const ROW_HEIGHT: Record<Size, number> = { xs: 24, sm: 36, md: 60 };
/** The route's maximum (POST /apimt/file_id3_list/ `limit`), and the steps the "show more" button takes. */
const MAX_LIMIT = 5000;
const LIMIT_STEPS = [100, 500, 1000, 2000, MAX_LIMIT];
/** Blueprint's row-number column plus a vertical scroll bar. */
const TABLE_CHROME_PX = 30 + 12;
/** The next larger limit, or null at the route's maximum. */
const nextLimit = (limit: number): number | null => LIMIT_STEPS.find((s) => s > limit) ?? null;

export interface Id3Source {
  folder: string;
  items: SelectItem[];
}

const cellText = (row: Id3Row, key: keyof Id3Row): string => {
  const v = row[key];
  if (v === null || v === undefined) return '';
  if (key === 'lyrics_file') return v ? '✓' : '';
  if (key === 'duration') return `${Math.floor(Number(v) / 60)}:${String(Math.round(Number(v) % 60)).padStart(2, '0')}`;
  if (key === 'size') return `${v} MB`;
  if (key === 'bit_rate') return `${v} kbps`;
  if (key === 'sample_rate') return `${v} kHz`;
  return String(v);
};

/**
 * The multi-file table: tags of the checked files and folders (§2). Visible columns are chosen and
 * remembered, a header click sorts (none → asc → desc → asc), rows come in three sizes, Shift-click
 * selects a range, a plain click opens the file in the editor.
 */
export function Id3Table({ source, version, onOpenRow }: { source: Id3Source | null; version: number; onOpenRow: (row: Id3Row) => void }) {
  const t = useT();
  const [rows, setRows] = useState<Id3Row[]>([]);
  const [loading, setLoading] = useState(false);
  const [sort, setSort] = useState<SortState>(UNSORTED);
  const [size, setSize] = useState<Size>(loadSetting('tableSize', 'sm'));
  const [visible, setVisible] = useState<string[]>(loadSetting('showFieldsID3', [...DEFAULT_TABLE_COLUMNS]));
  const [selection, setSelection] = useState<Region[]>([]);
  const [deep, setDeep] = useState(loadSetting('isDepth', false));
  // The limit in effect (the spec's `limit` setting, raised here on demand) and whether files lie beyond it.
  const [limit, setLimit] = useState(() => Math.min(MAX_LIMIT, Math.max(1, loadSetting('limit', DEFAULT_FOLDER_LIMIT))));
  const [more, setMore] = useState(false);
  const host = useRef<HTMLDivElement>(null);
  const [hostWidth, setHostWidth] = useState(0);

  const sourceKey = source ? `${source.folder}\u0000${source.items.map((i) => i.name).join('\u0000')}` : '';
  useEffect(() => {
    setSelection([]);
    if (!source || source.items.length === 0) {
      setRows([]);
      setMore(false);
      return;
    }
    const controller = new AbortController();
    setLoading(true);
    getFileId3List(
      {
        file_full_path: source.folder,
        select_data: source.items,
        // One row beyond the limit tells whether the limit cut the list.
        limit: Math.min(MAX_LIMIT, limit + 1),
        depth: deep ? -1 : 1,
        is_webdav: loadSetting('isOpenWebdav', false),
      },
      controller.signal,
    ).then(
      (r) => {
        setRows(r.slice(0, limit));
        // At the route's maximum no extra row can be asked for: a full list may have been cut.
        setMore(r.length > limit || (limit >= MAX_LIMIT && r.length >= MAX_LIMIT));
        setLoading(false);
      },
      () => {
        if (!controller.signal.aborted) {
          setRows([]);
          setLoading(false);
        }
      },
    );
    return () => controller.abort();
    // sourceKey stands for source's content; version reloads after saves.
  }, [sourceKey, version, deep, limit]);

  // The table's width decides the columns' widths, so the default columns fit without scrolling.
  const hasTable = rows.length > 0;
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setHostWidth(Math.round(el.clientWidth)));
    observer.observe(el);
    return () => observer.disconnect();
  }, [hasTable]);

  const sorted = useMemo(() => sortRows(rows, sort, (r, k) => r[k as keyof Id3Row]), [rows, sort]);
  const columns = TABLE_COLUMNS.filter((c) => visible.includes(c.key));
  const widths = useMemo(() => fitColumnWidths(columns, hostWidth - TABLE_CHROME_PX), [visible, hostWidth]);
  const raiseTo = more ? nextLimit(limit) : null;
  const selectedRows = selection.reduce((n, r) => n + (r.rows ? r.rows[1] - r.rows[0] + 1 : 0), 0);

  const changeSize = (s: string) => {
    setSize(s as Size);
    saveSetting('tableSize', s as Size);
  };
  const toggleColumn = (key: string, on: boolean) => {
    const next = TABLE_COLUMNS.map((c) => c.key as string).filter((k) => (k === key ? on : visible.includes(k)));
    setVisible(next);
    saveSetting('showFieldsID3', next);
  };

  const columnMenu = (
    <Menu className="ts-column-menu">
      {TABLE_COLUMNS.map((c) => (
        <li key={c.key}>
          <Checkbox checked={visible.includes(c.key)} label={t(c.label)} onChange={(e) => toggleColumn(c.key, e.currentTarget.checked)} />
        </li>
      ))}
    </Menu>
  );

  const onSelection = (regions: Region[]) => {
    setSelection(regions);
    // A single plain click selects one row: open it. Shift-click ranges (several rows) only select.
    const only = regions.length === 1 ? regions[0].rows : undefined;
    if (only && only[0] === only[1]) onOpenRow(sorted[only[0]]);
  };

  return (
    <div className="ts-id3-table" data-testid="id3-table" data-rows={sorted.length} data-selected-rows={selectedRows}>
      <div className="ts-table-toolbar">
        <span className="ts-muted ts-table-count" data-testid="id3-count" data-limit={limit} data-more={more ? 'true' : 'false'}>
          {loading ? t('读取标签中…') : t('{n} 个文件', { n: sorted.length })}
          {selectedRows > 1 ? ` · ${t('已选 {n} 行', { n: selectedRows })}` : ''}
        </span>
        <span className="ts-grow" />
        <Switch
          className="ts-inline-switch"
          checked={deep}
          label={t('包含子文件夹')}
          onChange={(e) => {
            const on = e.currentTarget.checked;
            setDeep(on);
            saveSetting('isDepth', on);
          }}
        />
        <SegmentedControl
          size="small"
          value={size}
          onValueChange={changeSize}
          options={[
            { label: 'xs', value: 'xs' },
            { label: 'sm', value: 'sm' },
            { label: 'md', value: 'md' },
          ]}
          aria-label={t('行高')}
        />
        <Popover content={columnMenu} placement="bottom-end">
          <Button size="small" variant="minimal" icon="column-layout" text={t('列')} />
        </Popover>
      </div>
      {more && !loading ? (
        // The limit cut the list: say so, and offer the next step up to the route's maximum.
        <div className="ts-table-limit" data-testid="id3-limit">
          <span>
            {raiseTo !== null
              ? t('只显示前 {n} 个文件（上限 {limit}），还有更多未列出。', { n: sorted.length, limit })
              : t('只显示前 {n} 个文件（已是最大上限），可能还有更多未列出。', { n: sorted.length })}
          </span>
          {raiseTo !== null ? <Button size="small" icon="more" text={t('显示更多（上限 {n}）', { n: raiseTo })} onClick={() => setLimit(raiseTo)} /> : null}
        </div>
      ) : null}
      {loading && rows.length === 0 ? (
        <Spinner className="ts-pad" />
      ) : sorted.length === 0 ? (
        <NonIdealState icon="th-disconnect" description={t('暂无信息')} className="ts-table-empty" />
      ) : (
        <div className="ts-table-host" ref={host}>
          {hostWidth > 0 ? (
            <Table2
              numRows={sorted.length}
              defaultRowHeight={ROW_HEIGHT[size]}
              columnWidths={widths}
              selectionModes={SelectionModes.ROWS_AND_CELLS}
              selectedRegions={selection}
              onSelection={onSelection}
              selectedRegionTransform={(region) => ({ ...region, cols: undefined, rows: region.rows ?? [0, 0] }) as Region}
              enableFocusedCell={false}
              enableRowResizing={false}
              enableMultipleSelection
              cellRendererDependencies={[sorted, size, t, widths]}
              getCellClipboardData={(r, c) => cellText(sorted[r], columns[c].key)}
              // Blueprint keeps rows drawn with old widths: a new width set draws the table afresh.
              key={`${size}:${columns.map((c) => c.key).join(',')}:${widths.join(',')}`}
            >
              {columns.map((c) => (
                <Column
                  key={c.key}
                  id={c.key}
                  columnHeaderCellRenderer={() => (
                    <ColumnHeaderCell
                      name={t(c.label)}
                      nameRenderer={(name) => (
                        <button
                          type="button"
                          className="ts-sort-head"
                          data-column={c.key}
                          data-sort={sort.key === c.key ? sort.direction ?? 'none' : 'none'}
                          title={name}
                          onMouseDown={(e) => e.stopPropagation()}
                          onClick={() => setSort(nextSort(sort, c.key))}
                        >
                          {name}
                          <span aria-hidden="true">{sort.key === c.key ? (sort.direction === 'asc' ? ' ▲' : ' ▼') : ''}</span>
                        </button>
                      )}
                    />
                  )}
                  cellRenderer={(r) => {
                    const row = sorted[r];
                    if (c.key === 'album_img') {
                      return <Cell className="ts-cover-cell">{row.album_img ? <img src={row.album_img} alt="" loading="lazy" /> : null}</Cell>;
                    }
                    const text = cellText(row, c.key);
                    return (
                      // Narrow columns cut text with an ellipsis; the whole value is in the tooltip.
                      <Cell className={c.key === 'state' || c.key === 'filename' ? `ts-state-${row.state ?? 'null'}` : undefined} tooltip={text || undefined}>
                        {row.error && c.key === 'filename' ? `⚠ ${text}` : text}
                      </Cell>
                    );
                  }}
                />
              ))}
            </Table2>
          ) : null}
        </div>
      )}
    </div>
  );
}
