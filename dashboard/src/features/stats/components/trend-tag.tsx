import { Tag } from '../../../components/ui/display.tsx';
import type { TrendTag as Trend } from '../lib/trend.ts';

/** A month-over-month (or period-over-period) figure: green up, red down, grey unchanged. */
export function TrendTag({ trend, title }: { trend: Trend | null; title?: string }) {
  if (!trend) return null;
  const intent = trend.direction === 'up' ? 'success' : trend.direction === 'down' ? 'danger' : 'none';
  const icon = trend.direction === 'up' ? 'arrow-up' : trend.direction === 'down' ? 'arrow-down' : 'minus';
  return (
    <Tag minimal round intent={intent} icon={icon} title={title} data-trend={trend.direction}>
      {trend.text}
    </Tag>
  );
}
