/** `replace_text_list` and `replace_mode` of the replaceText payload, checked before any file is read. */
import { PluginError, type JsonValue } from '@tagsonic/sdk';

export interface ReplaceRule { before: string; after: string }

/** The host's limits (`text.replace`): 50 rules, patterns and replacements up to 1000 characters. */
const MAX_RULES = 50;
const MAX_CHARS = 1000;

export function rulesOf(value: JsonValue | undefined): ReplaceRule[] {
  if (!Array.isArray(value) || value.length === 0) throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', 'replace_text_list must list at least one {before, after}');
  if (value.length > MAX_RULES) throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', `replace_text_list has more than ${MAX_RULES} rules`);
  return value.map((rule, i) => {
    const { before, after } = (rule !== null && typeof rule === 'object' && !Array.isArray(rule) ? rule : {}) as Record<string, JsonValue>;
    // A missing `after` (a cleared input) means "remove": the dialog's empty field.
    if (typeof before !== 'string' || (after !== undefined && after !== null && typeof after !== 'string')) {
      throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', `replace_text_list[${i}] must be {before, after} with text values`);
    }
    if (before === '') throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', `replace_text_list[${i}].before is empty: say what to replace`);
    const replacement = typeof after === 'string' ? after : '';
    if (before.length > MAX_CHARS || replacement.length > MAX_CHARS) throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', `replace_text_list[${i}] is longer than ${MAX_CHARS} characters`);
    return { before, after: replacement };
  });
}

export function modeOf(value: JsonValue | undefined): 'text' | 'regex' {
  if (value === undefined || value === null || value === 'text') return 'text';
  if (value === 'regex') return 'regex';
  throw new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', 'replace_mode must be text or regex');
}
