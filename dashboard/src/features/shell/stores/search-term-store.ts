/**
 * The header search's current term, shared with the library lists (spec §2: albums and tracks react to the
 * global search term, debounced 300 ms). The header panel writes it and clears it when it closes.
 */
import { create } from 'zustand';

interface SearchTermState {
  term: string;
  setTerm: (term: string) => void;
}

export const useSearchTerm = create<SearchTermState>((set) => ({
  term: '',
  setTerm: (term) => set({ term }),
}));
