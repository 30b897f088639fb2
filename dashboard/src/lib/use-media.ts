/** Media-query state as a hook (the mobile layout switches at MOBILE_BREAKPOINT). */
import { useSyncExternalStore } from 'react';
import { MOBILE_BREAKPOINT } from './constants.ts';

export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (notify) => {
      const mq = window.matchMedia(query);
      mq.addEventListener('change', notify);
      return () => mq.removeEventListener('change', notify);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

export const useIsMobile = (): boolean => useMediaQuery(`(max-width: ${MOBILE_BREAKPOINT - 1}px)`);
