/** Table sort (§4): one active column; clicking cycles none → ascending → descending → ascending … */

export type SortDirection = 'asc' | 'desc';
export interface SortState {
  key: string | null;
  direction: SortDirection | null;
}

export const UNSORTED: SortState = { key: null, direction: null };

export function nextSort(current: SortState, key: string): SortState {
  if (current.key !== key || current.direction === null) return { key, direction: 'asc' };
  return { key, direction: current.direction === 'asc' ? 'desc' : 'asc' };
}

const collator = new Intl.Collator(['zh-CN', 'en'], { numeric: true, sensitivity: 'base' });

/** Sorts rows by a column; empty values go last whatever the direction. */
export function sortRows<T>(rows: readonly T[], sort: SortState, value: (row: T, key: string) => unknown): T[] {
  if (sort.key === null || sort.direction === null) return [...rows];
  const key = sort.key;
  const sign = sort.direction === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const va = value(a, key);
    const vb = value(b, key);
    const ea = va === null || va === undefined || va === '';
    const eb = vb === null || vb === undefined || vb === '';
    if (ea || eb) return ea === eb ? 0 : ea ? 1 : -1;
    if (typeof va === 'number' && typeof vb === 'number') return (va - vb) * sign;
    if (typeof va === 'boolean' && typeof vb === 'boolean') return (Number(va) - Number(vb)) * sign;
    return collator.compare(String(va), String(vb)) * sign;
  });
}
