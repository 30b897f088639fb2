import { useEffect, useState } from 'react';
import { Redirect, useLocation, useParams } from 'wouter';
import { useT } from '../../../lib/i18n.ts';
import { getSongList, type SongListType } from '../api/get-song-list.ts';
import type { SubsonicSong } from '../api/types.ts';
import { BackToTop } from '../components/back-to-top.tsx';
import { ListFooter } from '../components/list-footer.tsx';
import { SortTabs } from '../components/sort-tabs.tsx';
import { TrackTable } from '../components/track-table.tsx';
import { useDebouncedTerm } from '../hooks/use-debounced-term.ts';
import { useInfiniteList } from '../hooks/use-infinite-list.ts';
import { playSongs } from '../lib/play.ts';
import { reportSubsonicFailure } from '../lib/subsonic-error.ts';

const TRACK_SORTS = [
  { key: 'recently-added', label: '最近添加' },
  { key: 'recently-played', label: '最近播放' },
  { key: 'most-played', label: '最多播放' },
  { key: 'a-z', label: 'A-Z排序' },
] as const satisfies readonly { key: SongListType; label: string }[];

const TRACK_PAGE_SIZE = 50;

/**
 * /tracks/:sort — every song in one of four orders (/rest getSongList), 50 per batch as the user scrolls;
 * the header's search term (300 ms) narrows the list to matching songs. PLAY on a row plays the loaded list
 * from there.
 */
export function TracksPage() {
  const t = useT();
  const [, navigate] = useLocation();
  const { sort } = useParams<{ sort: string }>();
  const term = useDebouncedTerm();
  const known = TRACK_SORTS.find((s) => s.key === sort);
  const type: SongListType = known?.key ?? 'recently-added';
  const list = useInfiniteList<SubsonicSong>((offset, size) => getSongList(type, offset, size, term), { pageSize: TRACK_PAGE_SIZE, deps: [type, term] });
  const [gone, setGone] = useState<ReadonlySet<string>>(new Set());

  useEffect(() => {
    if (list.error) reportSubsonicFailure(list.error, term ? 'search' : 'list', navigate);
  }, [list.error]);
  useEffect(() => setGone(new Set()), [type, term]);

  if (!known) return <Redirect to="/tracks/recently-added/" replace />;

  const songs = gone.size ? list.items.filter((s) => !gone.has(s.id)) : list.items;
  return (
    <div className="ts-library-page" data-testid="tracks-page" data-sort={sort} data-search={term}>
      <div className="ts-library-head">
        <SortTabs base="/tracks" tabs={TRACK_SORTS} active={sort} />
      </div>
      {term ? <p className="ts-muted" data-testid="search-label">{t('搜索：{term}', { term })}</p> : null}
      {songs.length ? <TrackTable tracks={songs} onPlay={(index) => playSongs(songs, index)} onDeleted={(song) => setGone((g) => new Set([...g, song.id]))} /> : null}
      <ListFooter sentinelRef={list.sentinelRef} loading={list.loading} done={list.done} empty={songs.length === 0} emptyText="暂无歌曲" />
      <BackToTop />
    </div>
  );
}
