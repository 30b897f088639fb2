/**
 * Score colouring of candidate cells (§2): 1 (contained) yellow, 2 (exact) grey, 0 (no match) red, any
 * other value (−2: the file's artist disagrees, or no score) plain. The class names carry the meaning; the
 * colours live in scrape.css so both light and dark themes stay readable.
 */

export type ScoreTone = 'partial' | 'exact' | 'miss' | 'plain';

export function scoreTone(score: number | null | undefined): ScoreTone {
  if (score === 1) return 'partial';
  if (score === 2) return 'exact';
  if (score === 0) return 'miss';
  return 'plain';
}

/** The tooltip that says what a cell's colour means. */
export const SCORE_HINT: Record<ScoreTone, string> = {
  exact: '完全匹配',
  partial: '部分匹配',
  miss: '不匹配',
  plain: '',
};
