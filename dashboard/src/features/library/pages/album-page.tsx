import { useCallback, useEffect, useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { Button } from '../../../components/ui/button.tsx';
import { NonIdealState, Spinner } from '../../../components/ui/display.tsx';
import { useFormatDateTime } from '../../../lib/dates.ts';
import { useT } from '../../../lib/i18n.ts';
import { notify } from '../../../lib/notify.ts';
import { getAlbum } from '../api/get-album.ts';
import { getAlbumComment } from '../api/get-album-info.ts';
import type { AlbumEdit, AlbumEdited } from '../api/post-album.ts';
import { setStarred } from '../api/star-item.ts';
import type { SubsonicAlbumDetail } from '../api/types.ts';
import { AlbumDeleteDialog } from '../components/albums/album-delete-dialog.tsx';
import { AlbumEditDrawer } from '../components/albums/album-edit-drawer.tsx';
import { TrackTable } from '../components/track-table.tsx';
import { followAlbum, otherArtists } from '../lib/album-detail.ts';
import { coverChanged, coverUrl } from '../lib/cover-url.ts';
import { albumOf, artistOf, formatDuration } from '../lib/format.ts';
import { playSongs } from '../lib/play.ts';
import { reportSubsonicFailure } from '../lib/subsonic-error.ts';
import '../components/library.css';

/**
 * /album/id/:id (spec §2 Album detail): cover, name, favourite, artist, year, track count, duration, created
 * date, genres, other artists, comment; PLAY, EDIT (drawer) and DELETE (dialog, then /albums/recently-added/);
 * the track table. An edit written into the files is followed until the library shows it (the album may get
 * a new id from a new name).
 */
export function AlbumPage() {
  const t = useT();
  const formatDate = useFormatDateTime();
  const [, navigate] = useLocation();
  const { id: rawId = '' } = useParams<{ id: string }>();
  const id = safeDecode(rawId);
  const [album, setAlbum] = useState<SubsonicAlbumDetail | null>(null);
  const [comment, setComment] = useState('');
  const [missing, setMissing] = useState(false);
  const [starred, setStar] = useState(false);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);

  const load = useCallback(
    async (signal?: AbortSignal) => {
      try {
        const [a, notes] = await Promise.all([getAlbum(id, signal), getAlbumComment(id, signal).catch(() => '')]);
        if (signal?.aborted) return;
        setAlbum(a);
        setComment(notes);
        setStar(Boolean(a.starred));
        setMissing(false);
      } catch (e) {
        if (signal?.aborted) return;
        setMissing(true);
        reportSubsonicFailure(e, 'album-search', navigate);
      }
    },
    [id],
  );

  useEffect(() => {
    const controller = new AbortController();
    setAlbum(null);
    void load(controller.signal);
    return () => controller.abort();
  }, [load]);

  if (missing && !album) return <NonIdealState icon="disable" title={t('专辑不存在或已被删除')} action={<Button icon="arrow-left" text={t('专辑库')} onClick={() => navigate('/albums/recently-added/')} />} />;
  if (!album) return <NonIdealState icon={<Spinner size={40} />} />;

  const songs = album.song ?? [];
  const others = otherArtists(album);
  const genres = album.genres?.length ? album.genres.map((g) => g.name) : album.genre ? [album.genre] : [];

  const toggleStar = async () => {
    const next = !starred;
    setStar(next);
    try {
      await setStarred('album', album.id, next);
    } catch (e) {
      setStar(!next);
      reportSubsonicFailure(e, 'list', navigate);
    }
  };

  const saved = (edit: AlbumEdit, answer: AlbumEdited) => {
    if (edit.album_img !== undefined && album.coverArt) coverChanged(album.coverArt);
    if (!answer.task_id) {
      notify({ intent: 'success', title: t('修改成功！'), timeout: 2000 });
      void load();
      return;
    }
    const taskId = answer.task_id;
    notify({
      intent: 'success',
      title: t('修改成功！'),
      content: t('专辑的歌曲正在后台写入标签，完成后页面会更新。'),
      timeout: 5000,
      action: { text: t('查看任务'), onClick: () => navigate(`/log_detail/${encodeURIComponent(taskId)}/`) },
    });
    void followAlbum(answer.id, edit.name).then((followed) => {
      if (!followed) return;
      // The files' new cover shows once the library has read them.
      if (edit.album_img !== undefined && followed.coverArt) coverChanged(followed.coverArt);
      if (followed.id !== id) navigate(`/album/id/${encodeURIComponent(followed.id)}`, { replace: true });
      else void load();
    });
  };

  return (
    <div className="ts-library-page ts-album-page" data-testid="album-page" data-id={album.id}>
      <section className="ts-album-hero">
        <img className="ts-album-cover" src={coverUrl(album.coverArt, 600)} alt="" width={220} height={220} data-testid="album-cover" />
        <div className="ts-album-info">
          <div className="ts-album-title-row">
            <h1 className="ts-album-name" data-testid="album-name">{t(albumOf({ album: album.name }))}</h1>
            <Button
              variant="minimal"
              icon="heart"
              intent={starred ? 'danger' : 'none'}
              aria-pressed={starred}
              className={starred ? undefined : 'ts-heart-off'}
              title={starred ? t('取消收藏') : t('收藏|按钮')}
              aria-label={starred ? t('取消收藏') : t('收藏|按钮')}
              onClick={() => void toggleStar()}
              data-testid="album-favourite"
            />
          </div>
          <div className="ts-album-artist" data-testid="album-artist">
            {album.artistId ? <Link href={`/artist/id/${encodeURIComponent(album.artistId)}`}>{t(artistOf(album))}</Link> : t(artistOf(album))}
          </div>
          <dl className="ts-album-facts">
            <Fact label={t('年份')} value={album.year ? String(album.year) : '—'} testId="album-year" />
            <Fact label={t('歌曲数')} value={String(album.songCount ?? songs.length)} testId="album-count" />
            <Fact label={t('时长')} value={formatDuration(album.duration ?? 0)} testId="album-duration" />
            <Fact label={t('创建时间')} value={album.created ? formatDate(album.created) : '—'} testId="album-created" />
            <div>
              <dt>{t('流派')}</dt>
              <dd data-testid="album-genres">
                {genres.length
                  ? genres.map((g, i) => (
                      <span key={g}>
                        {i > 0 ? ' / ' : ''}
                        <Link href={`/genre/id/${encodeURIComponent(g)}`}>{g}</Link>
                      </span>
                    ))
                  : '—'}
              </dd>
            </div>
            {others.length ? (
              <div>
                <dt>{t('其他艺术家')}</dt>
                <dd data-testid="album-other-artists">
                  {others.map((a, i) => (
                    <span key={a.id}>
                      {i > 0 ? ' / ' : ''}
                      <Link href={`/artist/id/${encodeURIComponent(a.id)}`}>{a.name}</Link>
                    </span>
                  ))}
                </dd>
              </div>
            ) : null}
          </dl>
          {comment ? (
            <p className="ts-album-comment" data-testid="album-comment">
              {comment}
            </p>
          ) : null}
          <div className="ts-album-actions">
            <Button intent="primary" icon="play" text={t('播放')} disabled={songs.length === 0} onClick={() => playSongs(songs)} data-testid="album-play" />
            <Button icon="edit" text={t('编辑')} onClick={() => setEditing(true)} data-testid="album-edit" />
            <Button icon="trash" intent="danger" variant="outlined" text={t('删除')} onClick={() => setDeleting(true)} data-testid="album-delete" />
          </div>
        </div>
      </section>
      <TrackTable tracks={songs} onPlay={(index) => playSongs(songs, index)} onDeleted={(song) => setAlbum((a) => (a ? { ...a, song: (a.song ?? []).filter((s) => s.id !== song.id), songCount: Math.max(0, (a.songCount ?? 1) - 1) } : a))} />
      <AlbumEditDrawer album={album} comment={comment} isOpen={editing} onClose={() => setEditing(false)} onSaved={saved} />
      <AlbumDeleteDialog albumId={album.id} name={album.name} isOpen={deleting} onClose={() => setDeleting(false)} onDeleted={() => navigate('/albums/recently-added/')} />
    </div>
  );
}

function Fact({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
