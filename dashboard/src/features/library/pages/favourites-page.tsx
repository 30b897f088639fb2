import { useState } from 'react';
import { useParams } from 'wouter';
import { NonIdealState, Spinner } from '../../../components/ui/display.tsx';
import { useT } from '../../../lib/i18n.ts';
import { notifyError } from '../../../lib/notify.ts';
import { toPlayerTrack } from '../../player/lib/track.ts';
import { usePlayer } from '../../player/stores/player-store.ts';
import { getStarred, type StarredKinds } from '../api/get-starred.ts';
import { setStarred, type StarKind } from '../api/star-item.ts';
import type { SubsonicArtist } from '../api/artist-types.ts';
import type { SubsonicAlbum, SubsonicSong } from '../api/types.ts';
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
  /** Items unstarred here stay listed (with an empty heart) so a slip can be undone at once. */
  const [unstarred, setUnstarred] = useState<ReadonlySet<string>>(new Set());
  const heart = (kind: StarKind, id: string) => ({
    favourite: !unstarred.has(id),
    onFavourite: async (next: boolean) => {
      const mark = (on: boolean) =>
        setUnstarred((s) => {
          const n = new Set(s);
          if (on) n.delete(id);
          else n.add(id);
          return n;
        });
      mark(next);
      try {
        await setStarred(kind, id, next);
      } catch (e) {
        mark(!next);
        notifyError(t(next ? '收藏失败！' : '取消收藏失败！'), e instanceof Error ? e.message : undefined);
      }
    },
  });
  const list = useInfiniteList<StarredKinds[keyof StarredKinds]>((offset, size) => getStarred(KIND[tab], offset, size), { pageSize: FAVOURITES_PAGE_SIZE, deps: [tab] });

  let body;
  if (tab === 'tracks') {
    const songs = list.items as SubsonicSong[];
    body = songs.length ? (
      <TrackTable
        tracks={songs}
        playingId={playingId}
        onPlay={(index) => usePlayer.getState().playList(songs.map(toPlayerTrack), index)}
        onEnqueue={(index) => usePlayer.getState().enqueue([toPlayerTrack(songs[index]!)])}
      />
    ) : null;
  } else if (tab === 'albums') {
    const albums = list.items as SubsonicAlbum[];
    body = albums.length ? (
      <CoverGrid
        items={albums.map((a) => ({ id: a.id, title: a.name, subtitle: artistOf(a), coverArt: a.coverArt, href: `/album/id/${encodeURIComponent(a.id)}`, ...heart('album', a.id) }))}
      />
    ) : null;
  } else {
    const artists = list.items as SubsonicArtist[];
    body = artists.length ? (
      <CoverGrid
        items={artists.map((a) => ({
          id: a.id,
          title: a.name,
          subtitle: t('{n} 张专辑', { n: a.albumCount ?? 0 }),
          coverArt: a.coverArt,
          href: `/artist/id/${encodeURIComponent(a.id)}`,
          ...heart('artist', a.id),
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
