import { useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import { Button } from '../../../components/ui/button.tsx';
import { HTMLTable, Icon } from '../../../components/ui/display.tsx';
import { useT } from '../../../lib/i18n.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { usePlayer } from '../../player/stores/player-store.ts';
import { toPlayerTrack } from '../../player/lib/track.ts';
import type { DeleteTrackMode } from '../api/delete-track.ts';
import { setStarred } from '../api/star-item.ts';
import type { SubsonicSong } from '../api/types.ts';
import { useRowDrag } from '../hooks/use-row-drag.ts';
import { coverUrl } from '../lib/cover-url.ts';
import { albumOf, artistOf, formatCount, formatDuration, formatKps, formatMB, titleOf } from '../lib/format.ts';
import { DeleteTrackDialog } from './delete-track-dialog.tsx';
import './library.css';
import { AddToPlaylistButton } from './playlists/add-to-playlist-button.tsx';

export interface TrackTableProps {
  tracks: SubsonicSong[];
  /** Plays the list from this row (the page hands the list to the player). */
  onPlay: (index: number) => void;
  /** Adds the row's song to the queue; by default it goes to the end of the player's queue. */
  onEnqueue?: (index: number) => void;
  /** The song to mark as playing; by default the player's current track. */
  playingId?: string;
  /** Rows can be dragged to a new place (a playlist's order). */
  draggable?: boolean;
  onReorder?: (from: number, to: number) => void;
  /** The playlist the table shows: its own add-to-playlist menu leaves it out. */
  playlistId?: string;
  /** Extra buttons per row (remove from playlist…), after the table's own. */
  actions?: (song: SubsonicSong, index: number) => ReactNode;
  /** After a delete went through; the page drops the row or reloads. Without it no delete button. */
  onDeleted?: (song: SubsonicSong, mode: DeleteTrackMode) => void;
  /** A star toggled: the table shows it at once and reverts when /rest refuses. */
  onStarChange?: (song: SubsonicSong, starred: boolean) => void;
}

/**
 * The library's shared track table (spec §2 "Track table"): index, title with cover, album, duration,
 * size, bitrate, plays, actions. Songs from a WebDAV folder carry a cloud badge. On a phone the album,
 * size, bitrate and plays columns fold away (CSS) so title and actions keep their room.
 */
export function TrackTable({ tracks, onPlay, onEnqueue, playingId, draggable, onReorder, playlistId, actions, onDeleted, onStarChange }: TrackTableProps) {
  const t = useT();
  const current = usePlayer((s) => s.queue[s.index]?.id);
  const markedId = playingId ?? current;
  const enqueue =
    onEnqueue ??
    ((index: number) => {
      const song = tracks[index];
      if (!song) return;
      usePlayer.getState().enqueue([toPlayerTrack(song)]);
      notifySuccess(t('已添加到播放队列'), t(titleOf(song)), 1500);
    });
  const [stars, setStars] = useState<Record<string, boolean>>({});
  const [deleting, setDeleting] = useState<SubsonicSong | null>(null);
  const drag = useRowDrag(Boolean(draggable), tracks.length, onReorder);

  const starredOf = (song: SubsonicSong) => stars[song.id] ?? Boolean(song.starred);
  const toggleStar = async (song: SubsonicSong) => {
    const next = !starredOf(song);
    setStars((s) => ({ ...s, [song.id]: next }));
    try {
      await setStarred('song', song.id, next);
      onStarChange?.(song, next);
    } catch (e) {
      setStars((s) => ({ ...s, [song.id]: !next }));
      notifyError(t(next ? '收藏失败！' : '取消收藏失败！'), e instanceof Error ? e.message : undefined);
    }
  };

  return (
    <div className="ts-track-table-wrap">
      <HTMLTable className="ts-track-table" compact interactive data-testid="track-table">
        <thead>
          <tr>
            <th className="ts-col-index">#</th>
            <th className="ts-col-title">{t('标题')}</th>
            <th className="ts-col-wide">{t('专辑|字段')}</th>
            <th className="ts-col-num">{t('时长')}</th>
            <th className="ts-col-wide ts-col-num">{t('大小')}</th>
            <th className="ts-col-wide ts-col-num">{t('比特率')}</th>
            <th className="ts-col-wide ts-col-num">{t('播放次数')}</th>
            <th className="ts-col-actions">{t('操作')}</th>
          </tr>
        </thead>
        <tbody>
          {tracks.map((song, index) => {
            const playing = markedId !== undefined && song.id === markedId;
            const starred = starredOf(song);
            const classes = [playing ? 'ts-track-current' : '', drag.from === index ? 'ts-dragging' : '', drag.over === index && drag.from !== index ? 'ts-drag-over' : ''].filter(Boolean).join(' ');
            return (
              <tr key={`${song.id}-${index}`} className={classes || undefined} data-id={song.id} aria-current={playing ? 'true' : undefined} onDoubleClick={() => onPlay(index)} {...drag.rowProps(index)}>
                <td className="ts-col-index">
                  {drag.on ? (
                    <span className="ts-drag-handle" title={t('拖动排序')} aria-label={t('拖动排序')} {...drag.handleProps(index)}>
                      <Icon icon="drag-handle-vertical" />
                    </span>
                  ) : null}
                  {playing ? <Icon icon="volume-up" intent="primary" title={t('正在播放')} /> : index + 1}
                </td>
                <td className="ts-col-title">
                  <div className="ts-track-title">
                    <img className="ts-track-img" src={coverUrl(song.coverArt, 80)} alt="" loading="lazy" decoding="async" width={36} height={36} />
                    <div className="ts-track-names">
                      <span className="ts-track-name">
                        {t(titleOf(song))}
                        {song.fromFolder === 'webdav' ? <Icon icon="cloud" size={12} className="ts-cloud-badge" title="WebDAV" /> : null}
                      </span>
                      {song.artistId ? (
                        <Link href={`/artist/id/${encodeURIComponent(song.artistId)}`} className="ts-track-artist">
                          {t(artistOf(song))}
                        </Link>
                      ) : (
                        <span className="ts-track-artist">{t(artistOf(song))}</span>
                      )}
                    </div>
                  </div>
                </td>
                <td className="ts-col-wide">
                  {song.albumId ? <Link href={`/album/id/${encodeURIComponent(song.albumId)}`}>{t(albumOf(song))}</Link> : t(albumOf(song))}
                </td>
                <td className="ts-col-num">{formatDuration(song.duration)}</td>
                <td className="ts-col-wide ts-col-num">{formatMB(song.size)}</td>
                <td className="ts-col-wide ts-col-num">{formatKps(song.bitRate)}</td>
                <td className="ts-col-wide ts-col-num">{formatCount(song.playCount)}</td>
                <td className="ts-col-actions">
                  <Button variant="minimal" size="small" icon={starred ? 'star' : 'star-empty'} intent={starred ? 'warning' : 'none'} aria-pressed={starred} title={starred ? t('取消收藏') : t('收藏|按钮')} aria-label={starred ? t('取消收藏') : t('收藏|按钮')} onClick={() => void toggleStar(song)} data-action="star" />
                  <Button variant="minimal" size="small" icon="play" title={t('播放')} aria-label={t('播放')} onClick={() => onPlay(index)} data-action="play" />
                  <Button variant="minimal" size="small" icon="add-to-artifact" title={t('添加到播放队列')} aria-label={t('添加到播放队列')} onClick={() => enqueue(index)} data-action="enqueue" />
                  <AddToPlaylistButton songId={song.id} exceptId={playlistId} />
                  {actions?.(song, index)}
                  {onDeleted ? <Button variant="minimal" size="small" icon="trash" intent="danger" title={t('删除')} aria-label={t('删除')} onClick={() => setDeleting(song)} data-action="delete" /> : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </HTMLTable>
      <DeleteTrackDialog song={deleting} onClose={() => setDeleting(null)} onDeleted={onDeleted} />
    </div>
  );
}
