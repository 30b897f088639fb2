import { useRef } from 'react';
import { TREE_MAX_WIDTH_RATIO, TREE_MIN_WIDTH } from '../../../lib/constants.ts';
import { useT } from '../../../lib/i18n.ts';

export const clampTreeWidth = (width: number, windowWidth: number): number =>
  Math.round(Math.min(Math.max(width, TREE_MIN_WIDTH), Math.max(TREE_MIN_WIDTH, windowWidth * TREE_MAX_WIDTH_RATIO)));

/** The splitter beside the tree: drag to resize between 200 px and 80% of the window (§2); arrow keys too. */
export function ResizeHandle({ width, onResize, onDone }: { width: number; onResize: (w: number) => void; onDone: (w: number) => void }) {
  const t = useT();
  const start = useRef<{ x: number; width: number } | null>(null);
  const last = useRef(width);

  const move = (e: PointerEvent) => {
    if (!start.current) return;
    last.current = clampTreeWidth(start.current.width + e.clientX - start.current.x, window.innerWidth);
    onResize(last.current);
  };
  const up = () => {
    start.current = null;
    window.removeEventListener('pointermove', move);
    window.removeEventListener('pointerup', up);
    document.body.classList.remove('ts-resizing');
    onDone(last.current);
  };

  return (
    <div
      className="ts-resizer"
      role="separator"
      aria-orientation="vertical"
      aria-label={t('调整文件树宽度')}
      aria-valuenow={width}
      aria-valuemin={TREE_MIN_WIDTH}
      tabIndex={0}
      data-testid="tree-resizer"
      onPointerDown={(e) => {
        e.preventDefault();
        start.current = { x: e.clientX, width };
        last.current = width;
        document.body.classList.add('ts-resizing');
        window.addEventListener('pointermove', move);
        window.addEventListener('pointerup', up);
      }}
      onKeyDown={(e) => {
        if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
        const next = clampTreeWidth(width + (e.key === 'ArrowLeft' ? -20 : 20), window.innerWidth);
        onResize(next);
        onDone(next);
      }}
    />
  );
}
