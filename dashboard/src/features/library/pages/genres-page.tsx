import { useCallback, useEffect, useState } from 'react';
import { useLocation, useParams } from 'wouter';
import { Button } from '../../../components/ui/button.tsx';
import { NonIdealState, Spinner } from '../../../components/ui/display.tsx';
import { useT } from '../../../lib/i18n.ts';
import { notifyError } from '../../../lib/notify.ts';
import type { SubsonicGenre } from '../api/artist-types.ts';
import { getGenres, type GenreSort } from '../api/get-genres.ts';
import { getSongsBy } from '../api/get-songs-by.ts';
import { BackToTop } from '../components/back-to-top.tsx';
import { CoverGrid } from '../components/cover-grid.tsx';
import { SortTabs } from '../components/sort-tabs.tsx';
import { GENRE_PLAY_COUNT } from '../lib/artist-view.ts';
import { playSongs } from '../lib/play.ts';
import { reportSubsonicFailure } from '../lib/subsonic-error.ts';
import '../components/artists/artists.css';

/** §2 Genres list: the three tabs, in the route. */
const SORTS: { key: GenreSort; label: string }[] = [
  { key: 'a-z', label: 'A-Z排序' },
  { key: 'most-albums', label: '最多专辑' },
  { key: 'most-tracks', label: '最多歌曲' },
];

/**
 * /genres/:sort (spec §2 Genres list): every genre as a tile with its album and track counts and a play
 * button that queues 100 of its tracks (§7). Genres are few, so the list comes in one call.
 */
export function GenresPage() {
  const t = useT();
  const params = useParams<{ sort: string }>();
  const [, navigate] = useLocation();
  const sort: GenreSort = SORTS.some((s) => s.key === params.sort) ? (params.sort as GenreSort) : 'a-z';
  const [genres, setGenres] = useState<SubsonicGenre[] | null>(null);
  const [failed, setFailed] = useState<string | null>(null);

  const load = useCallback(
    async (signal?: AbortSignal) => {
      try {
        setGenres(await getGenres(sort, signal));
        setFailed(null);
      } catch (e) {
        if (signal?.aborted) return;
        setFailed(e instanceof Error ? e.message : String(e));
        reportSubsonicFailure(e, 'list', navigate);
      }
    },
    [sort, navigate],
  );

  useEffect(() => {
    const ac = new AbortController();
    setGenres(null);
    void load(ac.signal);
    return () => ac.abort();
  }, [load]);

  const play = async (genre: string) => {
    try {
      const songs = await getSongsBy({ genre }, 0, GENRE_PLAY_COUNT);
      if (songs.length) playSongs(songs);
      else notifyError(t('播放失败！'), t('没有可播放的歌曲'));
    } catch (e) {
      notifyError(t('播放失败！'), e instanceof Error ? e.message : String(e));
    }
  };

  const items = (genres ?? []).map((g) => ({
    id: g.value,
    title: g.value,
    subtitle: `${t('{n} 张专辑', { n: g.albumCount })} · ${t('{n} 首歌曲', { n: g.songCount })}`,
    coverArt: g.coverArt,
    href: `/genre/id/${encodeURIComponent(g.value)}`,
    onPlay: g.songCount ? () => void play(g.value) : undefined,
  }));

  return (
    <div className="ts-library-page ts-genres-page" data-testid="genres-page" data-sort={sort}>
      <div className="ts-library-head">
        <SortTabs base="/genres" tabs={SORTS} active={sort} />
      </div>
      {genres === null ? (
        failed ? (
          <NonIdealState icon="error" title={t('查询失败！')} description={failed} action={<Button icon="refresh" text={t('重试')} onClick={() => void load()} />} />
        ) : (
          <NonIdealState icon={<Spinner size={40} />} />
        )
      ) : items.length ? (
        <CoverGrid items={items} testId="genres-grid" />
      ) : (
        <NonIdealState icon="tag" title={t('还没有流派')} />
      )}
      <BackToTop />
    </div>
  );
}
