import { useEffect, useState } from 'react';
import { Redirect, useLocation, useParams } from 'wouter';
import { useT } from '../../../lib/i18n.ts';
import { getAlbum } from '../api/get-album.ts';
import { getAlbumList } from '../api/get-album-list.ts';
import { setStarred } from '../api/star-item.ts';
import type { SubsonicAlbum } from '../api/types.ts';
import { BackToTop } from '../components/back-to-top.tsx';
import { ViewModeToggle, useViewMode } from '../components/view-mode-toggle.tsx';
import { CoverGrid } from '../components/cover-grid.tsx';
import { ListFooter } from '../components/list-footer.tsx';
import { SortTabs } from '../components/sort-tabs.tsx';
import { useDebouncedTerm } from '../hooks/use-debounced-term.ts';
import { useInfiniteList } from '../hooks/use-infinite-list.ts';
import { albumQuery, albumSort, ALBUM_SORTS, DEFAULT_ALBUM_SORT } from '../lib/album-sorts.ts';
import { albumOf, artistOf } from '../lib/format.ts';
import { playSongs } from '../lib/play.ts';
import { reportSubsonicFailure } from '../lib/subsonic-error.ts';


/**
 * /albums/:sort — every album in one of six orders (spec §2), as covers or rows (the choice is remembered),
 * 50 per batch as the user scrolls; the header's search term (300 ms) turns it into an album search (30 per
 * batch). A /rest failure follows §8 (no streaming password: notice, admin link, /login).
 */
export function AlbumsPage() {
  const t = useT();
  const [, navigate] = useLocation();
  const { sort } = useParams<{ sort: string }>();
  const term = useDebouncedTerm();
  const [view, choose] = useViewMode('albumView');
  const [stars, setStars] = useState<Record<string, boolean>>({});
  const { type, pageSize } = albumQuery(sort, term);
  const list = useInfiniteList<SubsonicAlbum>((offset, size) => getAlbumList(type, offset, size, term), { pageSize, deps: [type, term] });

  useEffect(() => {
    if (list.error) reportSubsonicFailure(list.error, term ? 'album-search' : 'album-list', navigate);
  }, [list.error]);

  if (!albumSort(sort)) return <Redirect to={`/albums/${DEFAULT_ALBUM_SORT}/`} replace />;

  const favourite = async (album: SubsonicAlbum, next: boolean) => {
    setStars((s) => ({ ...s, [album.id]: next }));
    try {
      await setStarred('album', album.id, next);
    } catch (e) {
      setStars((s) => ({ ...s, [album.id]: !next }));
      reportSubsonicFailure(e, 'list', navigate);
    }
  };
  const play = async (album: SubsonicAlbum) => {
    try {
      playSongs((await getAlbum(album.id)).song ?? []);
    } catch (e) {
      reportSubsonicFailure(e, 'list', navigate);
    }
  };

  const items = list.items.map((a) => ({
    id: a.id,
    title: t(albumOf({ album: a.name })),
    subtitle: t(artistOf(a)),
    subtitleHref: a.artistId ? `/artist/id/${encodeURIComponent(a.artistId)}` : undefined,
    coverArt: a.coverArt,
    href: `/album/id/${encodeURIComponent(a.id)}`,
    favourite: stars[a.id] ?? Boolean(a.starred),
    onFavourite: (next: boolean) => void favourite(a, next),
    onPlay: () => void play(a),
  }));

  return (
    <div className="ts-library-page" data-testid="albums-page" data-sort={sort} data-search={term}>
      <div className="ts-library-head">
        <SortTabs base="/albums" tabs={ALBUM_SORTS} active={term ? '' : sort} />
        <ViewModeToggle mode={view} onChange={choose} />
      </div>
      {term ? <p className="ts-muted" data-testid="search-label">{t('搜索：{term}', { term })}</p> : null}
      <CoverGrid items={items} mode={view} testId="album-grid" />
      <ListFooter sentinelRef={list.sentinelRef} loading={list.loading} done={list.done} empty={list.items.length === 0} emptyText="暂无专辑" />
      <BackToTop />
    </div>
  );
}
