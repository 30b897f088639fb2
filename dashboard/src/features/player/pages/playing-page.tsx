import '../components/player.css';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'wouter';
import { Button } from '../../../components/ui/button.tsx';
import { NonIdealState } from '../../../components/ui/display.tsx';
import { useT } from '../../../lib/i18n.ts';
import { useIsMobile } from '../../../lib/use-media.ts';
import { coverUrl } from '../../library/lib/cover-url.ts';
import { getRandomSongs } from '../api/get-random-songs.ts';
import { getSong } from '../api/get-song.ts';
import { LyricsPanel } from '../components/lyrics-panel.tsx';
import { QueueList } from '../components/queue-list.tsx';
import { useLyrics } from '../hooks/use-lyrics.ts';
import { shownName, toPlayerTrack, type PlayerTrack } from '../lib/track.ts';
import { currentTrack, usePlayer } from '../stores/player-store.ts';

/** /playing (the queue, the playing track and its synced lyrics) and /playing/id/:id (one track's lyrics). */
export function PlayingPage() {
  const { id } = useParams<{ id?: string }>();
  return id ? <PlayingDetail id={id} /> : <NowPlaying />;
}

function NowPlaying() {
  const t = useT();
  const mobile = useIsMobile();
  const track = usePlayer(currentTrack);
  const [panelOpen, setPanelOpen] = useState(true);
  const [randomBusy, setRandomBusy] = useState(false);
  const playing = usePlayer((s) => s.playing);
  const count = usePlayer((s) => s.queue.length);
  const { previous, next, toggle, shuffleQueue, clear } = usePlayer.getState();

  const randomPlay = () => {
    setRandomBusy(true);
    getRandomSongs()
      .then((songs) => songs.length > 0 && usePlayer.getState().playList(songs.map(toPlayerTrack), 0))
      .catch(() => undefined)
      .finally(() => setRandomBusy(false));
  };

  const toolbar = (
    <div className="ts-playing-toolbar">
      {/* A phone keeps the toolbar on one row: icons, their names as labels and tooltips. */}
      <Button icon="random" onClick={shuffleQueue} disabled={count < 2} aria-label={t('打乱')} title={t('打乱')} data-testid="queue-shuffle">
        {mobile ? null : t('打乱')}
      </Button>
      <Button icon="music" onClick={randomPlay} loading={randomBusy} aria-label={t('随机播放|歌曲')} title={t('随机播放|歌曲')} data-testid="queue-random">
        {mobile ? null : t('随机播放|歌曲')}
      </Button>
      <Button icon="trash" onClick={clear} disabled={count < 2} aria-label={t('清空播放列表')} title={t('清空播放列表')} data-testid="queue-clear">
        {mobile ? null : t('清空播放列表')}
      </Button>
      <span className="ts-playing-spacer" />
      <Button minimal icon="step-backward" onClick={previous} disabled={!track} aria-label={t('上一首')} title={t('上一首')} />
      <Button minimal icon={playing ? 'pause' : 'play'} onClick={toggle} disabled={!track} aria-label={t(playing ? '暂停' : '播放')} title={t(playing ? '暂停' : '播放')} data-testid="playing-toggle" />
      <Button minimal icon="step-forward" onClick={next} disabled={!track} aria-label={t('下一首')} title={t('下一首')} />
      <Button minimal icon={panelOpen ? 'menu-closed' : 'menu-open'} onClick={() => setPanelOpen(!panelOpen)} aria-label={t(panelOpen ? '收起' : '展开')} title={t(panelOpen ? '收起' : '展开')} data-testid="queue-panel-toggle" />
    </div>
  );

  if (!track) {
    return (
      <div className="ts-playing" data-testid="playing-page">
        {toolbar}
        <NonIdealState icon="music" title={t('暂无播放')} action={<Link href="/albums/recently-added/">{t('去专辑列表看看')}</Link>} />
      </div>
    );
  }
  return (
    <div className="ts-playing" data-testid="playing-page">
      {toolbar}
      <div className={panelOpen ? 'ts-playing-body' : 'ts-playing-body ts-playing-panel-closed'}>
        <TrackLyrics track={track} live />
        {panelOpen ? (
          <aside className="ts-playing-panel" aria-label={t('播放队列')}>
            <QueueList />
          </aside>
        ) : null}
      </div>
    </div>
  );
}

/** The cover, names and lyrics of a track; `live` lyrics follow the player's clock. */
function TrackLyrics({ track, live }: { track: PlayerTrack; live: boolean }) {
  const t = useT();
  const { lyrics, loading } = useLyrics(track.isStream ? undefined : track);
  const currentTime = usePlayer((s) => s.currentTime);
  return (
    <section className="ts-playing-track" data-testid="playing-track">
      <div className="ts-playing-head">
        <img className="ts-playing-cover" src={coverUrl(track.coverArt, 300)} alt="" />
        <div className="ts-playing-names">
          <h2 data-testid="playing-title">{shownName(track.title, t)}</h2>
          <p>
            {track.artistId ? <Link href={`/artist/id/${encodeURIComponent(track.artistId)}`}>{shownName(track.artist, t)}</Link> : shownName(track.artist, t)}
          </p>
          <p>
            {track.albumId ? <Link href={`/album/id/${encodeURIComponent(track.albumId)}`}>{shownName(track.album, t)}</Link> : shownName(track.album, t)}
          </p>
        </div>
      </div>
      <LyricsPanel lyrics={lyrics} loading={loading} timeMs={live ? currentTime * 1000 : null} />
    </section>
  );
}

function PlayingDetail({ id }: { id: string }) {
  const t = useT();
  const current = usePlayer(currentTrack);
  const queued = usePlayer((s) => s.queue.find((q) => q.id === id));
  const [loaded, setLoaded] = useState<{ id: string; track: PlayerTrack | null } | null>(null);

  useEffect(() => {
    if (queued) return;
    const ctrl = new AbortController();
    getSong(id, ctrl.signal)
      .then((song) => setLoaded({ id, track: toPlayerTrack(song) }))
      .catch(() => !ctrl.signal.aborted && setLoaded({ id, track: null }));
    return () => ctrl.abort();
  }, [id, queued]);

  const track = queued ?? (loaded?.id === id ? loaded.track : undefined);
  if (track === undefined) return <div className="ts-playing" data-testid="playing-detail" />;
  if (track === null) {
    return (
      <div className="ts-playing" data-testid="playing-detail">
        <NonIdealState icon="music" title={t('暂无播放')} action={<Link href="/albums/recently-added/">{t('去专辑列表看看')}</Link>} />
      </div>
    );
  }
  const live = current?.id === track.id;
  return (
    <div className="ts-playing ts-playing-detail" data-testid="playing-detail">
      {live ? null : (
        <div className="ts-playing-toolbar">
          <Button icon="play" intent="primary" onClick={() => usePlayer.getState().playList([track], 0)} data-testid="detail-play">
            {t('播放')}
          </Button>
        </div>
      )}
      <TrackLyrics track={track} live={live} />
    </div>
  );
}
