/**
 * Checkbox selection over the tree's rows (§4): toggling (a folder brings its children), Shift range
 * collection, and dragging across checkboxes. Pure functions over id sets, so the rules are testable.
 */
import type { TreeRow } from './tree-rows.ts';
import { subtreeIds } from './tree-rows.ts';

/** Checks or unchecks a row; a folder's loaded children follow it. */
export function toggleRow(checked: ReadonlySet<string>, row: TreeRow, value = !checked.has(row.node.id)): Set<string> {
  const next = new Set(checked);
  for (const id of subtreeIds(row.node)) {
    if (value) next.add(id);
    else next.delete(id);
  }
  return next;
}

/** The rows from one index to another, in either direction, inclusive. */
export function rowsBetween(rows: readonly TreeRow[], a: number, b: number): TreeRow[] {
  const lo = Math.max(0, Math.min(a, b));
  const hi = Math.min(rows.length - 1, Math.max(a, b));
  return hi < lo ? [] : rows.slice(lo, hi + 1);
}

/** Sets every row between two indexes (and their children) to one value. */
export function setRange(checked: ReadonlySet<string>, rows: readonly TreeRow[], a: number, b: number, value: boolean): Set<string> {
  let next = new Set(checked);
  for (const row of rowsBetween(rows, a, b)) next = toggleRow(next, row, value);
  return next;
}

/**
 * Shift range: while Shift is held the clicked rows are collected; on release everything between the
 * first and the last is checked. A single Shift click ranges from the last plain click (the anchor).
 */
export function shiftRange(checked: ReadonlySet<string>, rows: readonly TreeRow[], clickedIds: readonly string[], anchorId: string | null): Set<string> {
  const index = (id: string | null) => (id === null ? -1 : rows.findIndex((r) => r.node.id === id));
  const clicked = clickedIds.map(index).filter((i) => i >= 0);
  if (clicked.length === 0) return new Set(checked);
  const from = clicked.length > 1 ? clicked[0] : index(anchorId);
  const to = clicked[clicked.length - 1];
  if (from < 0) return new Set(checked);
  return setRange(checked, rows, from, to, true);
}

/** Dragging from one checkbox to another: the baseline with the dragged-over range set to the start's new value. */
export function dragRange(baseline: ReadonlySet<string>, rows: readonly TreeRow[], startIndex: number, currentIndex: number, value: boolean): Set<string> {
  return setRange(baseline, rows, startIndex, currentIndex, value);
}
