import { Link } from 'wouter';
import { useT } from '../../../../lib/i18n.ts';
import type { SimilarArtist } from '../../api/discover-types.ts';
import { coverUrl } from '../../lib/cover-url.ts';
import { DiscoverSection } from './discover-section.tsx';

/** Artists close to the hottest one (spec §9: 3 shown). */
export function SimilarArtists({ artists }: { artists: SimilarArtist[] }) {
  const t = useT();
  return (
    <DiscoverSection title="相似艺术家" testId="discover-similar" empty={artists.length === 0}>
      <ul className="ts-discover-rows">
        {artists.map((a) => (
          <li key={a.id} data-testid="discover-similar-artist">
            <Link href={`/artist/id/${encodeURIComponent(a.id)}`} className="ts-discover-row">
              <img src={coverUrl(a.coverArt, 100)} alt="" loading="lazy" className="ts-discover-avatar ts-discover-avatar-small" />
              <span className="ts-discover-row-text">
                <span className="ts-discover-ellipsis" data-testid="discover-similar-artist-name">
                  {a.name}
                </span>
                {a.albumCount !== undefined ? <span className="ts-muted ts-discover-small">{t('{n} 张专辑', { n: a.albumCount })}</span> : null}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </DiscoverSection>
  );
}
