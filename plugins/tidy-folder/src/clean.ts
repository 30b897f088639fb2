/**
 * 清理音乐 (rule_form.is_clean_music) while tidying: when a track arrives in a folder that already holds the same
 * song (one name up to the extension and a ` (n)` copy number, case and width folded), one of the two is kept and
 * the other deleted or moved aside. The rules say which one GOES, tried in order until one tells them apart:
 * format priority (a format earlier in `clean_format_priority` is kept; unlisted formats rank last), then size,
 * bitrate, sample rate and name length, each `larger` / `smaller` (that one goes) or `none`. All equal: the file
 * already there stays. Spec defaults (doc 1 §9): priority flac then mp3, size `smaller`, the rest `none`, delete.
 */
import { PluginError, type JsonValue } from '@tagsonic/sdk';
import { stemOf } from './names.ts';

export type Rule = 'larger' | 'smaller' | 'none';
export interface CleanRules {
  formatPriority: string[];
  size: Rule;
  bitrate: Rule;
  sample: Rule;
  name: Rule;
  /** `delete`, or `move` into `targetDir` (default `<root>/重复音乐`). */
  action: 'delete' | 'move';
  targetDir: string | null;
}

/** What the rules compare of one file. `bitrate`/`sampleRate` only when a rule asks for them (ffprobe). */
export interface Facts {
  path: string;
  /** Where the bytes are now, when that is not `path` yet (a dry run's planned move). */
  real?: string;
  name: string;
  size: number;
  bitrate?: number;
  sampleRate?: number;
}

const invalid = (message: string) => new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', message);
const RULES: readonly Rule[] = ['larger', 'smaller', 'none'];

function ruleOf(form: Record<string, JsonValue>, key: string, fallback: Rule): Rule {
  const value = form[key] ?? fallback;
  if (typeof value !== 'string' || !(RULES as readonly string[]).includes(value)) throw invalid(`rule_form.${key} must be larger, smaller or none`);
  return value as Rule;
}

export function parseCleanRules(raw: JsonValue | undefined): CleanRules | null {
  if (raw === null || raw === undefined) return null;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw invalid('rule_form must be an object');
  if (raw.is_clean_music !== true) return null;
  const priority = raw.clean_format_priority ?? ['flac', 'mp3'];
  if (!Array.isArray(priority) || priority.some((f) => typeof f !== 'string')) throw invalid('rule_form.clean_format_priority must be a list of formats');
  const action = raw.clean_delete_rule ?? 'delete';
  if (action !== 'delete' && action !== 'move') throw invalid('rule_form.clean_delete_rule must be delete or move');
  const targetDir = raw.clean_target_dir;
  if (targetDir !== undefined && targetDir !== null && (typeof targetDir !== 'string' || targetDir.split('/').includes('..'))) {
    throw invalid('rule_form.clean_target_dir must be a folder inside the media folders');
  }
  return {
    formatPriority: (priority as string[]).map((f) => f.toLowerCase().replace(/^\./, '')),
    size: ruleOf(raw, 'clean_size_rule', 'smaller'),
    bitrate: ruleOf(raw, 'clean_bitrate_rule', 'none'),
    sample: ruleOf(raw, 'clean_sample_rule', 'none'),
    name: ruleOf(raw, 'clean_name_rule', 'none'),
    action,
    targetDir: typeof targetDir === 'string' && targetDir.trim() ? targetDir.trim().replace(/\/+$/, '') : null,
  };
}

/** One song's key in a folder: `晴天.flac`, `晴天 (2).mp3` and `ＳＵＮＮＹ.flac`/`sunny.ogg` pair up. */
export function songIdentity(name: string): string {
  return stemOf(name).normalize('NFKC').replace(/\s*[(（]\d{1,3}[)）]$/u, '').trim().toLowerCase();
}

const formatOf = (name: string): string => {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
};

/** Which of the two goes: `'arriving'` or `'present'`. */
export function loserOf(arriving: Facts, present: Facts, rules: CleanRules): 'arriving' | 'present' {
  const rank = (f: Facts) => {
    const i = rules.formatPriority.indexOf(formatOf(f.name));
    return i < 0 ? rules.formatPriority.length : i;
  };
  if (rank(arriving) !== rank(present)) return rank(arriving) > rank(present) ? 'arriving' : 'present';
  const byRule = (rule: Rule, a: number | undefined, p: number | undefined): 'arriving' | 'present' | null => {
    if (rule === 'none' || a === undefined || p === undefined || a === p) return null;
    const arrivingLarger = a > p;
    return (rule === 'larger') === arrivingLarger ? 'arriving' : 'present';
  };
  return byRule(rules.size, arriving.size, present.size)
    ?? byRule(rules.bitrate, arriving.bitrate, present.bitrate)
    ?? byRule(rules.sample, arriving.sampleRate, present.sampleRate)
    ?? byRule(rules.name, [...stemOf(arriving.name)].length, [...stemOf(present.name)].length)
    ?? 'arriving';
}
