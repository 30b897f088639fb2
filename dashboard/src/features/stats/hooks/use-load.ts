import { useCallback, useEffect, useState, type DependencyList } from 'react';

export interface Loaded<T> {
  data: T | null;
  loading: boolean;
  /** The failure (already announced by the API client); the panel shows its empty state. */
  failed: boolean;
  reload: () => void;
}

/**
 * Loads `load(signal)` on mount and whenever `deps` change (the /record period), aborting the previous call so a
 * slow answer for the old period never replaces the new one. Keeps the last data while reloading (no flicker).
 */
export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, deps: DependencyList): Loaded<T> {
  const [data, setData] = useState<T | null>(null);
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState(false);
  const [round, setRound] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    load(controller.signal).then(
      (value) => {
        if (controller.signal.aborted) return;
        setData(value);
        setFailed(false);
        setLoading(false);
      },
      () => {
        if (controller.signal.aborted) return;
        setFailed(true);
        setLoading(false);
      },
    );
    return () => controller.abort();
    // `load` is a new closure each render; what it reads is in `deps`.
  }, [...deps, round]);

  const reload = useCallback(() => setRound((r) => r + 1), []);
  return { data, loading, failed, reload };
}
