import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';

/** POST /apimt/translation_lyc/: the lyric translated by the configured LLM, with the same timestamps. */
export async function translationLyc(lyc: string): Promise<string> {
  const env = await apiCall<string>('/apimt/translation_lyc/', { body: { lyc }, onError: { title: '翻译失败！', timeout: SECONDS.five } });
  return typeof env.data === 'string' ? env.data : '';
}
