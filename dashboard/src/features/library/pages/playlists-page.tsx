import { useCallback, useEffect, useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { Button } from '../../../components/ui/button.tsx';
import { NonIdealState, Spinner } from '../../../components/ui/display.tsx';
import { useT } from '../../../lib/i18n.ts';
import { notifyError } from '../../../lib/notify.ts';
import { toPlayerTrack } from '../../player/lib/track.ts';
import { usePlayer } from '../../player/stores/player-store.ts';
import { getPlaylist } from '../api/get-playlist.ts';
import { getPlaylists, type PlaylistSort } from '../api/get-playlists.ts';
import type { PlaylistSummary } from '../api/playlist-types.ts';
import { CoverGrid } from '../components/cover-grid.tsx';
import { ImportPlaylistButton } from '../components/playlists/import-playlist-button.tsx';
import { SmartPlaylistDialog } from '../components/playlists/smart-playlist-dialog.tsx';
import { SortTabs } from '../components/sort-tabs.tsx';
import { loadLastPlaylist } from '../lib/last-playlist.ts';
import '../components/playlists/playlists.css';

/** §9: the playlists page's two sort tabs. */
const SORTS: { key: PlaylistSort; label: string }[] = [
  { key: 'recently-added', label: '最近添加' },
  { key: 'a-z', label: 'A-Z' },
];

/**
 * /playlists/:sort (spec §2 Playlists): the user's playlists (and others' public ones) as tiles with their
 * track count and a play button, sorted by the route's tab; import an m3u8 file; create a smart playlist.
 */
export function PlaylistsPage() {
  const t = useT();
  const params = useParams<{ sort: string }>();
  const [, navigate] = useLocation();
  const sort: PlaylistSort = params.sort === 'a-z' ? 'a-z' : 'recently-added';
  const [lists, setLists] = useState<PlaylistSummary[] | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const last = loadLastPlaylist();

  const load = useCallback(
    async (signal?: AbortSignal) => {
      try {
        setLists(await getPlaylists(sort, signal));
        setFailed(null);
      } catch (e) {
        if (!signal?.aborted) setFailed(e instanceof Error ? e.message : String(e));
      }
    },
    [sort],
  );

  useEffect(() => {
    const ac = new AbortController();
    void load(ac.signal);
    return () => ac.abort();
  }, [load]);

  const play = async (id: string) => {
    try {
      const p = await getPlaylist(id);
      if (p.entry.length) usePlayer.getState().playList(p.entry.map(toPlayerTrack));
    } catch (e) {
      notifyError(t('播放失败！'), e instanceof Error ? e.message : String(e));
    }
  };

  const items = (lists ?? []).map((p) => ({
    id: p.id,
    title: p.name,
    subtitle: t('{n} 首歌曲', { n: p.songCount }),
    coverArt: p.coverArt,
    href: `/playlist/${encodeURIComponent(p.id)}`,
    onPlay: p.songCount ? () => void play(p.id) : undefined,
  }));

  return (
    <div className="ts-library-page ts-playlists-page" data-testid="playlists-page" data-sort={sort}>
      <div className="ts-page-head ts-playlists-head">
        <SortTabs base="/playlists" tabs={SORTS} active={sort} />
        <div className="ts-row">
          <ImportPlaylistButton onImported={() => void load()} />
          <Button intent="primary" icon="predictive-analysis" text={t('创建智能歌单')} data-testid="create-smart" onClick={() => setCreating(true)} />
        </div>
      </div>
      {last && lists?.some((p) => p.id === last.id) ? (
        <div className="ts-muted ts-playlists-last" data-testid="last-playlist">
          {t('上次打开')}：<Link href={`/playlist/${encodeURIComponent(last.id)}`}>{last.name}</Link>
        </div>
      ) : null}
      {lists === null ? (
        failed ? (
          <NonIdealState icon="error" title={t('查询失败！')} description={failed} action={<Button icon="refresh" text={t('重试')} onClick={() => void load()} />} />
        ) : (
          <NonIdealState icon={<Spinner size={40} />} />
        )
      ) : lists.length ? (
        <CoverGrid items={items} />
      ) : (
        <NonIdealState icon="properties" title={t('还没有歌单')} description={t('导入一个 m3u8 文件，或创建一个智能歌单。')} />
      )}
      <SmartPlaylistDialog
        isOpen={creating}
        onClose={() => setCreating(false)}
        onCreated={(p) => {
          setCreating(false);
          navigate(`/playlist/${encodeURIComponent(p.id)}`);
        }}
      />
    </div>
  );
}
