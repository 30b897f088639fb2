import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { InputGroup } from '../../../components/ui/form.tsx';
import { Menu, MenuDivider, MenuItem } from '../../../components/ui/menu.tsx';
import { SEARCH_DEBOUNCE_MS } from '../../../lib/constants.ts';
import { useT } from '../../../lib/i18n.ts';
import { searchSuggestions, type Suggestions } from '../api/search-suggestions.ts';
import { useSearchTerm } from '../stores/search-term-store.ts';

const EMPTY: Suggestions = { artists: [], albums: [], tracks: [] };

/**
 * The V2 header search: suggestions from search3, 300 ms after the last keystroke, only for a non-empty
 * term (§5). Artists open /artist/id/{id}, albums and tracks their album. A failed search shows nothing.
 */
export function SearchPanel({ onClose }: { onClose: () => void }) {
  const t = useT();
  const [, navigate] = useLocation();
  const [term, setTerm] = useState('');
  const [found, setFound] = useState<Suggestions>(EMPTY);
  const latest = useRef<AbortController | null>(null);

  // The library lists follow the term too; closing the panel clears it for them as well.
  useEffect(() => useSearchTerm.getState().setTerm(term), [term]);
  useEffect(() => () => useSearchTerm.getState().setTerm(''), []);

  useEffect(() => {
    const query = term.trim();
    latest.current?.abort();
    if (query === '') {
      setFound(EMPTY);
      return;
    }
    const controller = new AbortController();
    latest.current = controller;
    const timer = setTimeout(() => {
      searchSuggestions(query, controller.signal).then(
        (s) => !controller.signal.aborted && setFound(s),
        () => !controller.signal.aborted && setFound(EMPTY),
      );
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [term]);

  const go = (path: string) => {
    navigate(path);
    onClose();
  };
  const any = found.artists.length + found.albums.length + found.tracks.length > 0;

  return (
    <div className="ts-search" role="search">
      <InputGroup autoFocus leftIcon="search" placeholder={t('搜索艺术家、专辑、歌曲')} value={term} onValueChange={setTerm} onKeyDown={(e) => e.key === 'Escape' && onClose()} aria-label={t('搜索')} />
      {any ? (
        <Menu className="ts-search-results">
          {found.artists.length > 0 ? <MenuDivider title={t('艺术家')} /> : null}
          {found.artists.map((a) => (
            <MenuItem key={`ar-${a.id}`} icon="person" text={a.name} onClick={() => go(`/artist/id/${encodeURIComponent(a.id)}`)} />
          ))}
          {found.albums.length > 0 ? <MenuDivider title={t('专辑')} /> : null}
          {found.albums.map((a) => (
            <MenuItem key={`al-${a.id}`} icon="record" text={a.name} label={a.artist} onClick={() => go(`/album/id/${encodeURIComponent(a.id)}`)} />
          ))}
          {found.tracks.length > 0 ? <MenuDivider title={t('歌曲')} /> : null}
          {found.tracks.map((s) => (
            <MenuItem
              key={`tr-${s.id}`}
              icon="music"
              text={s.title}
              label={s.artist}
              disabled={!s.albumId}
              onClick={() => s.albumId && go(`/album/id/${encodeURIComponent(s.albumId)}`)}
            />
          ))}
        </Menu>
      ) : null}
    </div>
  );
}
