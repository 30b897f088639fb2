import { useMemo } from 'react';
import { NonIdealState, Spinner } from '../../../components/ui/display.tsx';
import { useT } from '../../../lib/i18n.ts';
import { getListeningRecord } from '../api/get-listening-record.ts';
import { getMusicCount } from '../api/get-music-count.ts';
import { ListeningRecordPanel } from '../components/home/listening-record-panel.tsx';
import { StatTiles } from '../components/home/stat-tiles.tsx';
import { WelcomeBanner } from '../components/home/welcome-banner.tsx';
import { UplotChart } from '../components/uplot-chart.tsx';
import { useLoad } from '../hooks/use-load.ts';
import { trendChart } from '../lib/chart.ts';
import '../components/stats.css';

/**
 * The home dashboard /index (spec doc 2 §2): welcome banner, the library's stat tiles with their month-over-month
 * figures, the monthly trend of tracks/albums/artists, and the listening record. The two calls load in parallel.
 */
export function IndexPage() {
  const t = useT();
  const count = useLoad((signal) => getMusicCount(signal), []);
  const record = useLoad((signal) => getListeningRecord(signal), []);
  const trend = useMemo(() => trendChart(count.data?.trends), [count.data]);
  return (
    <div className="ts-stats" data-testid="index-page">
      <WelcomeBanner />
      {count.data ? (
        <StatTiles count={count.data} />
      ) : (
        <div className="ts-stats-tiles ts-stats-loading">{count.loading ? <Spinner size={30} /> : <NonIdealState icon="error" description={t('统计数据加载失败')} />}</div>
      )}
      <div className="ts-stats-columns">
        <section className="ts-stats-panel ts-stats-wide" data-testid="trend-panel">
          <div className="ts-stats-panel-head">
            <h3>{t('月度趋势')}</h3>
          </div>
          <UplotChart model={trend} name="月度趋势" testId="trend-chart" />
        </section>
        <ListeningRecordPanel record={record.data} />
      </div>
    </div>
  );
}
