/**
 * Growth figures as trend tags (spec doc 2 §2 "Home dashboard" month-over-month, §2 Record growth): the direction
 * decides the colour and arrow, the text is the signed figure. The server sends rates as fractions (0.25 = +25 %),
 * null when the earlier period had nothing to compare with — then no tag is shown.
 */
export type Direction = 'up' | 'down' | 'flat';

export interface TrendTag {
  direction: Direction;
  /** "+12.5%", "-3%", "0%"; a difference without the percent sign ("+4"). */
  text: string;
}

function tag(value: number, digits: number, suffix: string): TrendTag {
  const rounded = Number(value.toFixed(digits));
  if (rounded === 0) return { direction: 'flat', text: `0${suffix}` };
  return { direction: rounded > 0 ? 'up' : 'down', text: `${rounded > 0 ? '+' : ''}${rounded}${suffix}` };
}

/** A growth rate as a fraction (track_mom, album_mom, growth_rate, week_rate…) → a percent tag, one decimal. */
export function rateTag(fraction: number | null | undefined): TrendTag | null {
  if (typeof fraction !== 'number' || !Number.isFinite(fraction)) return null;
  return tag(fraction * 100, 1, '%');
}

/** A count difference (album_diff, artist_diff). */
export function diffTag(value: number | null | undefined): TrendTag | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  return tag(value, 0, '');
}

/** A fraction 0..1 as a percent with one decimal ("87.5%"), the scrape completeness. */
export const percentOf = (fraction: number | null | undefined): string => `${(Number.isFinite(Number(fraction)) ? Number(fraction) * 100 : 0).toFixed(1)}%`;
