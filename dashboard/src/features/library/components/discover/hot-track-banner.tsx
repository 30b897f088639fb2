import { Link } from 'wouter';
import { Button } from '../../../../components/ui/button.tsx';
import { useT } from '../../../../lib/i18n.ts';
import type { HotTrack } from '../../api/discover-types.ts';
import { coverUrl } from '../../lib/cover-url.ts';
import { formatCount } from '../../lib/format.ts';

/** The most played track over all users: a wide banner over its own blurred cover, with a play button. */
export function HotTrackBanner({ track, onPlay }: { track: HotTrack | null; onPlay: (track: HotTrack) => void }) {
  const t = useT();
  if (!track) return <EmptyBanner />;
  const cover = coverUrl(track.cover, 600);
  return (
    <section className="ts-discover-banner" data-testid="discover-hot-track">
      <div className="ts-discover-banner-bg" style={{ backgroundImage: `url("${cover}")` }} aria-hidden="true" />
      <img className="ts-discover-banner-cover" src={cover} alt="" loading="lazy" />
      <div className="ts-discover-banner-text">
        <span className="ts-discover-kicker">{t('热门单曲')}</span>
        <h2 className="ts-discover-banner-title" data-testid="discover-hot-track-name">
          {track.name}
        </h2>
        <div className="ts-discover-banner-meta">
          {track.artist_id ? <Link href={`/artist/id/${encodeURIComponent(track.artist_id)}`}>{track.artist_name}</Link> : <span>{track.artist_name}</span>}
          {track.album ? (
            <>
              <span aria-hidden="true"> · </span>
              {track.album_id ? <Link href={`/album/id/${encodeURIComponent(track.album_id)}`}>{track.album}</Link> : <span>{track.album}</span>}
            </>
          ) : null}
        </div>
        <div className="ts-discover-banner-plays" data-testid="discover-hot-track-plays">
          {t('{n} 次播放', { n: formatCount(track.play_count) })}
        </div>
        <Button intent="primary" icon="play" size="large" onClick={() => onPlay(track)} data-testid="discover-hot-track-play">
          {t('播放')}
        </Button>
      </div>
    </section>
  );
}

function EmptyBanner() {
  const t = useT();
  return (
    <section className="ts-discover-banner ts-discover-banner-empty" data-testid="discover-hot-track">
      <div className="ts-discover-banner-text">
        <span className="ts-discover-kicker">{t('热门单曲')}</span>
        <p className="ts-muted">{t('还没有播放记录，听几首歌后这里会显示最热门的单曲。')}</p>
      </div>
    </section>
  );
}
