import { useEffect, useState } from 'react';

/**
 * A counter that moves every `ms` while the page is visible, and at once when it becomes visible again: put it in
 * an effect's dependencies to re-read something that changes on the server (a plugin's health) without a reload.
 */
export function useRefreshTick(ms: number): number {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const bump = () => {
      if (document.visibilityState === 'visible') setTick((n) => n + 1);
    };
    const timer = setInterval(bump, ms);
    document.addEventListener('visibilitychange', bump);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', bump);
    };
  }, [ms]);
  return tick;
}
