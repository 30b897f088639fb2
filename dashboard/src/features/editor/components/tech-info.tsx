import { HTMLTable } from '../../../components/ui/display.tsx';
import { useT } from '../../../lib/i18n.ts';
import type { MusicInfo } from '../api/types.ts';

/** The read-only technical fields of Music info (§3). */
export function TechInfo({ info }: { info: MusicInfo }) {
  const t = useT();
  const rows: [string, string][] = [
    ['时长', `${info.duration} s`],
    ['比特率', `${info.bit_rate} kbps`],
    ['采样率', `${info.sample_rate} kHz`],
    ['位深', info.bit_depth ? `${info.bit_depth} bit` : '—'],
    ['声道', String(info.channels)],
    ['大小', `${info.size} MB`],
    ['格式', `${info.format} · ${info.codec}`],
    ['封面尺寸', info.artwork_w > 0 ? `${info.artwork_w} × ${info.artwork_h} · ${info.artwork_size} B` : '—'],
    ['路径', info.path],
  ];
  return (
    <HTMLTable compact className="ts-tech" data-testid="tech-info">
      <tbody>
        {rows.map(([k, v]) => (
          <tr key={k}>
            <th scope="row">{t(k)}</th>
            <td>{v}</td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}
