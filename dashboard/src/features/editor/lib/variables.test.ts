import { describe, expect, it } from 'vitest';
import { TEMPLATE_VARIABLES } from '../../../lib/constants.ts';
import { applyVariable, variableSuggestions } from './variables.ts';

describe('$ variable suggestions', () => {
  it('a value ending in $ offers every variable of §5', () => {
    expect(variableSuggestions('Live at $')).toEqual([...TEMPLATE_VARIABLES]);
    expect(variableSuggestions('${')).toEqual([...TEMPLATE_VARIABLES]);
  });

  it('narrows while typing and stops when nothing matches or the reference is closed', () => {
    expect(variableSuggestions('$first')).toEqual(['first_artist', 'first_artist_letter']);
    expect(variableSuggestions('${parent')).toEqual(['parent_path', 'parent_parent_path']);
    expect(variableSuggestions('$nope')).toBeNull();
    expect(variableSuggestions('${title}')).toBeNull();
    expect(variableSuggestions('plain text')).toBeNull();
  });

  it('inserts the chosen variable in place of the trailing reference', () => {
    expect(applyVariable('Live at $', 'album')).toBe('Live at ${album}');
    expect(applyVariable('${art', 'artist')).toBe('${artist}');
    expect(applyVariable('${title} - $fi', 'first_artist')).toBe('${title} - ${first_artist}');
  });
});
