import { useMemo } from 'react';
import { useLocation, useSearch } from 'wouter';
import { Tab, Tabs } from '../../../components/ui/display.tsx';
import { useT } from '../../../lib/i18n.ts';
import { getPeriodStat } from '../api/get-period-stat.ts';
import type { Period } from '../api/types.ts';
import { BarList } from '../components/record/bar-list.tsx';
import { BestMusicView } from '../components/record/best-music.tsx';
import { ListeningStatsView } from '../components/record/listening-stats.tsx';
import { RecordPanel } from '../components/record/panel.tsx';
import { WeekRecordView } from '../components/record/week-record.tsx';
import { UplotChart } from '../components/uplot-chart.tsx';
import { useLoad } from '../hooks/use-load.ts';
import { clockChart, decadeTotals, genresChart } from '../lib/chart.ts';
import { PERIOD_TABS, periodFromSearch } from '../lib/period.ts';
import '../components/stats.css';

/** Every /record statistic of one period, each its own call (they load in parallel; a new period reloads all, §4). */
function usePeriodStats(period: Period) {
  return {
    week: useLoad((s) => getPeriodStat('week_record', period, s), [period]),
    best: useLoad((s) => getPeriodStat('perfect_music', period, s), [period]),
    genres: useLoad((s) => getPeriodStat('hot_genres', period, s), [period]),
    decades: useLoad((s) => getPeriodStat('hot_decades', period, s), [period]),
    platforms: useLoad((s) => getPeriodStat('platform_stats', period, s), [period]),
    listening: useLoad((s) => getPeriodStat('listening_stats', period, s), [period]),
    clock: useLoad((s) => getPeriodStat('listening_clock', period, s), [period]),
  };
}

/**
 * /record (spec doc 2 §2 "Record screen"): listening statistics of this week, month or year against the last one —
 * plays per day, best music, hot genres and decades, platforms (Subsonic clients), listening time and the 24-hour
 * clock. The period is in the address (`?period=`), so a reload keeps it.
 */
export function RecordPage() {
  const t = useT();
  const [, navigate] = useLocation();
  const period = periodFromSearch(useSearch());
  const stats = usePeriodStats(period);
  const genres = useMemo(() => genresChart(stats.genres.data), [stats.genres.data]);
  const clock = useMemo(() => clockChart(stats.clock.data), [stats.clock.data]);
  return (
    <div className="ts-stats" data-testid="record-page" data-period={period}>
      <div className="ts-stats-panel-head">
        <h2>{t('听歌记录')}</h2>
      </div>
      <Tabs id="ts-record-period" selectedTabId={period} onChange={(id) => navigate(id === 'week' ? '/record' : `/record?period=${id}`, { replace: true })} large>
        {PERIOD_TABS.map((p) => (
          <Tab key={p.id} id={p.id} title={t(p.title)} />
        ))}
      </Tabs>
      <div className="ts-stats-grid">
        <RecordPanel title="播放记录" loaded={stats.week} empty={() => false} testId="week-record">
          {(d) => <WeekRecordView data={d} />}
        </RecordPanel>
        <RecordPanel title="听歌统计" loaded={stats.listening} empty={() => false} testId="listening-stats">
          {(d) => <ListeningStatsView data={d} />}
        </RecordPanel>
        <RecordPanel title="最佳音乐" loaded={stats.best} empty={(d) => !d.artist_record.list.length && !d.album_record.list.length && !d.track_record.list.length} testId="best-music">
          {(d) => <BestMusicView data={d} />}
        </RecordPanel>
        <RecordPanel title="听歌时钟" loaded={stats.clock} empty={() => false} testId="listening-clock">
          {(d) => (
            <>
              <p className="ts-muted">{t('共播放 {n} 次', { n: d.listening_count })}</p>
              <UplotChart model={clock} kind="bars" height={200} name="听歌时钟" testId="clock-chart" />
            </>
          )}
        </RecordPanel>
        <RecordPanel title="热门流派" loaded={stats.genres} empty={(d) => !d.genres.length} testId="hot-genres">
          {() => <UplotChart model={genres} name="热门流派" testId="genres-chart" />}
        </RecordPanel>
        <RecordPanel title="热门年代" loaded={stats.decades} empty={(d) => !d.decades.length} testId="hot-decades">
          {(d) => <BarList rows={decadeTotals(d)} name="decades" />}
        </RecordPanel>
        <RecordPanel title="播放平台" loaded={stats.platforms} empty={(d) => !d.length} testId="platform-stats">
          {(d) => <BarList rows={d} name="platforms" />}
        </RecordPanel>
      </div>
    </div>
  );
}
