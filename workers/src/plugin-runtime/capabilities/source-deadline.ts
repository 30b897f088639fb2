/**
 * The per-source deadline of `sources.search` (smart_tag asks several sources at once and merges them): the
 * caller stops waiting for a source after `timeoutMs`, so one slow or congested source costs the merged search
 * that long at most, never the aggregator's whole wall-clock limit. The source is told the same budget, so a
 * request whose pacing turn would come later is refused as busy at once instead of waited for (../load.ts).
 * The source's invocation itself is not cut short: it ends under its own limits and its health records how it
 * really went (a source that answers in 7 s is slow for this caller, not broken).
 */
import { TagsonicError } from '@tagsonic/core/errors';
import { PLUGIN_ERROR_CODES, type HostCall } from '../../plugin-host/index.ts';

/**
 * Runs `search(budgetMs)` and rejects with `TAGSONIC_ERR_PLUGIN_TIMEOUT` when it has not answered within
 * `timeoutMs` or by the calling invocation's own deadline, whichever comes first (without `timeoutMs`, the
 * source may take as long as the caller's invocation may still run).
 */
export async function withSourceDeadline<T>(id: string, timeoutMs: number | undefined, call: Pick<HostCall, 'deadline'>, search: (budgetMs: number) => Promise<T>): Promise<T> {
  const budgetMs = Math.max(0, Math.min(timeoutMs ?? Infinity, call.deadline - performance.now()));
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new TagsonicError('unavailable', PLUGIN_ERROR_CODES.timeout,
      `${id} did not answer within ${Math.round(budgetMs / 100) / 10} s, so it was not waited for.`, { details: { source: id, timeoutMs: Math.round(budgetMs) } })), budgetMs);
  });
  const answer = search(budgetMs);
  answer.catch(() => {}); // after the deadline nobody awaits it
  try {
    return await Promise.race([answer, expired]);
  } finally {
    clearTimeout(timer);
  }
}
