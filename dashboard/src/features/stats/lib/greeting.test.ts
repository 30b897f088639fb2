import { describe, expect, it } from 'vitest';
import { greetingFor, WELCOME_MESSAGES, welcomeMessage } from './greeting.ts';

describe('greetingFor', () => {
  it('greets by the local time of day', () => {
    expect([0, 4, 5, 8, 9, 11, 12, 13, 14, 17, 18, 23].map(greetingFor)).toEqual(['夜深了', '夜深了', '早上好', '早上好', '上午好', '上午好', '中午好', '中午好', '下午好', '下午好', '晚上好', '晚上好']);
  });
});

describe('welcomeMessage', () => {
  it('picks every message over [0, 1) and stays in range at the edges', () => {
    const n = WELCOME_MESSAGES.length;
    expect(new Set(Array.from({ length: n }, (_, i) => welcomeMessage((i + 0.5) / n))).size).toBe(n);
    expect(welcomeMessage(0)).toBe(WELCOME_MESSAGES[0]);
    expect(welcomeMessage(0.999999)).toBe(WELCOME_MESSAGES[n - 1]);
    expect(welcomeMessage(1)).toBe(WELCOME_MESSAGES[n - 1]);
  });
});
