import { useCallback, useEffect, useState } from 'react';
import { useLocation, useParams } from 'wouter';
import { Button } from '../../../components/ui/button.tsx';
import { Tab, Tabs } from '../../../components/ui/display.tsx';
import { useT } from '../../../lib/i18n.ts';
import { notifyError } from '../../../lib/notify.ts';
import type { SubsonicGenre } from '../api/artist-types.ts';
import { deleteGenre } from '../api/delete-genre.ts';
import { getGenres } from '../api/get-genres.ts';
import { getSongsBy } from '../api/get-songs-by.ts';
import { EntityDeleteDialog } from '../components/artists/entity-delete-dialog.tsx';
import { EntityAlbums, EntityTracks } from '../components/artists/entity-lists.tsx';
import { GenreCoverDrawer } from '../components/artists/genre-cover-drawer.tsx';
import { BackToTop } from '../components/back-to-top.tsx';
import { useDebouncedTerm } from '../hooks/use-debounced-term.ts';
import { ARTIST_SEARCH_DEBOUNCE_MS, GENRE_PLAY_COUNT } from '../lib/artist-view.ts';
import { coverUrl } from '../lib/cover-url.ts';
import { playSongs } from '../lib/play.ts';
import '../components/artists/artists.css';

type TabId = 'albums' | 'tracks';

/**
 * /genre/id/:id (spec §2 Genre detail; a genre's id is its name): picture, name and counts, Play (100 of
 * its tracks), tabs albums and tracks (50 per batch; the header's search term narrows the tracks, 500 ms
 * after the last key), EDIT (a picture drawer, the name disabled) and DELETE (the genre leaves every track's tag through
 * an undoable task; then /genres/a-z/).
 */
export function GenrePage() {
  const t = useT();
  const { id = '' } = useParams<{ id: string }>();
  const genre = safeDecode(id);
  const [, navigate] = useLocation();
  const [info, setInfo] = useState<SubsonicGenre | null>(null);
  const [tab, setTab] = useState<TabId>('albums');
  const search = useDebouncedTerm(ARTIST_SEARCH_DEBOUNCE_MS);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [coverKey, setCoverKey] = useState(0);

  // Counts and picture: getGenres is the only call that has them (genres are few).
  const loadInfo = useCallback(
    async (signal?: AbortSignal) => {
      try {
        const all = await getGenres('a-z', signal);
        setInfo(all.find((g) => g.value === genre) ?? { value: genre, albumCount: 0, songCount: 0 });
      } catch {
        // The lists below say what failed.
      }
    },
    [genre],
  );
  useEffect(() => {
    const ac = new AbortController();
    void loadInfo(ac.signal);
    return () => ac.abort();
  }, [loadInfo]);

  const play = async () => {
    try {
      const songs = await getSongsBy({ genre }, 0, GENRE_PLAY_COUNT);
      if (songs.length) playSongs(songs);
      else notifyError(t('播放失败！'), t('没有可播放的歌曲'));
    } catch (e) {
      notifyError(t('播放失败！'), e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <div className="ts-library-page ts-genre-page" data-testid="genre-page" data-id={genre}>
      <div className="ts-entity-head">
        <img className="ts-entity-cover" src={coverUrl(info?.coverArt, 300) + (coverKey ? `&r=${coverKey}` : '')} alt="" data-testid="genre-cover" />
        <div className="ts-entity-info">
          <h2 className="ts-entity-name" data-testid="genre-name">
            {genre}
          </h2>
          {info ? (
            <div className="ts-entity-meta">
              <span data-testid="genre-album-count">{t('{n} 张专辑', { n: info.albumCount })}</span>
              <span data-testid="genre-track-count">{t('{n} 首歌曲', { n: info.songCount })}</span>
            </div>
          ) : null}
          <div className="ts-entity-actions">
            <Button intent="primary" icon="play" text={t('播放')} onClick={() => void play()} data-testid="genre-play" />
            <Button icon="edit" text={t('编辑')} onClick={() => setEditing(true)} data-testid="genre-edit-open" />
            <Button icon="trash" intent="danger" variant="outlined" text={t('删除')} onClick={() => setDeleting(true)} data-testid="genre-delete-open" />
          </div>
        </div>
      </div>
      <div className="ts-library-head">
        <Tabs id="genre-tabs" className="ts-entity-tabs" selectedTabId={tab} onChange={(next) => setTab(next as TabId)}>
          <Tab id="albums" title={t('专辑')} data-testid="tab-albums" />
          <Tab id="tracks" title={t('歌曲')} data-testid="tab-tracks" />
        </Tabs>
      </div>
      {tab === 'albums' ? <EntityAlbums of={{ genre }} /> : <EntityTracks of={{ genre }} search={search} />}
      <BackToTop />
      <GenreCoverDrawer
        genre={genre}
        coverArt={info?.coverArt}
        isOpen={editing}
        onClose={() => setEditing(false)}
        onSaved={() => {
          setCoverKey(Date.now());
          void loadInfo();
        }}
      />
      <EntityDeleteDialog
        isOpen={deleting}
        title={t('删除流派')}
        body={<p>{t('确定删除流派「{name}」吗？它将从 {n} 首歌曲的标签中移除（可在日志中撤销）。', { name: genre, n: info?.songCount ?? 0 })}</p>}
        onClose={() => setDeleting(false)}
        onConfirm={async () => {
          await deleteGenre(genre);
          navigate('/genres/a-z/');
        }}
      />
    </div>
  );
}

/** wouter hands the raw path segment; a genre like "R&B" or "流行" arrives percent-encoded. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
