import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';
import { DashboardError } from '../../../lib/errors.ts';
import { translate } from '../../../lib/i18n.ts';
import { notifyError } from '../../../lib/notify.ts';
import type { TaskCreated } from './types.ts';

/** Opens the operation log (wouter follows history.pushState). */
const openLog = () => history.pushState(null, '', '/log');

/**
 * Refusals the user can only fix elsewhere (a setting): shown even where the spec keeps failures silent, since an
 * edit that silently does nothing leaves the user no way to learn why.
 */
const ALWAYS_SHOWN = new Set(['TAGSONIC_ERR_LLM_NOT_CONFIGURED']);

/**
 * POST /apimt/<route>/ of a batch action (batch_update_id3, tidy_folder, replace_text…): the server
 * records a task and answers at once. Success: 创建成功！ (任务在后台努力运行中) with a button to /log;
 * failure: 创建失败！ with the server's message, 5 s — except the manual and auto edits, which show
 * nothing on failure (§8), except for the refusals in ALWAYS_SHOWN. `dry_run` asks for the list of changes instead (the answer's task holds it).
 */
export async function createBatchTask(route: string, payload: object, options: { silentFailure?: boolean; dryRun?: boolean } = {}): Promise<TaskCreated> {
  const env = await apiCall<TaskCreated | null>(`/apimt/${route}/`, {
    body: options.dryRun ? { ...payload, dry_run: true } : payload,
    onError: options.silentFailure ? false : FAILURE,
    onSuccess: options.dryRun
      ? undefined
      : { title: '创建成功！', content: '任务在后台努力运行中', timeout: SECONDS.five, action: { text: translate('查看操作记录'), onClick: openLog } },
  }).catch((error: unknown) => {
    if (options.silentFailure && error instanceof DashboardError && ALWAYS_SHOWN.has(error.code)) notifyError(translate(FAILURE.title), error.message, FAILURE.timeout);
    throw error;
  });
  return env.data ?? {};
}

const FAILURE = { title: '创建失败！', fallback: '创建失败', timeout: SECONDS.five };
