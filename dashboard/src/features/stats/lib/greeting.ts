/**
 * The home dashboard's welcome banner (spec doc 2 §2 "Home dashboard"): a greeting by the local time of day and a
 * welcome message picked at random. Texts are i18n keys.
 */

/** The greeting for an hour of the local day (0..23). */
export function greetingFor(hour: number): string {
  if (hour < 5) return '夜深了';
  if (hour < 9) return '早上好';
  if (hour < 12) return '上午好';
  if (hour < 14) return '中午好';
  if (hour < 18) return '下午好';
  return '晚上好';
}

export const WELCOME_MESSAGES = [
  '今天也要听点好音乐',
  '愿音乐陪你度过美好的一天',
  '整理好的音乐库，听起来更舒服',
  '来点新歌，换个心情',
  '每一首歌都值得一个好标签',
] as const;

/** One of WELCOME_MESSAGES; `random` is in [0, 1) like Math.random. */
export function welcomeMessage(random: number = Math.random()): string {
  const i = Math.min(WELCOME_MESSAGES.length - 1, Math.max(0, Math.floor(random * WELCOME_MESSAGES.length)));
  return WELCOME_MESSAGES[i];
}
