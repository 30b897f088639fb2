import { useState } from 'react';
import { useParams, useSearch } from 'wouter';
import { Tab, Tabs } from '../../../components/ui/display.tsx';
import { useT } from '../../../lib/i18n.ts';
import { EntityAlbums, EntityTracks } from '../components/artists/entity-lists.tsx';
import { BackToTop } from '../components/back-to-top.tsx';
import '../components/artists/artists.css';

type TabId = 'albums' | 'tracks';

/**
 * /artist/tracks/:id?name=… (spec §2 Artist tracks): the artist's albums and tracks in two tabs, each an
 * infinite list of 50 per batch, with back-to-top after 700 px. The name comes from the query so the title
 * shows before any call answers.
 */
export function ArtistTracksPage() {
  const t = useT();
  const { id = '' } = useParams<{ id: string }>();
  const name = new URLSearchParams(useSearch()).get('name') ?? '';
  const [tab, setTab] = useState<TabId>('tracks');
  return (
    <div className="ts-library-page ts-artist-tracks-page" data-testid="artist-tracks-page">
      <div className="ts-library-head">
        <h2>{name || t('艺术家')}</h2>
      </div>
      <Tabs id="artist-tracks-tabs" className="ts-entity-tabs" selectedTabId={tab} onChange={(next) => setTab(next as TabId)}>
        <Tab id="albums" title={t('专辑')} data-testid="tab-albums" />
        <Tab id="tracks" title={t('歌曲')} data-testid="tab-tracks" />
      </Tabs>
      {tab === 'albums' ? <EntityAlbums of={{ artistId: id }} /> : <EntityTracks of={{ artistId: id }} />}
      <BackToTop />
    </div>
  );
}
