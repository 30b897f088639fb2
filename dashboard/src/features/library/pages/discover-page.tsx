import { useCallback, useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/display.tsx';
import { useT } from '../../../lib/i18n.ts';
import { notify } from '../../../lib/notify.ts';
import { SECONDS } from '../../../lib/constants.ts';
import { currentTrack, usePlayer } from '../../player/stores/player-store.ts';
import { toPlayerTrack, type PlayerTrack } from '../../player/lib/track.ts';
import type { Discover, HotTrack } from '../api/discover-types.ts';
import type { SubsonicSong } from '../api/types.ts';
import { getAlbumSongs } from '../api/get-album-songs.ts';
import { getDiscover } from '../api/get-discover.ts';
import { getRandomSongs } from '../api/get-random-songs.ts';
import { CoverGrid } from '../components/cover-grid.tsx';
import { FeaturedAlbum } from '../components/discover/featured-album.tsx';
import { DiscoverSection } from '../components/discover/discover-section.tsx';
import { HotArtists } from '../components/discover/hot-artists.tsx';
import { HotTrackBanner } from '../components/discover/hot-track-banner.tsx';
import { NewReleases } from '../components/discover/new-releases.tsx';
import { RecentPlays } from '../components/discover/recent-plays.tsx';
import { SimilarArtists } from '../components/discover/similar-artists.tsx';
import { BackToTop } from '../components/back-to-top.tsx';
import { TrackTable } from '../components/track-table.tsx';
import { DISCOVER_RANDOM_COUNT, emptyDiscover } from '../lib/discover.ts';
import '../components/discover/discover.css';

const playSongs = (songs: SubsonicSong[], index = 0) => usePlayer.getState().playList(songs.map(toPlayerTrack), index);

/** The hot track as a queue entry: getDiscover sends it in its own shape, not as a Subsonic song. */
const hotTrackEntry = (track: HotTrack): PlayerTrack => ({
  id: track.id,
  title: track.name,
  artist: track.artist_name,
  artistId: track.artist_id || undefined,
  album: track.album,
  albumId: track.album_id || undefined,
  coverArt: track.cover || undefined,
  duration: track.duration,
});

/**
 * /discover (spec doc 2 §2 "Discover"): the hot-track banner, hot artists, 8 random songs (getRandomSongs size 8,
 * with a button for another 8), recommended albums, new releases with rating and favourite, the featured album,
 * 3 similar artists and recent plays — all from one getDiscover, whose failure leaves the sections empty (§8).
 */
export function DiscoverPage() {
  const t = useT();
  const [data, setData] = useState<Discover>(emptyDiscover);
  const [loading, setLoading] = useState(true);
  const [random, setRandom] = useState<SubsonicSong[]>([]);
  const [randomLoading, setRandomLoading] = useState(true);
  const playingId = usePlayer((s) => currentTrack(s)?.id);

  useEffect(() => {
    const abort = new AbortController();
    getDiscover(abort.signal)
      .then((d) => {
        setData(d);
        setLoading(false);
      })
      .catch(() => undefined);
    return () => abort.abort();
  }, []);

  const loadRandom = useCallback((signal?: AbortSignal) => {
    setRandomLoading(true);
    getRandomSongs(DISCOVER_RANDOM_COUNT, signal)
      .then((songs) => {
        setRandom(songs);
        setRandomLoading(false);
      })
      .catch((e: unknown) => {
        if (signal?.aborted) return;
        console.error('getRandomSongs failed', e);
        setRandom([]);
        setRandomLoading(false);
      });
  }, []);
  useEffect(() => {
    const abort = new AbortController();
    loadRandom(abort.signal);
    return () => abort.abort();
  }, [loadRandom]);

  const playAlbum = async (albumId: string) => {
    try {
      const songs = await getAlbumSongs(albumId);
      if (songs.length) playSongs(songs);
    } catch (e) {
      notify({ intent: 'danger', title: t('查询失败！'), content: e instanceof Error ? e.message : String(e), timeout: SECONDS.five });
    }
  };

  if (loading) {
    return (
      <div className="ts-discover ts-discover-loading" data-testid="discover-page" data-loading="true">
        <Spinner />
      </div>
    );
  }

  return (
    <div className="ts-discover" data-testid="discover-page">
      <HotTrackBanner track={data.hot_track} onPlay={(track) => usePlayer.getState().playList([hotTrackEntry(track)], 0)} />
      <div className="ts-discover-columns">
        <div className="ts-discover-main">
          <HotArtists artists={data.hot_artists} />
          <DiscoverSection
            title="随机歌曲"
            testId="discover-random"
            empty={!randomLoading && random.length === 0}
            action={
              <Button variant="minimal" size="small" icon="refresh" loading={randomLoading} onClick={() => loadRandom()} data-testid="discover-random-refresh">
                {t('换一批')}
              </Button>
            }
          >
            <TrackTable
              tracks={random}
              onPlay={(index) => playSongs(random, index)}
              onEnqueue={(index) => usePlayer.getState().enqueue([toPlayerTrack(random[index]!)])}
              playingId={playingId}
            />
          </DiscoverSection>
          <DiscoverSection title="推荐专辑" testId="discover-recommend" empty={data.recommend_albums.length === 0}>
            <CoverGrid
              testId="discover-recommend-grid"
              items={data.recommend_albums.map((a) => ({
                id: a.id,
                title: a.name,
                subtitle: a.artist ?? '',
                coverArt: a.coverArt,
                href: `/album/id/${encodeURIComponent(a.id)}`,
                favourite: a.starred !== undefined,
                onPlay: () => void playAlbum(a.id),
              }))}
            />
          </DiscoverSection>
          <NewReleases albums={data.new_albums} />
        </div>
        <aside className="ts-discover-side">
          <FeaturedAlbum album={data.album} onPlay={(id) => void playAlbum(id)} />
          <SimilarArtists artists={data.similar_artists} />
          <RecentPlays songs={data.recent_plays} onPlay={(index) => playSongs(data.recent_plays, index)} />
        </aside>
      </div>
      <BackToTop />
    </div>
  );
}
