import { useState } from 'react';
import { Link } from 'wouter';
import { Button } from '../../../../components/ui/button.tsx';
import { NonIdealState, Tab, Tabs } from '../../../../components/ui/display.tsx';
import { useT } from '../../../../lib/i18n.ts';
import { coverUrl } from '../../../library/lib/cover-url.ts';
import { artistOf, formatCount } from '../../../library/lib/format.ts';
import { getSong } from '../../../player/api/get-song.ts';
import { toPlayerTrack } from '../../../player/lib/track.ts';
import { usePlayer } from '../../../player/stores/player-store.ts';
import type { ListeningEntry, ListeningRecord } from '../../api/types.ts';

/** Plays one track of the record: its full entry comes from getSong (a failure leaves the player as it was, §8). */
const playTrack = (id: string) =>
  getSong(id)
    .then((song) => usePlayer.getState().playList([toPlayerTrack(song)], 0))
    .catch(() => undefined);

type Kind = 'track' | 'album' | 'artist';

/** Where an entry leads: its album or artist page; a track to the album it is on when known, else /playing. */
const hrefOf = (kind: Kind, record: ListeningEntry['record']): string => {
  if (kind === 'album') return `/album/id/${encodeURIComponent(record.id)}`;
  if (kind === 'artist') return `/artist/id/${encodeURIComponent(record.id)}`;
  return record.albumId ? `/album/id/${encodeURIComponent(record.albumId)}` : `/playing/id/${encodeURIComponent(record.id)}`;
};

function Entries({ kind, entries }: { kind: Kind; entries: ListeningEntry[] }) {
  const t = useT();
  if (!entries.length) return <NonIdealState icon="headset" description={t('还没有听歌记录')} />;
  return (
    <ol className="ts-stats-record-list" data-record-list={kind}>
      {entries.map((e, i) => (
        <li key={`${e.record.id}-${i}`} data-record-entry={e.record.id}>
          <span className="ts-stats-rank">{i + 1}</span>
          <img className={kind === 'artist' ? 'ts-stats-cover ts-stats-cover-round' : 'ts-stats-cover'} src={coverUrl(e.record.coverArt, 100)} alt="" loading="lazy" />
          <Link href={hrefOf(kind, e.record)} className="ts-stats-record-name">
            <span className="ts-stats-ellipsis">{e.record.name}</span>
            {kind !== 'artist' ? <span className="ts-stats-ellipsis ts-muted">{t(artistOf(e.record))}</span> : null}
          </Link>
          <span className="ts-stats-plays" data-count={e.count}>
            {t('{n} 次', { n: formatCount(e.count) })}
            {kind === 'track' ? <Button size="small" variant="minimal" icon="play" aria-label={t('播放')} onClick={() => void playTrack(e.record.id)} data-action="play" /> : null}
          </span>
        </li>
      ))}
    </ol>
  );
}

/** The home dashboard's listening record (spec doc 2 §2): tabs track / album / artist, 8 entries each, 'More' → /record. */
export function ListeningRecordPanel({ record }: { record: ListeningRecord | null }) {
  const t = useT();
  const [tab, setTab] = useState<Kind>('track');
  return (
    <section className="ts-stats-panel" data-testid="listening-record">
      <div className="ts-stats-panel-head">
        <h3>{t('听歌记录')}</h3>
        <Link href="/record" className="ts-stats-more" data-testid="record-more">
          {t('更多')}
        </Link>
      </div>
      <Tabs id="ts-listening-tabs" selectedTabId={tab} onChange={(id) => setTab(id as Kind)} renderActiveTabPanelOnly>
        <Tab id="track" title={t('歌曲')} panel={<Entries kind="track" entries={record?.track_list ?? []} />} />
        <Tab id="album" title={t('专辑')} panel={<Entries kind="album" entries={record?.album_list ?? []} />} />
        <Tab id="artist" title={t('艺术家')} panel={<Entries kind="artist" entries={record?.artist_list ?? []} />} />
      </Tabs>
    </section>
  );
}
