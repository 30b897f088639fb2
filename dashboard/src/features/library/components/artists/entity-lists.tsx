import { useLocation } from 'wouter';
import { Button } from '../../../../components/ui/button.tsx';
import { NonIdealState } from '../../../../components/ui/display.tsx';
import { useT } from '../../../../lib/i18n.ts';
import { getAlbumsBy, type AlbumsOf } from '../../api/get-albums-by.ts';
import { getSongsBy, type SongsOf } from '../../api/get-songs-by.ts';
import type { SubsonicAlbum, SubsonicSong } from '../../api/types.ts';
import { useInfiniteList } from '../../hooks/use-infinite-list.ts';
import { ARTIST_PAGE_SIZE } from '../../lib/artist-view.ts';
import { playSongs } from '../../lib/play.ts';
import { reportSubsonicFailure } from '../../lib/subsonic-error.ts';
import { CoverGrid } from '../cover-grid.tsx';
import { ListFooter } from '../list-footer.tsx';
import { TrackTable } from '../track-table.tsx';

/*
 * The album and track tabs an artist's tracks page and a genre's page share: infinite lists of 50 per
 * batch (spec §7 page sizes) over getAlbumList2 byArtist/byGenre and getSongsByGenre artist_id/genre.
 */

/** An artist's or a genre's albums, 50 per batch (getAlbumList2 byArtist / byGenre). */
export function EntityAlbums({ of }: { of: AlbumsOf }) {
  const [, navigate] = useLocation();
  const key = 'genre' in of ? `g:${of.genre}` : `a:${of.artistId}`;
  const list = useInfiniteList<SubsonicAlbum>(
    async (offset, size) => {
      try {
        return await getAlbumsBy(of, offset, size);
      } catch (e) {
        reportSubsonicFailure(e, 'list', navigate);
        throw e;
      }
    },
    { pageSize: ARTIST_PAGE_SIZE, deps: [key] },
  );
  const items = list.items.map((a) => ({
    id: a.id,
    title: a.name,
    subtitle: a.artist,
    subtitleHref: a.artistId ? `/artist/id/${encodeURIComponent(a.artistId)}` : undefined,
    coverArt: a.coverArt,
    href: `/album/id/${encodeURIComponent(a.id)}`,
  }));
  return (
    <>
      {items.length ? <CoverGrid items={items} testId="entity-albums" /> : null}
      <ListState list={list} empty="暂无专辑" />
    </>
  );
}

/** An artist's or a genre's tracks, 50 per batch (getSongsByGenre artist_id / genre), optionally narrowed. */
export function EntityTracks({ of, search = '' }: { of: SongsOf; search?: string }) {
  const [, navigate] = useLocation();
  const key = 'genre' in of ? `g:${of.genre}` : `a:${of.artistId}`;
  const list = useInfiniteList<SubsonicSong>(
    async (offset, size) => {
      try {
        return await getSongsBy(of, offset, size, search);
      } catch (e) {
        reportSubsonicFailure(e, search ? 'search' : 'list', navigate);
        throw e;
      }
    },
    { pageSize: ARTIST_PAGE_SIZE, deps: [key, search] },
  );
  return (
    <>
      {list.items.length ? (
        <TrackTable
          tracks={list.items}
          onPlay={(i) => playSongs(list.items, i)}
          onDeleted={() => list.reload()}
        />
      ) : null}
      <ListState list={list} empty="暂无歌曲" />
    </>
  );
}

/** A failed first batch offers a retry; the footer is the infinite scroll's sentinel and says when the list is empty. */
function ListState({ list, empty }: { list: { items: unknown[]; loading: boolean; done: boolean; error: unknown; sentinelRef: (el: HTMLElement | null) => void; reload: () => void }; empty: string }) {
  const t = useT();
  return (
    <>
      {list.error && !list.items.length ? <NonIdealState icon="error" title={t('查询失败！')} action={<Button icon="refresh" text={t('重试')} onClick={list.reload} />} /> : null}
      <ListFooter sentinelRef={list.sentinelRef} loading={list.loading} done={list.done} empty={list.items.length === 0} emptyText={empty} />
    </>
  );
}
