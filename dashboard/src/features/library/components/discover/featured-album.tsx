import { Fragment } from 'react';
import { Link } from 'wouter';
import { Button } from '../../../../components/ui/button.tsx';
import { useT } from '../../../../lib/i18n.ts';
import type { FeaturedAlbum as Featured } from '../../api/discover-types.ts';
import { coverUrl } from '../../lib/cover-url.ts';
import { formatCount } from '../../lib/format.ts';
import { DiscoverSection } from './discover-section.tsx';

/** The most played album (else one with a cover): cover, name, comment, year, plays, its artists, play. */
export function FeaturedAlbum({ album, onPlay }: { album: Featured | null; onPlay: (albumId: string) => void }) {
  const t = useT();
  return (
    <DiscoverSection title="精选专辑" testId="discover-featured" empty={!album} className="ts-discover-featured">
      {album ? (
        <div className="ts-discover-featured-body">
          <Link href={`/album/id/${encodeURIComponent(album.id)}`}>
            <img src={coverUrl(album.cover, 300)} alt="" loading="lazy" className="ts-discover-featured-cover" />
          </Link>
          <div className="ts-discover-featured-text">
            <Link href={`/album/id/${encodeURIComponent(album.id)}`} className="ts-discover-featured-name" data-testid="discover-featured-name">
              {album.name}
            </Link>
            <div className="ts-discover-small" data-testid="discover-featured-artists">
              {album.artists.map((a, i) => (
                <Fragment key={a.id}>
                  {i > 0 ? ' / ' : ''}
                  <Link href={`/artist/id/${encodeURIComponent(a.id)}`}>{a.name}</Link>
                </Fragment>
              ))}
            </div>
            <div className="ts-muted ts-discover-small">
              {album.year ? `${album.year} · ` : ''}
              {t('{n} 次播放', { n: formatCount(album.play_count) })}
            </div>
            {album.comment ? <p className="ts-discover-comment" data-testid="discover-featured-comment">{album.comment}</p> : null}
            <Button icon="play" intent="primary" size="small" onClick={() => onPlay(album.id)} data-testid="discover-featured-play">
              {t('播放')}
            </Button>
          </div>
        </div>
      ) : null}
    </DiscoverSection>
  );
}
