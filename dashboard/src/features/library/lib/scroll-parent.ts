/**
 * The element a library list scrolls in: the shell's <main> (overflow: auto), or the window on a page
 * without one. The infinite lists and back-to-top watch it rather than the window, whose scroll never moves.
 */
export function scrollParent(el: Element | null): HTMLElement | null {
  for (let node = el?.parentElement ?? null; node; node = node.parentElement) {
    const { overflowY } = getComputedStyle(node);
    if (overflowY === 'auto' || overflowY === 'scroll') return node;
  }
  return null;
}

/** Whether `el`'s top is within `margin` px of the bottom of what `root` (or the window) shows. */
export function nearBottom(el: Element, root: HTMLElement | null, margin: number): boolean {
  const bottom = root ? root.getBoundingClientRect().bottom : window.innerHeight;
  return el.getBoundingClientRect().top <= bottom + margin;
}
