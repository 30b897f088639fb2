import { Link } from 'wouter';
import { useT } from '../../../../lib/i18n.ts';
import type { HotArtist } from '../../api/discover-types.ts';
import { coverUrl } from '../../lib/cover-url.ts';
import { formatCount } from '../../lib/format.ts';
import { DiscoverSection } from './discover-section.tsx';

/** The most played artists: round picture, name, plays, genres and the latest album with its year. */
export function HotArtists({ artists }: { artists: HotArtist[] }) {
  const t = useT();
  return (
    <DiscoverSection title="热门艺术家" testId="discover-hot-artists" empty={artists.length === 0}>
      <ul className="ts-discover-artists">
        {artists.map((a) => (
          <li key={a.id} className="ts-discover-artist" data-testid="discover-hot-artist">
            <Link href={`/artist/id/${encodeURIComponent(a.id)}`} className="ts-discover-artist-link">
              <img src={coverUrl(a.cover, 300)} alt="" loading="lazy" className="ts-discover-avatar" />
              <span className="ts-discover-artist-name" data-testid="discover-hot-artist-name">
                {a.name}
              </span>
            </Link>
            <span className="ts-muted ts-discover-small">{t('{n} 次播放', { n: formatCount(a.play_count) })}</span>
            {a.genres.length ? <span className="ts-muted ts-discover-small ts-discover-ellipsis">{a.genres.slice(0, 3).join(' / ')}</span> : null}
            {a.latest_album ? (
              <Link href={`/album/id/${encodeURIComponent(a.latest_album.id)}`} className="ts-discover-small ts-discover-ellipsis" title={a.latest_album.name}>
                {a.latest_album.name}
                {a.latest_album.year ? ` (${a.latest_album.year})` : ''}
              </Link>
            ) : null}
          </li>
        ))}
      </ul>
    </DiscoverSection>
  );
}
