import './player.css';
import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { Button } from '../../../components/ui/button.tsx';
import { useT } from '../../../lib/i18n.ts';
import { loadSetting, saveSetting } from '../../../lib/local-settings.ts';
import { useIsMobile } from '../../../lib/use-media.ts';
import { coverUrl } from '../../library/lib/cover-url.ts';
import { formatDuration } from '../../library/lib/format.ts';
import { useAudioEngine } from '../hooks/use-audio-engine.ts';
import { useStarred } from '../hooks/use-starred.ts';
import { shownName } from '../lib/track.ts';
import { currentTrack, usePlayer } from '../stores/player-store.ts';

/**
 * The player bar under every signed-in page once something is queued (§2 "Player bar"): cover, title and
 * links, the transport, repeat/shuffle, the seek slider (a fraction, step 1e-5), mm:ss times, volume 0–100,
 * the favourite star and the way to /playing. Expanded or collapsed, remembered as isOpenBar; a phone gets
 * the compact bar. It also runs the audio engine, so there is one per page.
 */
export function PlayerBar() {
  useAudioEngine();
  const t = useT();
  const mobile = useIsMobile();
  const [, navigate] = useLocation();
  const track = usePlayer(currentTrack);
  const [open, setOpen] = useState(() => loadSetting('isOpenBar', true));
  const toggleOpen = () => {
    saveSetting('isOpenBar', !open);
    setOpen(!open);
  };
  if (!track) return null;
  const compact = mobile || !open;

  return (
    <div className={`ts-player-bar${compact ? ' ts-player-compact' : ''}`} data-testid="player-bar" data-open={open ? 'true' : 'false'}>
      {compact ? <SeekLine /> : null}
      <div className="ts-player-row">
        <Link href={`/playing/id/${encodeURIComponent(track.id)}`} className="ts-player-cover">
          <img src={coverUrl(track.coverArt, 300)} alt="" />
        </Link>
        <div className="ts-player-meta">
          <Link href={`/playing/id/${encodeURIComponent(track.id)}`} className="ts-player-title" data-testid="player-title">
            {shownName(track.title, t)}
          </Link>
          <div className="ts-player-sub">
            {track.artistId ? <Link href={`/artist/id/${encodeURIComponent(track.artistId)}`}>{shownName(track.artist, t)}</Link> : <span>{shownName(track.artist, t)}</span>}
            {compact ? null : (
              <>
                <span className="ts-player-dot">·</span>
                {track.albumId ? <Link href={`/album/id/${encodeURIComponent(track.albumId)}`}>{shownName(track.album, t)}</Link> : <span>{shownName(track.album, t)}</span>}
              </>
            )}
          </div>
        </div>
        <Transport compact={compact} />
        {compact ? null : <SeekRow />}
        {compact ? null : <Volume />}
        <div className="ts-player-tail">
          {mobile ? null : <Favourite id={track.id} isStream={track.isStream} />}
          {compact ? null : (
            <Button minimal icon="properties" onClick={() => navigate('/playing')} aria-label={t('播放队列')} title={t('播放队列')} data-testid="player-queue-link" />
          )}
          {mobile ? null : (
            <Button minimal icon={open ? 'minimize' : 'maximize'} onClick={toggleOpen} aria-label={t(open ? '收起' : '展开')} title={t(open ? '收起' : '展开')} data-testid="player-toggle-bar" />
          )}
        </div>
      </div>
    </div>
  );
}

function Transport({ compact }: { compact: boolean }) {
  const t = useT();
  const playing = usePlayer((s) => s.playing);
  const repeat = usePlayer((s) => s.repeat);
  const shuffle = usePlayer((s) => s.shuffle);
  const { previous, next, toggle, toggleRepeat, toggleShuffle } = usePlayer.getState();
  return (
    <div className="ts-player-transport">
      {compact ? null : (
        <Button minimal icon="random" active={shuffle} intent={shuffle ? 'primary' : 'none'} onClick={toggleShuffle} aria-label={t('随机播放')} title={t('随机播放')} aria-pressed={shuffle} data-testid="player-shuffle" />
      )}
      {compact ? null : <Button minimal icon="step-backward" onClick={previous} aria-label={t('上一首')} title={t('上一首')} data-testid="player-previous" />}
      <Button minimal large icon={playing ? 'pause' : 'play'} onClick={toggle} aria-label={t(playing ? '暂停' : '播放')} title={t(playing ? '暂停' : '播放')} data-testid="player-toggle" />
      <Button minimal icon="step-forward" onClick={next} aria-label={t('下一首')} title={t('下一首')} data-testid="player-next" />
      {compact ? null : (
        <Button minimal icon="repeat" active={repeat} intent={repeat ? 'primary' : 'none'} onClick={toggleRepeat} aria-label={t('循环播放')} title={t('循环播放')} aria-pressed={repeat} data-testid="player-repeat" />
      )}
    </div>
  );
}

/** The seek slider's value: the played fraction (step 1e-5, §2), 0 while the length is unknown. */
const fractionOf = (time: number, duration: number): number => (Number.isFinite(duration) && duration > 0 ? Math.min(1, time / duration) : 0);

function SeekRow() {
  const t = useT();
  const time = usePlayer((s) => s.currentTime);
  const duration = usePlayer((s) => s.duration);
  return (
    <div className="ts-player-seek">
      <span className="ts-player-time" data-testid="player-time">
        {formatDuration(time)}
      </span>
      <input
        type="range"
        min={0}
        max={1}
        step={1e-5}
        value={fractionOf(time, duration)}
        disabled={!Number.isFinite(duration) || duration <= 0}
        onChange={(e) => usePlayer.getState().seek(Number(e.target.value) * duration)}
        aria-label={t('播放进度')}
        data-testid="player-seek"
      />
      <span className="ts-player-time" data-testid="player-duration">
        {formatDuration(duration)}
      </span>
    </div>
  );
}

/** The compact bar's progress: a thin slider along its top edge. */
function SeekLine() {
  const t = useT();
  const time = usePlayer((s) => s.currentTime);
  const duration = usePlayer((s) => s.duration);
  return (
    <input
      className="ts-player-seekline"
      type="range"
      min={0}
      max={1}
      step={1e-5}
      value={fractionOf(time, duration)}
      disabled={!Number.isFinite(duration) || duration <= 0}
      onChange={(e) => usePlayer.getState().seek(Number(e.target.value) * duration)}
      aria-label={t('播放进度')}
      data-testid="player-seek"
    />
  );
}

function Volume() {
  const t = useT();
  const volume = usePlayer((s) => s.volume);
  const [before, setBefore] = useState(1);
  const percent = Math.round(volume * 100);
  const mute = () => {
    if (volume > 0) {
      setBefore(volume);
      usePlayer.getState().setVolume(0);
    } else usePlayer.getState().setVolume(before || 1);
  };
  return (
    <div className="ts-player-volume">
      <Button minimal small icon={volume === 0 ? 'volume-off' : volume < 0.5 ? 'volume-down' : 'volume-up'} onClick={mute} aria-label={t('静音')} title={t('静音')} />
      <input
        type="range"
        min={0}
        max={100}
        step={1}
        value={percent}
        onChange={(e) => usePlayer.getState().setVolume(Number(e.target.value) / 100)}
        aria-label={t('音量')}
        title={`${percent}`}
        data-testid="player-volume"
      />
    </div>
  );
}

function Favourite({ id, isStream }: { id: string; isStream?: boolean }) {
  const t = useT();
  const { starred, toggle } = useStarred(id, isStream);
  if (isStream) return null;
  return (
    <Button
      minimal
      icon={starred ? 'star' : 'star-empty'}
      intent={starred ? 'warning' : 'none'}
      onClick={toggle}
      aria-label={t(starred ? '取消收藏' : '收藏|按钮')}
      title={t(starred ? '取消收藏' : '收藏|按钮')}
      aria-pressed={starred}
      data-testid="player-favourite"
    />
  );
}
