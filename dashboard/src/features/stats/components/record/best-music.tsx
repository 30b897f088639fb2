import { useState } from 'react';
import { SegmentedControl } from '../../../../components/ui/form.tsx';
import { useT } from '../../../../lib/i18n.ts';
import { coverUrl } from '../../../library/lib/cover-url.ts';
import { formatCount } from '../../../library/lib/format.ts';
import type { BestOf, PerfectMusic } from '../../api/types.ts';
import { rateTag } from '../../lib/trend.ts';
import { TrendTag } from '../trend-tag.tsx';

type Kind = 'artist' | 'album' | 'track';
const KINDS: { id: Kind; label: string; key: keyof PerfectMusic; unit: string }[] = [
  { id: 'artist', label: '艺术家', key: 'artist_record', unit: '听了 {n} 位艺术家' },
  { id: 'album', label: '专辑', key: 'album_record', unit: '听了 {n} 张专辑' },
  { id: 'track', label: '歌曲', key: 'track_record', unit: '听了 {n} 首歌' },
];

function Ranking({ kind, best, unit }: { kind: Kind; best: BestOf; unit: string }) {
  const t = useT();
  return (
    <div data-best={kind}>
      <div className="ts-stats-figure-foot">
        <span>{t(unit, { n: formatCount(best.count) })}</span>
        <TrendTag trend={rateTag(best.rate)} />
        {best.newest ? <span className="ts-muted ts-stats-ellipsis">{t('最近在听：{name}', { name: best.newest[0] })}</span> : null}
      </div>
      <ol className="ts-stats-record-list" style={{ marginTop: 10 }}>
        {best.list.map(([name, plays, cover], i) => (
          <li key={`${name}-${i}`} data-best-entry={name}>
            <span className="ts-stats-rank">{i + 1}</span>
            <img className={kind === 'artist' ? 'ts-stats-cover ts-stats-cover-round' : 'ts-stats-cover'} src={coverUrl(cover, 100)} alt="" loading="lazy" />
            <span className="ts-stats-ellipsis">{name}</span>
            <span className="ts-stats-plays">{t('{n} 次', { n: formatCount(plays) })}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}

/** 最佳音乐: the period's most played artists, albums and tracks (top 10 each, with covers), a switch between them. */
export function BestMusicView({ data }: { data: PerfectMusic }) {
  const t = useT();
  const [kind, setKind] = useState<Kind>('artist');
  const current = KINDS.find((k) => k.id === kind) ?? KINDS[0];
  return (
    <>
      <SegmentedControl options={KINDS.map((k) => ({ value: k.id, label: t(k.label) }))} value={kind} onValueChange={(v) => setKind(v as Kind)} size="small" />
      <div style={{ marginTop: 10 }}>
        <Ranking kind={kind} best={data[current.key]} unit={current.unit} />
      </div>
    </>
  );
}
