import type { MouseEvent } from 'react';
import { Link } from 'wouter';
import { Button } from '../../../components/ui/button.tsx';
import { useT } from '../../../lib/i18n.ts';
import { coverUrl } from '../lib/cover-url.ts';
import './library.css';

export interface CoverItem {
  id: string;
  title: string;
  subtitle?: string;
  /** Where the subtitle leads (an album's artist). */
  subtitleHref?: string;
  coverArt?: string;
  href: string;
  /** Shown as a filled heart when true; absent hides the heart. */
  favourite?: boolean;
  /** Clicking the heart; without it the heart only shows the state. */
  onFavourite?: (next: boolean) => void;
  /** The play button shown over the cover on hover. */
  onPlay?: () => void;
}

export type CoverGridMode = 'grid' | 'list';

/** Cover size the server scales to: twice the 160 px tile for sharp covers on high-density screens. */
const COVER_PX = 300;

/**
 * Albums, artists, genres or playlists as cover tiles (grid) or as rows (list). Covers load lazily and
 * sit in fixed-size boxes, so the grid does not reflow while they arrive during an infinite scroll.
 */
export function CoverGrid({ items, mode = 'grid', testId }: { items: CoverItem[]; mode?: CoverGridMode; testId?: string }) {
  return (
    <ul className={`ts-cover-${mode}`} data-testid={testId ?? 'cover-grid'} data-mode={mode}>
      {items.map((item) => (
        <CoverTile key={item.id} item={item} />
      ))}
    </ul>
  );
}

function CoverTile({ item }: { item: CoverItem }) {
  const t = useT();
  const stop = (e: MouseEvent, run: () => void) => {
    e.preventDefault();
    e.stopPropagation();
    run();
  };
  return (
    <li className="ts-cover-item" data-id={item.id}>
      <Link href={item.href} className="ts-cover-link" title={item.title}>
        <span className="ts-cover-box">
          <img className="ts-cover-img" src={coverUrl(item.coverArt, COVER_PX)} alt="" loading="lazy" decoding="async" width={160} height={160} />
          {item.onPlay ? (
            <Button
              className="ts-cover-play"
              icon="play"
              intent="primary"
              aria-label={t('播放')}
              title={t('播放')}
              onClick={(e) => stop(e, item.onPlay!)}
            />
          ) : null}
        </span>
        <span className="ts-cover-text">
          <span className="ts-cover-title">{item.title}</span>
        </span>
      </Link>
      <span className="ts-cover-meta">
        {item.subtitle ? (
          item.subtitleHref ? (
            <Link href={item.subtitleHref} className="ts-cover-subtitle">
              {item.subtitle}
            </Link>
          ) : (
            <span className="ts-cover-subtitle">{item.subtitle}</span>
          )
        ) : (
          <span />
        )}
        {item.favourite !== undefined ? (
          <Button
            className="ts-cover-heart"
            variant="minimal"
            size="small"
            icon="heart"
            intent={item.favourite ? 'danger' : 'none'}
            aria-pressed={item.favourite}
            aria-label={item.favourite ? t('取消收藏') : t('收藏|按钮')}
            title={item.favourite ? t('取消收藏') : t('收藏|按钮')}
            disabled={!item.onFavourite}
            onClick={() => item.onFavourite?.(!item.favourite)}
          />
        ) : null}
      </span>
    </li>
  );
}
