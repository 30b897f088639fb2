/** Widths of the multi-file table's columns for the room it has. */
const DEFAULT_MIN_WIDTH = 56;

/**
 * Column widths that fill `available` px: each column gets its share of the room in proportion to its
 * `width`, never less than its minimum (then the table scrolls sideways).
 */
export function fitColumnWidths(columns: readonly { width: number; min?: number }[], available: number): number[] {
  const mins = columns.map((c) => c.min ?? DEFAULT_MIN_WIDTH);
  let widths = columns.map((c) => c.width);
  if (available <= 0) return widths;
  // Columns pinned at their minimum leave the rest of the room to the others (a few passes settle it).
  const pinned = new Set<number>();
  for (let pass = 0; pass < columns.length; pass++) {
    const room = available - [...pinned].reduce((n, i) => n + mins[i]!, 0);
    const share = columns.reduce((n, c, i) => (pinned.has(i) ? n : n + c.width), 0);
    if (share <= 0) break;
    widths = columns.map((c, i) => (pinned.has(i) ? mins[i]! : Math.floor((c.width * room) / share)));
    const under = widths.findIndex((w, i) => !pinned.has(i) && w < mins[i]!);
    if (under < 0) break;
    pinned.add(under);
  }
  return widths.map((w, i) => Math.max(w, mins[i]!));
}
