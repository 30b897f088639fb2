import { describe, expect, it } from 'vitest';
import { moveItem } from './move-item.ts';

describe('moveItem (a playlist row dragged to a new place)', () => {
  it('moves down and up the way updatePlaylistOrder stores it, leaving the input alone', () => {
    const list = ['a', 'b', 'c', 'd'];
    expect(moveItem(list, 0, 2)).toEqual(['b', 'c', 'a', 'd']);
    expect(moveItem(list, 3, 1)).toEqual(['a', 'd', 'b', 'c']);
    expect(moveItem(list, 1, 1)).toEqual(list);
    expect(list).toEqual(['a', 'b', 'c', 'd']);
  });

  it('ignores indexes outside the list', () => {
    expect(moveItem(['a', 'b'], 2, 0)).toEqual(['a', 'b']);
    expect(moveItem(['a', 'b'], 0, -1)).toEqual(['a', 'b']);
  });
});
