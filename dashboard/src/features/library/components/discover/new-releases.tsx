import { useState } from 'react';
import { Link } from 'wouter';
import { Button } from '../../../../components/ui/button.tsx';
import { Icon } from '../../../../components/ui/display.tsx';
import { useT } from '../../../../lib/i18n.ts';
import { notify } from '../../../../lib/notify.ts';
import { SECONDS } from '../../../../lib/constants.ts';
import type { NewAlbum } from '../../api/discover-types.ts';
import { setStarred } from '../../api/star-item.ts';
import { coverUrl } from '../../lib/cover-url.ts';
import { ratingStars } from '../../lib/discover.ts';
import { DiscoverSection } from './discover-section.tsx';

/** The newest albums: cover, name, artist, the user's rating and how many rated it, a favourite toggle. */
export function NewReleases({ albums }: { albums: NewAlbum[] }) {
  return (
    <DiscoverSection title="新碟上架" testId="discover-new-albums" empty={albums.length === 0}>
      <ul className="ts-discover-cards">
        {albums.map((a) => (
          <NewReleaseCard key={a.id} album={a} />
        ))}
      </ul>
    </DiscoverSection>
  );
}

function NewReleaseCard({ album }: { album: NewAlbum }) {
  const t = useT();
  const [favourite, setFavourite] = useState(album.favourite);
  const [busy, setBusy] = useState(false);
  const toggle = async () => {
    setBusy(true);
    try {
      await setStarred('album', album.id, !favourite);
      setFavourite(!favourite);
    } catch (e) {
      notify({ intent: 'danger', title: t('修改失败！'), content: e instanceof Error ? e.message : String(e), timeout: SECONDS.two });
    } finally {
      setBusy(false);
    }
  };
  return (
    <li className="ts-discover-card" data-testid="discover-new-album" data-id={album.id}>
      <Link href={`/album/id/${encodeURIComponent(album.id)}`}>
        <img src={coverUrl(album.coverArt, 300)} alt="" loading="lazy" className="ts-discover-card-cover" />
      </Link>
      <Link href={`/album/id/${encodeURIComponent(album.id)}`} className="ts-discover-card-title ts-discover-ellipsis" title={album.name} data-testid="discover-new-album-name">
        {album.name}
      </Link>
      <span className="ts-muted ts-discover-small ts-discover-ellipsis">{album.artist}</span>
      <div className="ts-discover-card-foot">
        <span className="ts-discover-stars" title={t('评分 {r}（{n} 人评分）', { r: album.rating, n: album.rating_count })} data-testid="discover-new-album-rating" data-rating={album.rating}>
          {ratingStars(album.rating).map((s, i) => (
            <Icon key={i} icon={s === 'full' ? 'star' : 'star-empty'} size={12} className={s === 'full' ? 'ts-discover-star-full' : 'ts-muted'} />
          ))}
          <span className="ts-muted ts-discover-small">({album.rating_count})</span>
        </span>
        <Button
          variant="minimal"
          size="small"
          icon="heart"
          intent={favourite ? 'danger' : 'none'}
          aria-label={t(favourite ? '取消收藏' : '收藏|动作')}
          title={t(favourite ? '取消收藏' : '收藏|动作')}
          aria-pressed={favourite}
          loading={busy}
          onClick={() => void toggle()}
          data-testid="discover-new-album-favourite"
        />
      </div>
    </li>
  );
}
