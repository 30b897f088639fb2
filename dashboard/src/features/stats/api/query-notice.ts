import { SECONDS } from '../../../lib/constants.ts';
import type { NoticeSpec } from '../../../lib/api-client.ts';

/** A statistics read that fails says 查询失败！ with the server's words (spec doc 2 §8 "Search failure"), 5 s. */
export const QUERY_FAILED: NoticeSpec = { title: '查询失败！', timeout: SECONDS.five, silentStatuses: [401] };
