import type { ReactNode } from 'react';
import { useT } from '../../../../lib/i18n.ts';
import type { ListeningStats } from '../../api/types.ts';
import { rateTag } from '../../lib/trend.ts';
import { TrendTag } from '../trend-tag.tsx';

function Figure({ id, title, value, last, growth }: { id: string; title: string; value: ReactNode; last: string; growth: number | null }) {
  const t = useT();
  return (
    <div className="ts-stats-figure" data-figure={id}>
      <span className="ts-muted">{t(title)}</span>
      <span className="ts-stats-figure-value">{value}</span>
      <span className="ts-stats-figure-foot">
        <TrendTag trend={rateTag(growth)} />
        <span className="ts-muted">{t('上期 {value}', { value: last })}</span>
      </span>
    </div>
  );
}

/** 'H:MM:SS' for a number of seconds (the server's own format for durations). */
const hms = (seconds: number): string => {
  const s = Math.max(0, Math.round(Number(seconds) || 0));
  return `${Math.floor(s / 3600)}:${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
};

/** 听歌统计: total listening time, plays per day, the busiest day — each against the last period. */
export function ListeningStatsView({ data }: { data: ListeningStats }) {
  const t = useT();
  return (
    <div className="ts-stats-figures">
      <Figure id="duration" title="听歌时长" value={data.duration.formatted} last={hms(data.duration.last_week)} growth={data.duration.growth_rate} />
      <Figure id="average" title="日均播放" value={t('{n} 次', { n: data.average.count })} last={t('{n} 次', { n: data.average.last_week })} growth={data.average.growth_rate} />
      <Figure
        id="most-active"
        title="最活跃的一天"
        value={
          <>
            {t('{n} 次', { n: data.most_active.count })} <span className="ts-muted" style={{ fontSize: 13, fontWeight: 400 }}>{data.most_active.date ?? ''}</span>
          </>
        }
        last={t('{n} 次', { n: data.most_active.last_week })}
        growth={data.most_active.growth_rate}
      />
    </div>
  );
}
