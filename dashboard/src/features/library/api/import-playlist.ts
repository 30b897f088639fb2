import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';

export interface ImportReport {
  id: string;
  name: string;
  matched: number;
  /** Entries that named no library file, with their line in the file. */
  unmatched: { line: number; entry: string }[];
}

/**
 * POST /apimt/import_playlist/ (multipart `file`, an m3u/m3u8): '导入成功！' or '导入失败！' with the server's message.
 * The success notice is the caller's, since it lists the unmatched lines.
 */
export async function importPlaylist(file: File): Promise<ImportReport> {
  const form = new FormData();
  form.append('file', file);
  const env = await apiCall<ImportReport>('/apimt/import_playlist/', { body: form, onError: { title: '导入失败！', timeout: SECONDS.five } });
  return env.data;
}
