import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { Icon, type IconName } from '../../../../components/ui/display.tsx';
import { useT } from '../../../../lib/i18n.ts';
import { formatCount } from '../../../library/lib/format.ts';
import type { MusicCount } from '../../api/types.ts';
import { diffTag, percentOf, rateTag } from '../../lib/trend.ts';
import { TrendTag } from '../trend-tag.tsx';

interface TileProps {
  id: string;
  icon: IconName;
  title: string;
  value: string;
  href?: string;
  children?: ReactNode;
}

function Tile({ id, icon, title, value, href, children }: TileProps) {
  const t = useT();
  const body = (
    <>
      <div className="ts-stats-tile-head">
        <Icon icon={icon} />
        <span>{t(title)}</span>
      </div>
      <div className="ts-stats-tile-value" data-value title={value}>
        {value}
      </div>
      <div className="ts-stats-tile-foot">{children}</div>
    </>
  );
  return href ? (
    <Link href={href} className="ts-stats-tile ts-stats-tile-link" data-tile={id}>
      {body}
    </Link>
  ) : (
    <div className="ts-stats-tile" data-tile={id}>
      {body}
    </div>
  );
}

/**
 * The six tiles of the home dashboard (spec doc 2 §2): all tracks (→ /tracks/recently-added/), library size, scrape
 * completeness (→ /progress), albums (→ /albums/recently-added/), artists (→ /artists/most-albums/), total duration;
 * the month-over-month figures as trend tags.
 */
export function StatTiles({ count }: { count: MusicCount }) {
  const t = useT();
  return (
    <div className="ts-stats-tiles" data-testid="stat-tiles">
      <Tile id="tracks" icon="music" title="全部歌曲" value={formatCount(count.track_count)} href="/tracks/recently-added/">
        <TrendTag trend={diffTag(count.track_diff)} title={t('本月新增')} />
        <TrendTag trend={rateTag(count.track_mom)} title={t('环比上月')} />
      </Tile>
      <Tile id="size" icon="database" title="音乐库大小" value={count.song_size || '0'} />
      <Tile id="finished" icon="tick-circle" title="刮削完成度" value={percentOf(count.finished_rate)} href="/progress">
        <span className="ts-muted">{t('进行中的任务 {n} 个', { n: count.active_tasks_count ?? 0 })}</span>
      </Tile>
      <Tile id="albums" icon="layers" title="专辑" value={formatCount(count.album_count)} href="/albums/recently-added/">
        <TrendTag trend={diffTag(count.album_diff)} title={t('本月新增')} />
        <TrendTag trend={rateTag(count.album_mom)} title={t('环比上月')} />
      </Tile>
      <Tile id="artists" icon="people" title="艺术家" value={formatCount(count.artist_count)} href="/artists/most-albums/">
        <TrendTag trend={diffTag(count.artist_diff)} title={t('本月新增')} />
        <TrendTag trend={rateTag(count.artist_mom)} title={t('环比上月')} />
      </Tile>
      <Tile id="duration" icon="time" title="总时长" value={count.song_duration || '0'} />
    </div>
  );
}
