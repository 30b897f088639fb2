export { normaliseLrc, formatStamp, lyricLines } from './lrc.ts';
export { extractCredits, type LyricCredits } from './credits.ts';
