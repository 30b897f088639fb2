import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { translate, useLang, useT } from '../../../lib/i18n.ts';
import { paletteOf, type Palette } from '../../../lib/themes.ts';
import { useThemeStore } from '../../../stores/theme-store.ts';
import type { ChartModel } from '../lib/chart.ts';

interface UplotChartProps {
  model: ChartModel;
  /** Lines (trends over time) or bars (the listening clock). */
  kind?: 'line' | 'bars';
  height?: number;
  /** Names the chart for assistive technology and tests (aria-label and data-testid). */
  name: string;
  testId?: string;
}

/** Colours after the theme's own three: distinct on light and dark backgrounds alike. */
const EXTRA_COLOURS = ['#f59e0b', '#10b981', '#ef4444', '#6366f1', '#ec4899', '#14b8a6', '#8b5cf6', '#84cc16'];

const seriesColour = (palette: Palette, i: number): string => [palette.primary, palette.secondary, palette.accent, ...EXTRA_COLOURS][i % (3 + EXTRA_COLOURS.length)];

function options(model: ChartModel, kind: 'line' | 'bars', palette: Palette, width: number, height: number, t: (k: string) => string): uPlot.Options {
  const grid = palette.dark ? 'rgba(255,255,255,0.08)' : 'rgba(0,0,0,0.07)';
  const axis = { stroke: palette.text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
  const bars = uPlot.paths.bars?.({ size: [0.7, 40], radius: 0.2 });
  return {
    width,
    height,
    // Categories (months, dates, hours) along x: the index is the position, the label its text.
    scales: { x: { time: false, range: (_u, min, max) => [min - 0.5, max + 0.5] }, y: { range: (_u, _min, max) => [0, Math.max(1, max) * 1.1] } },
    axes: [
      // Room for the longest label, so a phone's narrow chart skips labels instead of overlapping them.
      { ...axis, values: (_u, splits) => splits.map((i) => (Number.isInteger(i) ? (model.labels[i] ?? '') : '')), space: Math.max(24, 7 * Math.max(0, ...model.labels.map((l) => l.length)) + 10) },
      { ...axis, size: 44, values: (_u, splits) => splits.map((v) => (Number.isInteger(v) ? String(v) : '')) },
    ],
    series: [
      { label: '' },
      ...model.series.map((s, i) => {
        const colour = seriesColour(palette, i);
        return kind === 'bars'
          ? { label: t(s.label), stroke: colour, fill: `${colour}cc`, paths: bars, points: { show: false } }
          : { label: t(s.label), stroke: colour, width: 2, points: { size: 5, fill: colour } };
      }),
    ],
    legend: { show: model.series.length > 1 },
    cursor: { drag: { x: false, y: false } },
  };
}

/**
 * A uPlot chart over categories, sized to its container (a ResizeObserver follows the layout, the phone width
 * included) and drawn in the theme's colours (redrawn when the theme changes). The numbers are also in a
 * visually hidden table, since a canvas says nothing to a screen reader.
 */
export function UplotChart({ model, kind = 'line', height = 260, name, testId }: UplotChartProps) {
  const t = useT();
  const box = useRef<HTMLDivElement>(null);
  const theme = useThemeStore((s) => s.theme);
  const lang = useLang((s) => s.lang);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const palette = paletteOf(theme);
    const data: uPlot.AlignedData = [model.labels.map((_, i) => i), ...model.series.map((s) => s.values)];
    const chart = new uPlot(options(model, kind, palette, Math.max(200, el.clientWidth), height, (k) => translate(k, undefined, lang)), data, el);
    const observer = new ResizeObserver(() => {
      const width = Math.max(200, el.clientWidth);
      if (width !== chart.width) chart.setSize({ width, height });
    });
    observer.observe(el);
    return () => {
      observer.disconnect();
      chart.destroy();
    };
    // Callers memoise `model`: a new one redraws the chart.
  }, [model, kind, height, theme, lang]);

  return (
    <figure className="ts-stats-chart" data-testid={testId} aria-label={t(name)}>
      <div ref={box} className="ts-stats-chart-canvas" />
      <table className="ts-visually-hidden" data-chart-table>
        <caption>{t(name)}</caption>
        <thead>
          <tr>
            <th />
            {model.series.map((s) => (
              <th key={s.label}>{t(s.label)}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {model.labels.map((label, i) => (
            <tr key={label} data-label={label}>
              <th>{label}</th>
              {model.series.map((s) => (
                <td key={s.label}>{s.values[i]}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
