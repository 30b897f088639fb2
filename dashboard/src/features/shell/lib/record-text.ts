/**
 * A bell record in the interface language. The server's `title`/`content` are the spec's Chinese texts
 * with its English error inside; the record also carries them as data (action, counts, first failed file,
 * its error code), so both languages are worded here, the error through the server-message catalogue.
 */
import { translate, type Lang } from '../../../lib/i18n.ts';
import { serverMessage } from '../../../lib/server-messages.ts';
import type { FailedRecord } from '../api/get-failed-records.ts';

export function recordText(r: FailedRecord, lang: Lang): { title: string; content: string } {
  // Action names are the spec's Chinese (手动修改); one without an English entry stays as it is.
  const title = translate('{action} 失败', { action: translate(r.action, undefined, lang) }, lang);
  // English counts the total: "1 of 1 file failed", "2 of 5 files failed".
  const counts = translate('{n} 个文件失败（共 {total} 个）', { n: r.failed_count, total: r.total }, lang);
  const reason = r.error === null && r.error_code === null ? '' : serverMessage(r.error_code ?? undefined, r.error ?? '', lang);
  const detail = [r.path, reason].filter(Boolean).join(': ');
  return { title, content: detail ? translate('{counts}：{detail}', { counts, detail }, lang) : counts };
}
