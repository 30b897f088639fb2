import { useT } from '../../../../lib/i18n.ts';
import { formatCount } from '../../../library/lib/format.ts';
import { shares } from '../../lib/chart.ts';

/** Name / bar / value rows, longest bar = the largest value (platform stats, hot decades). */
export function BarList({ rows, name }: { rows: { name: string; value: number }[]; name: string }) {
  const t = useT();
  return (
    <ul className="ts-stats-bars" data-bar-list={name}>
      {shares(rows).map((r) => (
        <li key={r.name} data-bar={r.name} data-value={r.value}>
          <span className="ts-stats-ellipsis" title={r.name}>
            {t(r.name)}
          </span>
          <span className="ts-stats-bar" aria-hidden="true">
            <span style={{ width: `${r.share}%` }} />
          </span>
          <span className="ts-stats-plays">{formatCount(r.value)}</span>
        </li>
      ))}
    </ul>
  );
}
