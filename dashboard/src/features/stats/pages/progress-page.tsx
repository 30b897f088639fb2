import { useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { useT } from '../../../lib/i18n.ts';
import { getProgressStatic } from '../api/get-progress-static.ts';
import { startTask } from '../api/start-task.ts';
import { MISS_KINDS, type MissKind, type ProgressStatic } from '../api/types.ts';
import { GenreRulesDialog } from '../components/progress/genre-rules-dialog.tsx';
import { KIND_LABELS } from '../components/progress/kind-labels.ts';
import { MissingScrapeDialog } from '../components/progress/missing-scrape-dialog.tsx';
import { ProgressSection } from '../components/progress/progress-section.tsx';
import { TaskFollow } from '../components/progress/task-follow.tsx';
import { useLoad } from '../hooks/use-load.ts';
import type { ScrapeKind } from '../lib/missing-task.ts';
import { formatCount } from '../../library/lib/format.ts';
import '../components/stats.css';

const countOf = (data: ProgressStatic | null, kind: MissKind): number | null => (data ? Number(data[`miss_${kind}_count`] ?? 0) : null);

/**
 * /progress (spec doc 2 §2 "Progress"): the missing counts, then one paged table per kind (lyrics, cover, album,
 * artist, genre, year). Each kind can be filled by an automatic scrape; genres by the genre rules; the artist
 * section also offers 刮削艺术家 (pictures and biographies of the artists).
 */
export function ProgressPage() {
  const t = useT();
  const [version, setVersion] = useState(0);
  const counts = useLoad((signal) => getProgressStatic(signal), [version]);
  const [scrape, setScrape] = useState<ScrapeKind | null>(null);
  const [rules, setRules] = useState(false);
  const [artistBusy, setArtistBusy] = useState(false);
  /** The task each section started, followed until it ends. */
  const [tasks, setTasks] = useState<Partial<Record<MissKind, string>>>({});
  const refresh = () => setVersion((v) => v + 1);
  const started = (kind: MissKind) => (taskId: string | null) => {
    if (taskId) setTasks((all) => ({ ...all, [kind]: taskId }));
  };
  const finished = (kind: MissKind) => () => {
    setTasks((all) => {
      const next = { ...all };
      delete next[kind];
      return next;
    });
    refresh();
  };

  async function scrapeArtists() {
    setArtistBusy(true);
    try {
      await startTask('batch_auto_update_artist', {});
    } catch {
      // Announced by the client.
    } finally {
      setArtistBusy(false);
    }
  }

  const actionsOf = (kind: MissKind) => {
    const missing = countOf(counts.data, kind) ?? 0;
    const task = tasks[kind];
    const follow = task ? <TaskFollow key={task} taskId={task} onFinish={finished(kind)} /> : null;
    if (kind === 'genre') {
      return (
        <>
          {follow}
          <Button size="small" icon="tag" intent="primary" text={t('流派规则')} disabled={missing === 0} onClick={() => setRules(true)} data-action="genre-rules" />
        </>
      );
    }
    return (
      <>
        {follow}
        {kind === 'artist' ? <Button size="small" icon="person" text={t('刮削艺术家')} loading={artistBusy} onClick={() => void scrapeArtists()} data-action="scrape-artists" /> : null}
        <Button size="small" icon="search-template" intent="primary" text={t('自动刮削')} disabled={missing === 0} onClick={() => setScrape(kind)} data-action="scrape" />
      </>
    );
  };

  return (
    <div className="ts-stats" data-testid="progress-page">
      <div className="ts-stats-panel-head">
        <h2>{t('刮削进度')}</h2>
        <Button variant="minimal" icon="refresh" text={t('刷新')} onClick={refresh} />
      </div>
      <div className="ts-progress-counts" data-testid="progress-counts">
        {MISS_KINDS.map((kind) => (
          <a key={kind} className="ts-stats-tile ts-stats-tile-link" href={`#progress-${kind}`} data-count={kind}>
            <div className="ts-stats-tile-head">{t(KIND_LABELS[kind].missing)}</div>
            <div className="ts-stats-tile-value" data-value title={String(countOf(counts.data, kind) ?? '')}>
              {counts.data ? formatCount(countOf(counts.data, kind)) : '—'}
            </div>
          </a>
        ))}
      </div>
      {MISS_KINDS.map((kind) => (
        <ProgressSection key={kind} kind={kind} total={countOf(counts.data, kind)} actions={actionsOf(kind)} version={version} />
      ))}
      <MissingScrapeDialog kind={scrape} onClose={() => setScrape(null)} onCreated={(id) => scrape && started(scrape)(id)} />
      <GenreRulesDialog isOpen={rules} onClose={() => setRules(false)} onCreated={started('genre')} />
    </div>
  );
}
