import { describe, expect, it } from 'vitest';
import { diffTag, percentOf, rateTag } from './trend.ts';

describe('rateTag', () => {
  it('shows a fraction as a signed percent with its direction', () => {
    expect(rateTag(0.25)).toEqual({ direction: 'up', text: '+25%' });
    expect(rateTag(-0.5)).toEqual({ direction: 'down', text: '-50%' });
    expect(rateTag(0.12345)).toEqual({ direction: 'up', text: '+12.3%' });
    expect(rateTag(0)).toEqual({ direction: 'flat', text: '0%' });
    expect(rateTag(0.0001)).toEqual({ direction: 'flat', text: '0%' });
  });
  it('shows nothing when there was nothing to compare with (null)', () => {
    expect(rateTag(null)).toBeNull();
    expect(rateTag(undefined)).toBeNull();
    expect(rateTag(Number.NaN)).toBeNull();
  });
});

describe('diffTag and percentOf', () => {
  it('signs a count difference', () => {
    expect(diffTag(4)).toEqual({ direction: 'up', text: '+4' });
    expect(diffTag(-2)).toEqual({ direction: 'down', text: '-2' });
    expect(diffTag(0)).toEqual({ direction: 'flat', text: '0' });
  });
  it('prints the completeness fraction as a percent', () => {
    expect(percentOf(0.875)).toBe('87.5%');
    expect(percentOf(1)).toBe('100.0%');
    expect(percentOf(0)).toBe('0.0%');
  });
});
