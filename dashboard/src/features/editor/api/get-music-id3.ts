import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';
import type { MusicInfo } from './types.ts';

/** POST /apimt/music_id3/: every field of one file, plus its play preview URL and newest undoable write. */
export async function getMusicId3(filePath: string, signal?: AbortSignal): Promise<MusicInfo> {
  return (await apiCall<MusicInfo>('/apimt/music_id3/', { body: { file_path: filePath }, signal, onError: { title: '修改失败！', timeout: SECONDS.five } })).data;
}
