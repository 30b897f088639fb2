/**
 * How the dry-run table shows file paths: moves, copies and deletes below the folder all their paths share
 * (`…/Artist/Album/01.flac` instead of the whole media path twice per row); tag values as they are.
 */
import type { BatchChange } from '../api/get-dry-run.ts';

export const isPath = (c: BatchChange): boolean => c.kind === 'move' || c.kind === 'copy' || c.kind === 'delete';

/** The longest folder (ending in `/`) every path starts with; '' for none. */
export function commonFolder(paths: string[]): string {
  if (paths.length === 0) return '';
  let prefix = paths[0]!.slice(0, paths[0]!.lastIndexOf('/') + 1);
  for (const p of paths) while (prefix && !p.startsWith(prefix)) prefix = prefix.slice(0, prefix.lastIndexOf('/', prefix.length - 2) + 1);
  return prefix;
}

export const shownValue = (c: BatchChange, value: string | null, common: string): string =>
  value === null ? '—' : isPath(c) && common.length > 1 && value.startsWith(common) ? `…/${value.slice(common.length)}` : value;
