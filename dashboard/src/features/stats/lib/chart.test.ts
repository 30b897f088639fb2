import { describe, expect, it } from 'vitest';
import { clockChart, decadeTotals, genresChart, shares, trendChart } from './chart.ts';

describe('chart models', () => {
  it('draws the monthly trend as three series over the months, gaps as 0', () => {
    const m = trendChart({ x_axis: ['2026-01', '2026-02', '2026-03'], track: [5, 0, 7], album: [1, 2], artist: [1, 1, 1] });
    expect(m.labels).toEqual(['2026-01', '2026-02', '2026-03']);
    expect(m.series.map((s) => s.label)).toEqual(['歌曲', '专辑', '艺术家']);
    expect(m.series[1].values).toEqual([1, 2, 0]);
    expect(trendChart(undefined)).toEqual({ labels: [], series: [{ label: '歌曲', values: [] }, { label: '专辑', values: [] }, { label: '艺术家', values: [] }] });
  });

  it('draws one line per hot genre in the server order', () => {
    const m = genresChart({ genres: ['Rock', 'Pop'], date_list: ['2026-11-23', '2026-11-24'], daily_genres: { Rock: [3, 1], Pop: [0, 2] } });
    expect(m.series).toEqual([{ label: 'Rock', values: [3, 1] }, { label: 'Pop', values: [0, 2] }]);
  });

  it('sums each decade over the period', () => {
    expect(decadeTotals({ decades: ['1990s', '2000s'], daily_decades: { '1990s': [1, 2, 3], '2000s': [0, 1, 0] } })).toEqual([{ name: '1990s', value: 6 }, { name: '2000s', value: 1 }]);
  });

  it('always gives the clock 24 hours', () => {
    const hours = Array.from({ length: 24 }, (_, h) => (h === 21 ? 2 : 0));
    const m = clockChart({ listening_count: 2, hours });
    expect(m.labels).toHaveLength(24);
    expect(m.labels[21]).toBe('21');
    expect(m.series[0].values[21]).toBe(2);
    expect(clockChart(null).series[0].values).toEqual(new Array(24).fill(0));
  });

  it('measures bars against the largest value', () => {
    expect(shares([{ name: 'a', value: 4 }, { name: 'b', value: 1 }, { name: 'c', value: 0 }]).map((r) => r.share)).toEqual([100, 25, 0]);
    expect(shares([{ name: 'a', value: 0 }])[0].share).toBe(0);
  });
});
