/** Which rows of a fixed-row-height list to render for a scroll position. */

export interface RowWindow {
  /** First rendered row. */
  start: number;
  /** One past the last rendered row. */
  end: number;
  /** Space above and below the rendered rows, in pixels. */
  padTop: number;
  padBottom: number;
}

/**
 * `chunk` snaps the window's ends to multiples of that many rows, so scrolling re-renders once per
 * chunk instead of on every frame; the buffer keeps at least `buffer` rows beyond the visible ones.
 */
export function rowWindow(scrollTop: number, viewport: number, rowHeight: number, count: number, buffer: number, chunk = 1): RowWindow {
  if (count <= 0) return { start: 0, end: 0, padTop: 0, padBottom: 0 };
  const first = Math.max(0, Math.floor(Math.max(0, scrollTop) / rowHeight));
  const visible = Math.ceil(Math.max(0, viewport) / rowHeight) + 1;
  const start = Math.max(0, Math.min(Math.floor((first - buffer) / chunk) * chunk, count - 1));
  const end = Math.min(count, Math.ceil((first + visible + buffer) / chunk) * chunk);
  return { start, end, padTop: start * rowHeight, padBottom: Math.max(0, (count - end) * rowHeight) };
}

/** The scrollTop that brings a row into view, or null when it already is. */
export function scrollToReveal(index: number, scrollTop: number, viewport: number, rowHeight: number): number | null {
  const top = index * rowHeight;
  if (top < scrollTop) return top;
  if (top + rowHeight > scrollTop + viewport) return top + rowHeight - viewport;
  return null;
}
