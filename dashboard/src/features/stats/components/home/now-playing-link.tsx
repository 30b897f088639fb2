import { Link } from 'wouter';
import { Icon } from '../../../../components/ui/display.tsx';
import { useT } from '../../../../lib/i18n.ts';
import { shownName } from '../../../player/lib/track.ts';
import { usePlayer } from '../../../player/stores/player-store.ts';

/** The banner's link to /playing: the track the player holds (playing or paused), or an invitation when none. */
export function NowPlayingLink() {
  const t = useT();
  const track = usePlayer((s) => s.queue[s.index] ?? null);
  const playing = usePlayer((s) => s.playing);
  return (
    <Link href="/playing" className="ts-stats-now-playing" data-testid="now-playing-link">
      <Icon icon={playing ? 'volume-up' : 'music'} />
      <span className="ts-stats-ellipsis">
        {track ? t(playing ? '正在播放：{title} - {artist}' : '已暂停：{title} - {artist}', { title: shownName(track.title, t), artist: shownName(track.artist, t) }) : t('还没有在播放的歌曲')}
      </span>
    </Link>
  );
}
