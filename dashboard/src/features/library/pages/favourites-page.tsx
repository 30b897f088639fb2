import { useParams } from 'wouter';
import { NonIdealState, Spinner } from '../../../components/ui/display.tsx';
import { useT } from '../../../lib/i18n.ts';
import { toPlayerTrack } from '../../player/lib/track.ts';
import { usePlayer } from '../../player/stores/player-store.ts';
import { getStarred, type StarredKinds } from '../api/get-starred.ts';
import type { PlaylistSong, StarredAlbum, StarredArtist } from '../api/playlist-types.ts';
import { BackToTop } from '../components/back-to-top.tsx';
import { CoverGrid } from '../components/cover-grid.tsx';
import { SortTabs } from '../components/sort-tabs.tsx';
import { TrackTable } from '../components/track-table.tsx';
import { useInfiniteList } from '../hooks/use-infinite-list.ts';
import { artistOf } from '../lib/format.ts';
import '../components/playlists/playlists.css';

/** §9: favourites load 30 per batch. */
export const FAVOURITES_PAGE_SIZE = 30;

type Tab = 'albums' | 'artists' | 'tracks';
const TABS: { key: Tab; label: string }[] = [
  { key: 'albums', label: '专辑' },
  { key: 'artists', label: '艺术家' },
  { key: 'tracks', label: '歌曲' },
];
const KIND: Record<Tab, keyof StarredKinds> = { albums: 'album', artists: 'artist', tracks: 'song' };

/**
 * /favourites/:sort (spec §2 Favourites): the starred albums, artists or tracks (getStarred2 type/size/offset),
 * 30 per batch as the page scrolls. Load errors are ignored (§8): the list just stops.
 */
export function FavouritesPage() {
  const t = useT();
  const params = useParams<{ sort: string }>();
  const tab: Tab = params.sort === 'artists' || params.sort === 'tracks' ? params.sort : 'albums';
  const playingId = usePlayer((s) => s.queue[s.index]?.id);
  const list = useInfiniteList<StarredKinds[keyof StarredKinds]>((offset, size) => getStarred(KIND[tab], offset, size), { pageSize: FAVOURITES_PAGE_SIZE, deps: [tab] });

  let body;
  if (tab === 'tracks') {
    const songs = list.items as PlaylistSong[];
    body = songs.length ? (
      <TrackTable
        tracks={songs}
        playingId={playingId}
        onPlay={(index) => usePlayer.getState().playList(songs.map(toPlayerTrack), index)}
        onEnqueue={(index) => usePlayer.getState().enqueue([toPlayerTrack(songs[index]!)])}
      />
    ) : null;
  } else if (tab === 'albums') {
    const albums = list.items as StarredAlbum[];
    body = albums.length ? (
      <CoverGrid
        items={albums.map((a) => ({ id: a.id, title: a.name, subtitle: artistOf(a), coverArt: a.coverArt, href: `/album/id/${encodeURIComponent(a.id)}`, favourite: true }))}
      />
    ) : null;
  } else {
    const artists = list.items as StarredArtist[];
    body = artists.length ? (
      <CoverGrid
        items={artists.map((a) => ({
          id: a.id,
          title: a.name,
          subtitle: t('{n} 张专辑', { n: a.albumCount ?? 0 }),
          coverArt: a.coverArt,
          href: `/artist/id/${encodeURIComponent(a.id)}`,
          favourite: true,
        }))}
      />
    ) : null;
  }

  return (
    <div className="ts-library-page ts-favourites-page" data-testid="favourites-page" data-tab={tab}>
      <div className="ts-page-head">
        <SortTabs base="/favourites" tabs={TABS} active={tab} />
      </div>
      {body ?? (list.done ? <NonIdealState icon="heart-broken" title={t('还没有收藏')} /> : null)}
      {!list.done || list.loading ? (
        <div ref={list.sentinelRef} className="ts-list-sentinel">
          {list.loading ? <Spinner size={24} /> : null}
        </div>
      ) : null}
      <BackToTop />
    </div>
  );
}
