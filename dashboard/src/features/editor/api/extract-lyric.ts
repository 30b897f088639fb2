import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';
import type { LyricCredits } from './types.ts';

/** POST /apimt/extract_lyric/: composer and lyricist from a lyric's header lines (作词/作曲/Lyrics by…). */
export async function extractLyric(lyc: string): Promise<LyricCredits> {
  const env = await apiCall<LyricCredits>('/apimt/extract_lyric/', { body: { lyc }, onError: { title: '获取歌词失败！', timeout: SECONDS.three } });
  return { composer: env.data?.composer ?? '', lyricist: env.data?.lyricist ?? '' };
}
