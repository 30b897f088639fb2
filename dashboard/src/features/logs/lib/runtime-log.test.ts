import { describe, expect, it } from 'vitest';
import { feedbackLength, feedbackLongEnough, pollSeconds, PROCESS_TABS } from './runtime-log.ts';

describe('runtime log', () => {
  it('has one tab per process of the spec', () => {
    expect(PROCESS_TABS).toEqual(['gunicorn', 'nginx', 'beat', 'worker', 'redis', 'xiaoai']);
  });

  it('keeps the poll interval within 1–60 s, default 5', () => {
    expect(pollSeconds(0)).toBe(1);
    expect(pollSeconds(61)).toBe(60);
    expect(pollSeconds('7')).toBe(7);
    expect(pollSeconds('x')).toBe(5);
    expect(pollSeconds(2.6)).toBe(3);
  });

  it('needs 20 characters of feedback, counted as a person counts them', () => {
    expect(feedbackLongEnough('太短了')).toBe(false);
    expect(feedbackLength('一二三四五六七八九十一二三四五六七八九十')).toBe(20);
    expect(feedbackLongEnough('一二三四五六七八九十一二三四五六七八九十')).toBe(true);
    expect(feedbackLongEnough('   一二三四五六七八九十一二三四五六七八九   ')).toBe(false);
    expect(feedbackLength('🎵🎵')).toBe(2);
  });
});
