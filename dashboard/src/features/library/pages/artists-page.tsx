import { useState } from 'react';
import { useLocation, useParams } from 'wouter';
import { Button } from '../../../components/ui/button.tsx';
import { NonIdealState } from '../../../components/ui/display.tsx';
import { useT } from '../../../lib/i18n.ts';
import { notifyError } from '../../../lib/notify.ts';
import type { SubsonicArtist } from '../api/artist-types.ts';
import { getArtists, type ArtistSort } from '../api/get-artists.ts';
import { getSongsBy } from '../api/get-songs-by.ts';
import { setStarred } from '../api/star-item.ts';
import { BackToTop } from '../components/back-to-top.tsx';
import { CoverGrid } from '../components/cover-grid.tsx';
import { ViewModeToggle, useViewMode } from '../components/view-mode-toggle.tsx';
import { SortTabs } from '../components/sort-tabs.tsx';
import { ListFooter } from '../components/list-footer.tsx';
import { useDebouncedTerm } from '../hooks/use-debounced-term.ts';
import { useInfiniteList } from '../hooks/use-infinite-list.ts';
import { ARTIST_PAGE_SIZE, ARTIST_SEARCH_DEBOUNCE_MS, readAll } from '../lib/artist-view.ts';
import { playSongs } from '../lib/play.ts';
import { reportSubsonicFailure } from '../lib/subsonic-error.ts';
import '../components/artists/artists.css';

/** §2 Artists list: the three sorts, in the route. */
const SORTS: { key: ArtistSort; label: string }[] = [
  { key: 'most-albums', label: '最多专辑' },
  { key: 'a-z', label: 'A-Z排序' },
  { key: 'less_cover', label: '缺失封面' },
];

/**
 * /artists/:sort (spec §2 Artists list): album artists as tiles or rows, 50 per batch with infinite scroll,
 * each with its album count, a favourite toggle and a play button that queues all of the artist's tracks.
 * The header's search term narrows the list 500 ms after the last key (§9); a failed search stays silent (§8).
 */
export function ArtistsPage() {
  const t = useT();
  const params = useParams<{ sort: string }>();
  const [, navigate] = useLocation();
  const sort: ArtistSort = SORTS.some((s) => s.key === params.sort) ? (params.sort as ArtistSort) : 'most-albums';
  const [mode, setMode] = useViewMode('artistView');
  const search = useDebouncedTerm(ARTIST_SEARCH_DEBOUNCE_MS);
  const [stars, setStars] = useState<Record<string, boolean>>({});

  const list = useInfiniteList<SubsonicArtist>(
    async (offset, size) => {
      try {
        return await getArtists(sort, offset, size, search);
      } catch (e) {
        reportSubsonicFailure(e, search ? 'artist-search' : 'list', navigate);
        throw e;
      }
    },
    { pageSize: ARTIST_PAGE_SIZE, deps: [sort, search] },
  );

  const starredOf = (a: SubsonicArtist) => stars[a.id] ?? Boolean(a.starred);
  const toggleStar = async (a: SubsonicArtist, next: boolean) => {
    setStars((s) => ({ ...s, [a.id]: next }));
    try {
      await setStarred('artist', a.id, next);
    } catch (e) {
      setStars((s) => ({ ...s, [a.id]: !next }));
      notifyError(t(next ? '收藏失败！' : '取消收藏失败！'), e instanceof Error ? e.message : undefined);
    }
  };

  const play = async (a: SubsonicArtist) => {
    try {
      const songs = await readAll((offset, size) => getSongsBy({ artistId: a.id }, offset, size));
      if (songs.length) playSongs(songs);
      else notifyError(t('播放失败！'), t('没有可播放的歌曲'));
    } catch (e) {
      notifyError(t('播放失败！'), e instanceof Error ? e.message : String(e));
    }
  };

  const items = list.items.map((a) => ({
    id: a.id,
    title: a.name,
    subtitle: t('{n} 张专辑', { n: a.albumCount ?? 0 }),
    coverArt: a.coverArt,
    href: `/artist/id/${encodeURIComponent(a.id)}`,
    favourite: starredOf(a),
    onFavourite: (next: boolean) => void toggleStar(a, next),
    onPlay: () => void play(a),
  }));

  return (
    <div className="ts-library-page ts-artists-page" data-testid="artists-page" data-sort={sort} data-search={search}>
      <div className="ts-library-head">
        <SortTabs base="/artists" tabs={SORTS} active={sort} />
        <div className="ts-artists-tools">
          <ViewModeToggle mode={mode} onChange={setMode} />
        </div>
      </div>
      {items.length ? <CoverGrid items={items} mode={mode} testId="artists-grid" /> : null}
      {list.error && !items.length ? <NonIdealState icon="error" title={t('查询失败！')} action={<Button icon="refresh" text={t('重试')} onClick={list.reload} />} /> : null}
      <ListFooter sentinelRef={list.sentinelRef} loading={list.loading} done={list.done} empty={items.length === 0} emptyText={search ? '没有找到艺术家' : '还没有艺术家'} />
      <BackToTop />
    </div>
  );
}
