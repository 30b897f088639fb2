import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';

/** POST /apimt/fetch_lyric/: a candidate's lyric as LRC ([mm:ss.xx]), '' when the source has none. */
export async function fetchLyric(songId: string, resource: string): Promise<string> {
  const env = await apiCall<string>('/apimt/fetch_lyric/', { body: { song_id: songId, resource }, onError: { title: '获取歌词失败！', timeout: SECONDS.three } });
  return typeof env.data === 'string' ? env.data : '';
}
