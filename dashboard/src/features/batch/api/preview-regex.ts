import { apiCall } from '../../../lib/api-client.ts';
import { SECONDS } from '../../../lib/constants.ts';

export interface PreviewRegexResult {
  mode: string;
  /** replace_text: the sample after every rule. */
  text: string;
  /** split_filename: the fields the matching rule extracted. */
  fields: Record<string, string>;
  matched_rule: number;
  count: number;
}

/** POST /apimt/preview_regex/: what the split or replace rules do to a sample; '预览成功！' / '预览失败！' (§8). */
export async function previewRegex(body: {
  preview_text: string;
  mode: 'split_filename' | 'replace_text';
  rule_list: string[] | { before: string; after: string }[];
  replace_mode?: 'text' | 'regex';
}): Promise<PreviewRegexResult> {
  const env = await apiCall<PreviewRegexResult>('/apimt/preview_regex/', {
    body,
    onError: { title: '预览失败！', timeout: SECONDS.three },
    onSuccess: { title: '预览成功！', content: false, timeout: SECONDS.two },
  });
  return env.data;
}
