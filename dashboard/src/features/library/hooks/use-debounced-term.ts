/** The header's global search term, trimmed, once it has rested for `ms` (spec §9: 300 ms for albums and tracks). */
import { useEffect, useState } from 'react';
import { SEARCH_DEBOUNCE_MS } from '../../../lib/constants.ts';
import { useSearchTerm } from '../../shell/stores/search-term-store.ts';

export function useDebouncedTerm(ms = SEARCH_DEBOUNCE_MS): string {
  const term = useSearchTerm((s) => s.term.trim());
  const [settled, setSettled] = useState(term);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(term), ms);
    return () => clearTimeout(timer);
  }, [term, ms]);
  return settled;
}
