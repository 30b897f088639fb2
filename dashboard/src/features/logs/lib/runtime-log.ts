/** The runtime log's fixed values (spec doc 2 §2 "Log page", §5, §9). */

/** One tab per process, named as getRuntimeLog's `type` takes them. */
export const PROCESS_TABS = ['gunicorn', 'nginx', 'beat', 'worker', 'redis', 'xiaoai'] as const;
export type ProcessTab = (typeof PROCESS_TABS)[number];

export const POLL_DEFAULT_S = 5;
export const POLL_MIN_S = 1;
export const POLL_MAX_S = 60;

/** The poll interval from the input: whole seconds within 1–60; unreadable input keeps the default. */
export function pollSeconds(value: number | string): number {
  const n = typeof value === 'number' ? value : Number(String(value).trim());
  if (!Number.isFinite(n)) return POLL_DEFAULT_S;
  return Math.min(POLL_MAX_S, Math.max(POLL_MIN_S, Math.round(n)));
}

/** A feedback reason needs at least 20 characters (§5, §9); shorter is refused before anything is sent. */
export const FEEDBACK_MIN_CHARS = 20;

/** Characters as a person counts them: a Chinese character or an emoji is one, surrounding blanks are none. */
export const feedbackLength = (reason: string): number => [...reason.trim()].length;
export const feedbackLongEnough = (reason: string): boolean => feedbackLength(reason) >= FEEDBACK_MIN_CHARS;
