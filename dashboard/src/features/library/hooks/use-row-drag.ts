/**
 * Reordering a table's rows three ways: a mouse drags the row (HTML5 drag and drop); a finger or pen drags the
 * row's handle (pointer events — phones have no HTML5 drag); the keyboard moves the focused handle's row with
 * the arrow keys. Each ends in one `onReorder(from, to)`.
 */
import { useRef, useState, type DragEvent, type KeyboardEvent, type PointerEvent } from 'react';

/** How close to the window's top or bottom edge a finger makes the list scroll. */
const EDGE_PX = 80;

const rowAt = (x: number, y: number): HTMLElement | null => document.elementFromPoint(x, y)?.closest<HTMLElement>('[data-row-index]') ?? null;

export function useRowDrag(enabled: boolean, count: number, onReorder: ((from: number, to: number) => void) | undefined) {
  const [from, setFrom] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  /** The row a finger holds (state is one render late inside pointer handlers). */
  const held = useRef<number | null>(null);
  const overRef = useRef<number | null>(null);
  const on = enabled && onReorder !== undefined;

  const reset = () => {
    held.current = null;
    overRef.current = null;
    setFrom(null);
    setOver(null);
  };
  const hover = (index: number | null) => {
    overRef.current = index;
    setOver(index);
  };
  const move = (a: number, b: number) => {
    if (a !== b && b >= 0 && b < count) onReorder?.(a, b);
  };

  /** Spread on each row. */
  const rowProps = (index: number) =>
    on
      ? {
          'data-row-index': index,
          draggable: true,
          onDragStart: (e: DragEvent) => {
            e.dataTransfer.effectAllowed = 'move';
            e.dataTransfer.setData('text/plain', String(index));
            setFrom(index);
          },
          onDragOver: (e: DragEvent) => {
            e.preventDefault();
            setOver(index);
          },
          onDragEnd: reset,
          onDrop: (e: DragEvent) => {
            e.preventDefault();
            const start = from ?? Number(e.dataTransfer.getData('text/plain'));
            reset();
            if (Number.isInteger(start)) move(start, index);
          },
        }
      : {};

  /** Spread on each row's handle. */
  const handleProps = (index: number) =>
    on
      ? {
          role: 'button',
          tabIndex: 0,
          'data-drag-handle': index,
          onPointerDown: (e: PointerEvent<HTMLElement>) => {
            if (e.pointerType === 'mouse') return; // the row's own drag serves a mouse
            e.preventDefault();
            e.currentTarget.setPointerCapture(e.pointerId);
            held.current = index;
            setFrom(index);
            hover(index);
          },
          onPointerMove: (e: PointerEvent<HTMLElement>) => {
            if (held.current === null) return;
            const row = rowAt(e.clientX, e.clientY);
            if (row) hover(Number(row.dataset.rowIndex));
            // Near an edge, bring the next row in so a long list can be crossed.
            const edge = e.clientY < EDGE_PX ? -1 : e.clientY > window.innerHeight - EDGE_PX ? 1 : 0;
            const at = overRef.current;
            if (edge !== 0 && at !== null) document.querySelector(`[data-row-index="${at + edge}"]`)?.scrollIntoView({ block: 'nearest' });
          },
          onPointerUp: () => {
            const start = held.current;
            const end = overRef.current;
            reset();
            if (start !== null && end !== null) move(start, end);
          },
          onPointerCancel: reset,
          onKeyDown: (e: KeyboardEvent<HTMLElement>) => {
            const to = e.key === 'ArrowUp' ? index - 1 : e.key === 'ArrowDown' ? index + 1 : null;
            if (to === null || to < 0 || to >= count) return;
            e.preventDefault();
            move(index, to);
            // The row re-renders at its new place: its handle keeps the focus.
            requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-drag-handle="${to}"]`)?.focus());
          },
        }
      : {};

  return { on, from, over, rowProps, handleProps };
}
