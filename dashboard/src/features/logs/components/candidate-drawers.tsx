import { useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Callout } from '../../../components/ui/display.tsx';
import { HTMLSelect } from '../../../components/ui/form.tsx';
import { Drawer } from '../../../components/ui/overlay.tsx';
import { useT } from '../../../lib/i18n.ts';
import { useIsMobile } from '../../../lib/use-media.ts';
import { getSources } from '../../editor/api/get-sources.ts';
import type { SourceInfo } from '../../editor/api/types.ts';
import { ScrapeResults } from '../../editor/components/scrape-results.tsx';
import { TrackEditor } from '../../editor/components/track-editor.tsx';
import { sourceOptions } from '../../editor/lib/source-options.ts';
import { useEditor } from '../../editor/stores/editor-store.ts';
import { useScrape } from '../../editor/stores/scrape-store.ts';
import { useTagSettings } from '../../editor/stores/tag-settings-store.ts';
import type { DetailRow } from '../api/types.ts';
import { candidatesOf, lookupOf } from '../lib/candidates.ts';

interface CandidateDrawersProps {
  /** The report row whose file is edited, or null when closed. */
  row: DetailRow | null;
  onClose: () => void;
  /** Marks the row done (finish_files); absent for rows that already are (mode matches). */
  onFinish?: (row: DetailRow) => void;
}

/**
 * A report row's candidate link (spec doc 2 §2 "Task report"): two drawers side by side, stacked on a phone —
 * the file's tag editor (the file screen's, loaded with music_id3, saved with update_id3 and so journaled) and
 * the candidate songs, the file screen's table with its copy, lyric and score colouring (doc 1 §2). The
 * candidates are the ones the task kept for the row; a row without any is looked up by the title the report
 * kept in the 'resource' source remembered locally (default netease), which the list's select switches. Once
 * the file is saved the row can be finished, so it moves to success and the counts follow.
 */
export function CandidateDrawers({ row, onClose, onFinish }: CandidateDrawersProps) {
  const t = useT();
  const mobile = useIsMobile();
  const [path, setPath] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    setPath(row?.path ?? null);
    setSaved(false);
  }, [row?.id]);

  // The editor and its candidates are the file screen's stores: leave them empty for it.
  const close = () => {
    useEditor.getState().reset();
    onClose();
  };

  const name = row ? row.name || row.path?.split(/[\\/]/).pop() || '' : '';
  return (
    <Drawer
      isOpen={row !== null && path !== null}
      onClose={close}
      title={`${t('候选歌曲')} · ${name}`}
      icon="search-template"
      position="right"
      size={mobile ? '100%' : 'min(1360px, 100vw)'}
      className="ts-candidate-drawers"
    >
      {row && path ? (
        <div className="ts-candidates" data-testid="candidate-drawers" data-row-id={row.id}>
          <section className="ts-candidates-pane ts-candidates-editor" aria-label={t('元数据详情')}>
            <TrackEditor
              filePath={path}
              name={name}
              onSaved={(renamedTo) => {
                if (renamedTo) setPath(renamedTo);
                setSaved(true);
              }}
            />
          </section>
          <section className="ts-candidates-pane ts-candidates-list" aria-label={t('候选歌曲')}>
            {saved ? (
              <Callout intent="success" icon="tick-circle" compact className="ts-candidates-saved" data-testid="candidate-saved">
                <span>{onFinish ? t('已保存到文件。把这一行标为完成？') : t('已保存到文件。')}</span>
                {onFinish ? (
                  <Button
                    size="small"
                    intent="success"
                    icon="tick"
                    text={t('完成')}
                    data-testid="candidate-finish"
                    onClick={() => {
                      close();
                      onFinish(row);
                    }}
                  />
                ) : null}
              </Callout>
            ) : null}
            <CandidateList row={row} />
          </section>
        </div>
      ) : null}
    </Drawer>
  );
}

/**
 * The candidate list: the row's kept candidates, else a lookup. Rendered after the editor so its effect runs
 * after the editor has taken the file (the candidates store empties itself whenever the editor's file changes).
 */
function CandidateList({ row }: { row: DetailRow }) {
  const t = useT();
  const resource = useTagSettings((s) => s.resource);
  const [sources, setSources] = useState<SourceInfo[] | null>(null);
  const searching = useScrape((s) => s.status === 'loading');

  const search = (source: string) => {
    const given = lookupOf(row);
    if (given) void useScrape.getState().lookup(source, given);
  };

  useEffect(() => {
    const kept = candidatesOf(row);
    const given = lookupOf(row);
    if (kept.length) useScrape.getState().show(kept, given ? { ...given, resource: kept[0].resource } : null);
    else search(useTagSettings.getState().resource);
  }, [row.id]);

  useEffect(() => {
    const controller = new AbortController();
    getSources(controller.signal).then((list) => setSources(list.filter((s) => s.enabled)), () => undefined);
    return () => controller.abort();
  }, []);

  const switchSource = (source: string) => {
    const settings = useTagSettings.getState();
    settings.save(source, settings.showFields);
    search(source);
  };

  return (
    <>
      <div className="ts-candidates-head">
        <strong>{t('候选歌曲')}</strong>
        <label className="ts-small ts-muted" htmlFor="ts-candidate-source">
          {t('标签来源')}
        </label>
        <HTMLSelect id="ts-candidate-source" value={resource} onChange={(e) => switchSource(e.currentTarget.value)} options={sourceOptions(sources, resource, t('未启用'))} data-testid="candidate-source" />
        <Button size="small" icon="search" text={t('搜索')} loading={searching} disabled={lookupOf(row) === null} onClick={() => search(resource)} data-testid="candidate-search" />
      </div>
      <ScrapeResults />
    </>
  );
}
