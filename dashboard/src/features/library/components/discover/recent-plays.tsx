import { Icon } from '../../../../components/ui/display.tsx';
import { useT } from '../../../../lib/i18n.ts';
import type { SubsonicSong } from '../../api/types.ts';
import { coverUrl } from '../../lib/cover-url.ts';
import { DiscoverSection } from './discover-section.tsx';

/** The user's last distinct plays, newest first; a click plays that list from the clicked song. */
export function RecentPlays({ songs, onPlay }: { songs: Array<SubsonicSong & { played_at: string }>; onPlay: (index: number) => void }) {
  const t = useT();
  return (
    <DiscoverSection title="最近播放" testId="discover-recent" empty={songs.length === 0}>
      <ul className="ts-discover-rows">
        {songs.map((s, i) => (
          <li key={s.id} data-testid="discover-recent-song">
            <button type="button" className="ts-discover-row ts-discover-row-button" onClick={() => onPlay(i)} title={t('播放')}>
              <span className="ts-discover-row-cover">
                <img src={coverUrl(s.coverArt, 100)} alt="" loading="lazy" />
                <Icon icon="play" className="ts-discover-row-play" />
              </span>
              <span className="ts-discover-row-text">
                <span className="ts-discover-ellipsis" data-testid="discover-recent-song-name">
                  {s.title}
                </span>
                <span className="ts-muted ts-discover-small ts-discover-ellipsis">{s.artist}</span>
              </span>
              <time className="ts-muted ts-discover-small" dateTime={s.played_at}>
                {new Date(s.played_at).toLocaleString([], { month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' })}
              </time>
            </button>
          </li>
        ))}
      </ul>
    </DiscoverSection>
  );
}
