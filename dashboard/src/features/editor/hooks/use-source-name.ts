import { useEffect, useSyncExternalStore } from 'react';
import { getSources } from '../api/get-sources.ts';
import type { SourceInfo } from '../api/types.ts';

/** Installed sources' names by id, asked once per page (get_sources) and refreshed by the 刮削配置 dialog. */
const names = new Map<string, string>();
const listeners = new Set<() => void>();
let asked: Promise<void> | null = null;
let version = 0;

/** Records the names of a get_sources answer (the 刮削配置 dialog passes each one it gets). */
export function rememberSources(list: readonly SourceInfo[]): void {
  for (const s of list) if (s.name) names.set(s.id, s.name);
  version++;
  for (const l of listeners) l();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** A source's name (Deezer, QQ Music…) for its id, or the id while the names are unknown. */
export function useSourceName(id: string): string {
  useSyncExternalStore(subscribe, () => version);
  useEffect(() => {
    asked ??= getSources().then(rememberSources, () => {
      asked = null; // asked again by the next editor that opens
    });
  }, []);
  return names.get(id) ?? id;
}
