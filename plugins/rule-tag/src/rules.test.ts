import { describe, expect, it } from 'vitest';
import { cleanAnswer } from './ai.ts';
import { albumMajority, artistRule, parseRuleForm, splitArtists } from './rules.ts';

describe('rule-tag rules', () => {
  it('matches an artist rule on any artist of the track, folded, in tag order', () => {
    const form = parseRuleForm({ rule_form: { artistRules: [{ artist: 'BJÖRK', genre: 'Electronic' }, { artist: '周杰伦', genre: '流行' }] } });
    expect(artistRule(form, ['Nobody', 'björk'])?.genre).toBe('Electronic');
    expect(artistRule(form, ['周杰伦', 'Björk'])?.genre).toBe('流行');
    expect(artistRule(form, ['Nobody'])).toBeNull();
    expect(splitArtists('A feat. B / C、D')).toEqual(['A', 'B', 'C', 'D']);
  });

  it('takes the album majority only when one genre leads', () => {
    expect(albumMajority([['Pop', 2], ['Rock', 1]])).toEqual({ genre: 'Pop', count: 2 });
    expect(albumMajority([['Jazz', 1], ['Rock', 1]])).toBeNull();
    expect(albumMajority([])).toBeNull();
  });

  it('refuses a form without a rule and a rule without a genre', () => {
    expect(() => parseRuleForm({ rule_form: { artistRules: [] } })).toThrow(/gives no rule/);
    expect(() => parseRuleForm({ rule_form: { artistRules: [{ artist: 'x', genre: ' ' }] } })).toThrow(/artistRules\[0\] needs an artist and a genre/);
  });

  it('reads the model\'s answer as one genre name or nothing', () => {
    expect(cleanAnswer('Genre: Rock.')).toBe('Rock');
    expect(cleanAnswer('**摇滚**\nbecause…')).toBe('摇滚');
    expect(cleanAnswer('「流行」')).toBe('流行');
    expect(cleanAnswer('unknown')).toBeNull();
    expect(cleanAnswer('未知')).toBeNull();
    expect(cleanAnswer('This song mixes many styles, so it is hard to say')).toBeNull();
  });
});
