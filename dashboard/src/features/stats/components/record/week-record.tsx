import { useMemo } from 'react';
import { useT } from '../../../../lib/i18n.ts';
import { formatCount } from '../../../library/lib/format.ts';
import type { WeekRecord } from '../../api/types.ts';
import type { ChartModel } from '../../lib/chart.ts';
import { rateTag } from '../../lib/trend.ts';
import { TrendTag } from '../trend-tag.tsx';
import { UplotChart } from '../uplot-chart.tsx';

/** The period's plays: the date range, this and the last period's totals with the growth, the remark, plays per day. */
export function WeekRecordView({ data }: { data: WeekRecord }) {
  const t = useT();
  const model: ChartModel = useMemo(() => ({ labels: data.record.map((r) => r.date.slice(5)), series: [{ label: '播放次数', values: data.record.map((r) => r.count) }] }), [data]);
  return (
    <>
      <div className="ts-stats-figures">
        <div className="ts-stats-figure" data-figure="this">
          <span className="ts-muted">{t('本期播放')}</span>
          <span className="ts-stats-figure-value">{formatCount(data.this_week_total)}</span>
          <span className="ts-stats-figure-foot">
            <TrendTag trend={rateTag(data.week_rate)} />
          </span>
        </div>
        <div className="ts-stats-figure" data-figure="last">
          <span className="ts-muted">{t('上期播放')}</span>
          <span className="ts-stats-figure-value">{formatCount(data.last_week_total)}</span>
          <span className="ts-stats-figure-foot ts-muted">{data.date_range}</span>
        </div>
      </div>
      <p className="ts-muted" data-testid="week-remark">
        {t(data.jocker)}
      </p>
      <UplotChart model={model} kind="bars" height={180} name="每日播放" testId="week-chart" />
    </>
  );
}
