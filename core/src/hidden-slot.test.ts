import { describe, expect, it } from 'vitest';
import { hiddenSlot } from './hidden-slot.ts';

describe('hiddenSlot', () => {
  it('attaches a value that spreads, JSON and key listings do not see', () => {
    const slot = hiddenSlot<{ rev: number }>();
    const other = hiddenSlot<string>();
    const item = { id: 'a', n: 1 };
    expect(slot.set(item, { rev: 1 })).toBe(item);
    expect(slot.get(item)).toEqual({ rev: 1 });
    expect(other.get(item)).toBeUndefined();
    expect(JSON.stringify(item)).toBe('{"id":"a","n":1}');
    expect(Object.keys(item)).toEqual(['id', 'n']);
    expect(Reflect.ownKeys(item)).toEqual(['id', 'n']);
    const copy = { ...item };
    expect(slot.get(copy)).toBeUndefined();
    slot.set(item, { rev: 2 });
    expect(slot.get(item)).toEqual({ rev: 2 });
    expect(slot.get({})).toBeUndefined();
  });
});
