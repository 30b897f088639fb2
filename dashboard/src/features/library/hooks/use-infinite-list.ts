/**
 * An infinite library list (spec §2, §4, §9): the first batch at once, the next one when the sentinel
 * (an element the page renders after its items) comes within 50 px of the bottom of the scrolling area,
 * until a short or empty batch. `deps` rebuild the list from offset 0 (a new sort, a new search term).
 */
import { useCallback, useEffect, useRef, useState, type DependencyList } from 'react';
import { InfinitePager, type PageLoader, type PagerState } from '../lib/infinite-pager.ts';
import { nearBottom, scrollParent } from '../lib/scroll-parent.ts';

/** The spec's bottom threshold. */
export const BOTTOM_THRESHOLD_PX = 50;

export interface InfiniteList<T> extends PagerState<T> {
  /** Put on the element after the last item. */
  sentinelRef: (el: HTMLElement | null) => void;
  /** Starts the list over from offset 0 (after an edit, a delete). */
  reload: () => void;
}

const EMPTY: PagerState<never> = { items: [], loading: false, done: false, error: null };

export function useInfiniteList<T>(load: PageLoader<T>, { pageSize, deps = [] }: { pageSize: number; deps?: DependencyList }): InfiniteList<T> {
  const [state, setState] = useState<PagerState<T>>(EMPTY);
  const [generation, setGeneration] = useState(0);
  const pager = useRef<InfinitePager<T> | null>(null);
  const sentinel = useRef<HTMLElement | null>(null);
  const observer = useRef<IntersectionObserver | null>(null);
  // The latest loader, so a re-render with a new closure does not restart the list (deps do that).
  const loader = useRef(load);
  loader.current = load;

  useEffect(() => {
    const mine = new InfinitePager<T>((offset, size) => loader.current(offset, size), pageSize, (s) => {
      // An answer for a list that was replaced meanwhile is dropped.
      if (pager.current === mine) setState(s);
    });
    pager.current = mine;
    setState(EMPTY);
    void mine.more();
    return () => {
      if (pager.current === mine) pager.current = null;
    };
  }, [pageSize, generation, ...deps]);

  // A batch that did not fill the screen leaves the sentinel in view: the observer does not fire again
  // for an element that stays visible, so look once more after every batch.
  useEffect(() => {
    const el = sentinel.current;
    if (!el || state.loading || state.done || state.error || state.items.length === 0) return;
    if (nearBottom(el, scrollParent(el), BOTTOM_THRESHOLD_PX)) void pager.current?.more();
  }, [state]);

  const sentinelRef = useCallback((el: HTMLElement | null) => {
    observer.current?.disconnect();
    observer.current = null;
    sentinel.current = el;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) void pager.current?.more();
      },
      { root: scrollParent(el), rootMargin: `0px 0px ${BOTTOM_THRESHOLD_PX}px 0px` },
    );
    io.observe(el);
    observer.current = io;
  }, []);

  useEffect(() => () => observer.current?.disconnect(), []);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { ...state, sentinelRef, reload };
}
