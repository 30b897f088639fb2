import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';

/** POST /apimt/get_image/: an image file (or an audio file's cover) as base64 JPEG. */
export async function getImage(filePath: string, signal?: AbortSignal): Promise<{ src: string; width: number; height: number; size: number }> {
  const env = await apiCall<{ image_data: string; mime: string; width: number; height: number; size: number }>('/apimt/get_image/', {
    body: { file_path: filePath },
    signal,
    onError: { title: '图片加载失败', timeout: SECONDS.three },
  });
  const d = env.data;
  return { src: `data:${d.mime || 'image/jpeg'};base64,${d.image_data}`, width: d.width, height: d.height, size: d.size };
}
