import { useCallback, useEffect, useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { Button } from '../../../components/ui/button.tsx';
import { Icon, NonIdealState, Spinner, Tag } from '../../../components/ui/display.tsx';
import { Dialog, DialogBody } from '../../../components/ui/overlay.tsx';
import { useT } from '../../../lib/i18n.ts';
import { notifyError } from '../../../lib/notify.ts';
import type { SubsonicArtistDetail, SubsonicArtistInfo } from '../api/artist-types.ts';
import { countArtistTracks, deleteArtist } from '../api/delete-artist.ts';
import { getArtist } from '../api/get-artist.ts';
import { getArtistInfo } from '../api/get-artist-info.ts';
import { getTopSongs } from '../api/get-top-songs.ts';
import { setStarred } from '../api/star-item.ts';
import type { SubsonicSong } from '../api/types.ts';
import { ArtistEditDrawer } from '../components/artists/artist-edit-drawer.tsx';
import { EntityDeleteDialog } from '../components/artists/entity-delete-dialog.tsx';
import { CoverGrid } from '../components/cover-grid.tsx';
import { TrackTable } from '../components/track-table.tsx';
import { artistGenres, artistTrackCount, latestAlbums, TOP_TRACKS_SHOWN } from '../lib/artist-view.ts';
import { coverUrl } from '../lib/cover-url.ts';
import { playSongs } from '../lib/play.ts';
import { isNoSubsonicPassword, reportSubsonicFailure } from '../lib/subsonic-error.ts';
import '../components/artists/artists.css';

interface ArtistView {
  artist: SubsonicArtistDetail;
  info: SubsonicArtistInfo;
  top: SubsonicSong[];
}

/** How long the page waits for the library to show an artist renamed in its files (the id it will have). */
const RENAME_WAIT_MS = 30_000;

/**
 * /artist/id/:id (spec §2 Artist detail): picture, name with a favourite heart, album and track counts,
 * genres (links to the genre page), the description (click: the full text in a dialog); Play queues the top
 * tracks; the first 5 top tracks with 'view all', the latest 12 albums, similar artists; EDIT drawer and
 * DELETE with a confirm dialog that first says how many tracks would go to the trash.
 */
export function ArtistPage() {
  const t = useT();
  const { id = '' } = useParams<{ id: string }>();
  const [, navigate] = useLocation();
  const [view, setView] = useState<ArtistView | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [starred, setStarredState] = useState(false);
  const [fullText, setFullText] = useState(false);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [deleteCount, setDeleteCount] = useState<number | null>(null);
  const [waiting, setWaiting] = useState(false);

  const load = useCallback(
    async (signal?: AbortSignal) => {
      try {
        const artist = await getArtist(id, signal);
        const [info, top] = await Promise.all([getArtistInfo(id, signal), getTopSongs(artist.name, 50, signal)]);
        setView({ artist, info, top });
        setStarredState(Boolean(artist.starred));
        setFailed(null);
      } catch (e) {
        if (signal?.aborted) return;
        setFailed(e instanceof Error ? e.message : String(e));
        // The page itself says what failed; only the missing streaming password also needs §8's notice and link.
        if (isNoSubsonicPassword(e)) reportSubsonicFailure(e, 'list', navigate);
      }
    },
    [id, navigate],
  );

  useEffect(() => {
    const ac = new AbortController();
    setView(null);
    setFailed(null);
    void load(ac.signal);
    return () => ac.abort();
  }, [load]);

  if (!view) {
    return (
      <div className="ts-library-page ts-artist-page" data-testid="artist-page">
        {failed ? <NonIdealState icon="error" title={t('查询失败！')} description={failed} action={<Button icon="refresh" text={t('重试')} onClick={() => void load()} />} /> : <NonIdealState icon={<Spinner size={40} />} />}
      </div>
    );
  }

  const { artist, info, top } = view;
  const albums = artist.album ?? [];
  const genres = artistGenres(albums);
  const description = info.biography?.trim() ?? '';
  const playTop = (index?: number) => {
    if (top.length) playSongs(top, index);
    else notifyError(t('播放失败！'), t('没有可播放的歌曲'));
  };

  const toggleStar = async () => {
    const next = !starred;
    setStarredState(next);
    try {
      await setStarred('artist', artist.id, next);
    } catch (e) {
      setStarredState(!next);
      notifyError(t(next ? '收藏失败！' : '取消收藏失败！'), e instanceof Error ? e.message : undefined);
    }
  };

  const openDelete = async () => {
    setDeleteCount(null);
    setDeleting(true);
    try {
      setDeleteCount((await countArtistTracks(artist.id)).total);
    } catch {
      setDeleting(false);
    }
  };

  /** After a save that renamed the artist in the files, the library re-derives its id: wait for it, then go there. */
  const afterSave = async (newId: string, wroteFiles: boolean) => {
    // Tags written by a task reach the library about a second after the answer.
    if (newId === artist.id) return void setTimeout(() => void load(), wroteFiles ? 1500 : 0);
    setWaiting(true);
    const deadline = Date.now() + RENAME_WAIT_MS;
    while (Date.now() < deadline) {
      try {
        await getArtist(newId);
        setWaiting(false);
        navigate(`/artist/id/${encodeURIComponent(newId)}`);
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 700));
      }
    }
    setWaiting(false);
    void load();
  };

  const albumItems = latestAlbums(albums).map((a) => ({
    id: a.id,
    title: a.name,
    subtitle: a.year ? String(a.year) : undefined,
    coverArt: a.coverArt,
    href: `/album/id/${encodeURIComponent(a.id)}`,
  }));
  const similarItems = (info.similarArtist ?? []).map((a) => ({
    id: a.id,
    title: a.name,
    subtitle: t('{n} 张专辑', { n: a.albumCount ?? 0 }),
    coverArt: a.coverArt,
    href: `/artist/id/${encodeURIComponent(a.id)}`,
  }));
  const tracksHref = `/artist/tracks/${encodeURIComponent(artist.id)}?name=${encodeURIComponent(artist.name)}`;

  return (
    <div className="ts-library-page ts-artist-page" data-testid="artist-page" data-id={artist.id}>
      <div className="ts-entity-head">
        <img className="ts-entity-cover ts-round" src={coverUrl(artist.coverArt, 300)} alt="" data-testid="artist-cover" />
        <div className="ts-entity-info">
          <h2 className="ts-entity-name">
            <span data-testid="artist-name">{artist.name}</span>
            <Button
              variant="minimal"
              icon="heart"
              intent={starred ? 'danger' : 'none'}
              aria-pressed={starred}
              aria-label={starred ? t('取消收藏') : t('收藏')}
              title={starred ? t('取消收藏') : t('收藏')}
              onClick={() => void toggleStar()}
              data-testid="artist-star"
            />
          </h2>
          <div className="ts-entity-meta">
            <span data-testid="artist-album-count">{t('{n} 张专辑', { n: artist.albumCount ?? albums.length })}</span>
            <span data-testid="artist-track-count">{t('{n} 首歌曲', { n: artistTrackCount(albums) })}</span>
          </div>
          <div className="ts-entity-genres" data-testid="artist-genres">
            {genres.map((g) => (
              <Link key={g} href={`/genre/id/${encodeURIComponent(g)}`}>
                <Tag minimal round interactive icon="tag">
                  {g}
                </Tag>
              </Link>
            ))}
          </div>
          {description ? (
            <button type="button" className="ts-entity-description" title={t('查看全文')} onClick={() => setFullText(true)} data-testid="artist-description">
              {description}
            </button>
          ) : (
            <span className="ts-muted" data-testid="artist-description-empty">
              {t('暂无描述')}
            </span>
          )}
          <div className="ts-entity-actions">
            <Button intent="primary" icon="play" text={t('播放')} onClick={() => playTop()} disabled={!top.length} data-testid="artist-play" />
            <Button icon="edit" text={t('编辑')} onClick={() => setEditing(true)} loading={waiting} data-testid="artist-edit-open" />
            <Button icon="trash" intent="danger" variant="outlined" text={t('删除')} onClick={() => void openDelete()} data-testid="artist-delete-open" />
          </div>
        </div>
      </div>

      <section className="ts-entity-section" data-testid="artist-top">
        <div className="ts-entity-section-head">
          <h3>{t('热门歌曲')}</h3>
          <Link href={tracksHref} data-testid="artist-view-all">
            {t('查看全部')} <Icon icon="chevron-right" size={12} />
          </Link>
        </div>
        {top.length ? <TrackTable tracks={top.slice(0, TOP_TRACKS_SHOWN)} onPlay={(i) => playTop(i)} /> : <p className="ts-muted">{t('暂无歌曲')}</p>}
      </section>

      <section className="ts-entity-section" data-testid="artist-albums">
        <div className="ts-entity-section-head">
          <h3>{t('最新专辑')}</h3>
        </div>
        {albumItems.length ? <CoverGrid items={albumItems} testId="artist-albums-grid" /> : <p className="ts-muted">{t('暂无专辑')}</p>}
      </section>

      {similarItems.length ? (
        <section className="ts-entity-section" data-testid="artist-similar">
          <div className="ts-entity-section-head">
            <h3>{t('相似艺术家')}</h3>
          </div>
          <CoverGrid items={similarItems} testId="artist-similar-grid" />
        </section>
      ) : null}

      <Dialog isOpen={fullText} onClose={() => setFullText(false)} title={artist.name} icon="info-sign" className="ts-library-dialog">
        <DialogBody>
          <div className="ts-entity-description-full" data-testid="artist-description-full">
            {description}
          </div>
        </DialogBody>
      </Dialog>
      <ArtistEditDrawer
        artist={{ id: artist.id, name: artist.name, description, coverArt: artist.coverArt }}
        isOpen={editing}
        onClose={() => setEditing(false)}
        onSaved={(answer, wroteFiles) => void afterSave(answer.id, wroteFiles)}
      />
      <EntityDeleteDialog
        isOpen={deleting}
        title={t('删除艺术家')}
        ready={deleteCount !== null}
        body={
          deleteCount === null ? (
            <Spinner size={24} />
          ) : (
            <p>{t('确定删除艺术家「{name}」吗？它的 {n} 首歌曲将移到回收站（可在日志中撤销）。', { name: artist.name, n: deleteCount })}</p>
          )
        }
        onClose={() => setDeleting(false)}
        onConfirm={async () => {
          await deleteArtist(artist.id);
          navigate('/artists/most-albums');
        }}
      />
    </div>
  );
}
