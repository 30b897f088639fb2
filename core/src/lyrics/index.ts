// The LRC rules live in the SDK so that plugins (which can import only the SDK) and the host normalise alike.
export { normaliseLrc, formatStamp, lyricLines } from '@tagsonic/sdk';
export { extractCredits, type LyricCredits } from './credits.ts';
