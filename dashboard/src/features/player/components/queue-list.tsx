import { Icon } from '../../../components/ui/display.tsx';
import { useT } from '../../../lib/i18n.ts';
import { coverUrl } from '../../library/lib/cover-url.ts';
import { formatDuration } from '../../library/lib/format.ts';
import { shownName } from '../lib/track.ts';
import { usePlayer } from '../stores/player-store.ts';

/** The queue on /playing: one row per entry, the current one marked; a click plays that entry. */
export function QueueList() {
  const t = useT();
  const queue = usePlayer((s) => s.queue);
  const index = usePlayer((s) => s.index);
  const playing = usePlayer((s) => s.playing);
  return (
    <ol className="ts-queue" data-testid="queue">
      {queue.map((track, i) => (
        <li key={`${i}-${track.id}`} className={i === index ? 'ts-queue-row ts-queue-current' : 'ts-queue-row'} data-current={i === index ? 'true' : undefined} data-testid="queue-row">
          <button type="button" onClick={() => usePlayer.getState().jumpTo(i)} title={shownName(track.title, t)}>
            <span className="ts-queue-no">{i === index ? <Icon icon={playing ? 'volume-up' : 'pause'} size={12} /> : i + 1}</span>
            <img src={coverUrl(track.coverArt, 300)} alt="" loading="lazy" />
            <span className="ts-queue-text">
              <span className="ts-queue-title">{shownName(track.title, t)}</span>
              <span className="ts-queue-artist">{shownName(track.artist, t)}</span>
            </span>
            <span className="ts-queue-time">{formatDuration(track.isStream ? Infinity : track.duration)}</span>
          </button>
        </li>
      ))}
    </ol>
  );
}
