import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { InputGroup } from '../../../components/ui/form.tsx';
import { Menu, MenuDivider, MenuItem, Popover } from '../../../components/ui/menu.tsx';
import { SEARCH_DEBOUNCE_MS } from '../../../lib/constants.ts';
import { useT } from '../../../lib/i18n.ts';
import { SORT_FIELDS, useFilesStore } from '../stores/files-store.ts';

const SORT_LABELS: Record<string, string> = { name: '名称', update_time: '修改时间', size: '大小', state: '刮削状态', folder: '文件夹优先' };
const FILTERS = [
  { word: 'state:null', label: '未刮削' },
  { word: 'state:success', label: '已刮削' },
  { word: 'state:failed', label: '刮削失败' },
];

/** Back arrow (never above the home), path box, refresh, filter with the state: options, sort menu (§2, §5). */
export function TreeToolbar() {
  const t = useT();
  const { path, parentPath, loading, sortedField, searchWord, total, rows, checked } = useFilesStore();
  const { load, setSort, setSearchWord } = useFilesStore.getState();
  const [pathText, setPathText] = useState(path);
  const [filter, setFilter] = useState(searchWord);
  const pathInput = useRef<HTMLInputElement>(null);

  // The box follows the folder shown, except while the user is typing in it: a folder that finishes loading
  // then (the first one, say) must not replace what they typed before they press Enter.
  const typing = useRef(false);
  useEffect(() => {
    if (typing.current && document.activeElement === pathInput.current) return;
    typing.current = false;
    setPathText(path);
  }, [path]);
  // A narrow tree shows the end of the path (the folder you are in), not its start; focus shows it all.
  // The text's width changes when the box resizes or a web font arrives, so those scroll it again.
  const pathToEnd = useCallback(() => {
    const input = pathInput.current;
    if (input && document.activeElement !== input) input.scrollLeft = input.scrollWidth;
  }, []);
  useLayoutEffect(pathToEnd);
  useEffect(() => {
    const input = pathInput.current;
    if (!input) return;
    const observer = new ResizeObserver(pathToEnd);
    observer.observe(input);
    document.fonts.addEventListener('loadingdone', pathToEnd);
    return () => {
      observer.disconnect();
      document.fonts.removeEventListener('loadingdone', pathToEnd);
    };
  }, [pathToEnd]);
  useEffect(() => setFilter(searchWord), [searchWord]);

  // Typing filters after a pause; picking a state: option applies at once.
  useEffect(() => {
    if (filter === useFilesStore.getState().searchWord) return;
    const timer = setTimeout(() => setSearchWord(filter), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [filter, setSearchWord]);

  const descending = sortedField.startsWith('-');
  const sortKey = sortedField.replace(/^-/, '');

  const sortMenu = (
    <Menu aria-label={t('排序')}>
      {SORT_FIELDS.map((f) => (
        <MenuItem
          key={f}
          text={t(SORT_LABELS[f])}
          icon={sortKey === f ? (descending ? 'sort-desc' : 'sort-asc') : 'blank'}
          active={sortKey === f}
          data-sort={f}
          onClick={() => setSort(sortKey === f && f !== 'folder' ? (descending ? f : `-${f}`) : f)}
        />
      ))}
    </Menu>
  );

  const filterMenu = (
    <Menu aria-label={t('过滤')}>
      {FILTERS.map((f) => (
        <MenuItem key={f.word} text={`${f.word} (${t(f.label)})`} active={searchWord === f.word} data-filter={f.word} onClick={() => setSearchWord(f.word)} />
      ))}
      <MenuDivider />
      <MenuItem text={t('清除过滤')} icon="cross" disabled={searchWord === ''} onClick={() => setSearchWord('')} />
    </Menu>
  );

  return (
    <div className="ts-tree-toolbar">
      <div className="ts-row ts-nowrap">
        <Button icon="arrow-left" variant="minimal" aria-label={t('上一级')} title={t('上一级')} disabled={parentPath === null} onClick={() => parentPath !== null && void load(parentPath)} />
        <form
          className="ts-grow"
          onSubmit={(e) => {
            e.preventDefault();
            typing.current = false;
            if (pathText.trim() !== '') void load(pathText.trim());
          }}
        >
          <InputGroup
            inputRef={pathInput}
            value={pathText}
            onValueChange={(text) => {
              typing.current = true;
              setPathText(text);
            }}
            // Chromium scrolls a text box back to its start after blur: scroll to the end once it has.
            onBlur={() => requestAnimationFrame(pathToEnd)}
            aria-label={t('路径')}
            title={pathText}
            size="small"
            fill
            spellCheck={false}
          />
        </form>
        <Button icon="refresh" variant="minimal" aria-label={t('刷新')} title={t('刷新')} loading={loading} onClick={() => void load(undefined, { refresh: true })} />
      </div>
      <div className="ts-row ts-nowrap">
        <InputGroup
          className="ts-grow"
          size="small"
          leftIcon="filter"
          placeholder={t('名称或 state:failed')}
          value={filter}
          onValueChange={setFilter}
          aria-label={t('过滤')}
          rightElement={
            <Popover content={filterMenu} placement="bottom-end">
              <Button variant="minimal" size="small" icon="caret-down" aria-label={t('过滤选项')} />
            </Popover>
          }
        />
        <Popover content={sortMenu} placement="bottom-end">
          <Button
            className="ts-sort-button"
            size="small"
            variant="minimal"
            icon={descending ? 'sort-desc' : 'sort'}
            text={t(SORT_LABELS[sortKey] ?? '排序')}
            aria-label={t('排序')}
            title={t(SORT_LABELS[sortKey] ?? '排序')}
          />
        </Popover>
      </div>
      <div className="ts-tree-status ts-muted" aria-live="polite">
        {searchWord ? t('{shown} / {total} 项', { shown: rows.length, total }) : t('{total} 项', { total })}
        {checked.size > 0 ? ` · ${t('已勾选 {n}', { n: checked.size })}` : ''}
      </div>
    </div>
  );
}
