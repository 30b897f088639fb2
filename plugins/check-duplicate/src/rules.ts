/**
 * The duplicate-delete rules (doc 2 "Duplicate-delete rules": sizeRule, formatPriority, nameRule, bitrateRule,
 * sampleRule, metadataRule, deleteMode, targetDir) and which file of a group stays. Each rule says which file
 * GOES — `larger` or `smaller` (`none`: not compared) — and they are tried in order until one tells two files
 * apart: format priority (a format earlier in the list stays; unlisted formats rank last), size, bitrate, sample
 * rate, metadata (how many tags are filled), name length. All equal: the first in path order stays. Spec defaults:
 * size smaller, format priority [flac, mp3], name larger, bitrate none, sample none; deleteMode direct.
 */
import { PluginError, type JsonValue } from '@tagsonic/sdk';
import { stemOf } from './groups.ts';

export type Rule = 'larger' | 'smaller' | 'none';
export interface DeleteRules {
  formatPriority: string[];
  size: Rule;
  bitrate: Rule;
  sample: Rule;
  metadata: Rule;
  name: Rule;
  /** `direct`: deleted; `move`: moved into `targetDir`. */
  mode: 'direct' | 'move';
  targetDir: string | null;
}

/** What the rules compare; bitrate, sample rate and the tag count only when a rule asks for them. */
export interface FileFacts {
  path: string;
  size: number;
  bitrate?: number;
  sampleRate?: number;
  tagCount?: number;
}

const RULES: readonly string[] = ['larger', 'smaller', 'none'];
const invalid = (message: string) => new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', message);

export function parseDeleteRules(raw: JsonValue | undefined): DeleteRules {
  const form = raw ?? {};
  if (typeof form !== 'object' || form === null || Array.isArray(form)) throw invalid('rules must be an object');
  const rule = (key: string, fallback: Rule): Rule => {
    const value = form[key] ?? fallback;
    if (typeof value !== 'string' || !RULES.includes(value)) throw invalid(`rules.${key} must be larger, smaller or none`);
    return value as Rule;
  };
  const priority = form.formatPriority ?? ['flac', 'mp3'];
  if (!Array.isArray(priority) || priority.some((f) => typeof f !== 'string')) throw invalid('rules.formatPriority must be a list of formats');
  const mode = form.deleteMode ?? 'direct';
  if (mode !== 'direct' && mode !== 'move') throw invalid('rules.deleteMode must be direct or move');
  const targetDir = typeof form.targetDir === 'string' && form.targetDir.trim() ? form.targetDir.trim().replace(/\/+$/, '') : null;
  if (mode === 'move' && !targetDir) throw invalid('rules.targetDir: choose the folder the duplicates are moved to');
  if (targetDir?.split('/').includes('..')) throw invalid('rules.targetDir may not contain ".."');
  return {
    formatPriority: (priority as string[]).map((f) => f.toLowerCase().replace(/^\./, '')),
    size: rule('sizeRule', 'smaller'),
    bitrate: rule('bitrateRule', 'none'),
    sample: rule('sampleRule', 'none'),
    metadata: rule('metadataRule', 'none'),
    name: rule('nameRule', 'larger'),
    mode,
    targetDir,
  };
}

const formatOf = (p: string): string => {
  const base = p.slice(p.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
};

/** Which of two files goes, by the rules in order; null when they tie on every rule. */
export function loserOf(a: FileFacts, b: FileFacts, rules: DeleteRules): FileFacts | null {
  const rank = (f: FileFacts) => {
    const i = rules.formatPriority.indexOf(formatOf(f.path));
    return i < 0 ? rules.formatPriority.length : i;
  };
  if (rank(a) !== rank(b)) return rank(a) > rank(b) ? a : b;
  const byRule = (rule: Rule, x: number | undefined, y: number | undefined): FileFacts | null => {
    if (rule === 'none' || x === undefined || y === undefined || x === y) return null;
    return (rule === 'larger') === x > y ? a : b;
  };
  return byRule(rules.size, a.size, b.size)
    ?? byRule(rules.bitrate, a.bitrate, b.bitrate)
    ?? byRule(rules.sample, a.sampleRate, b.sampleRate)
    ?? byRule(rules.metadata, a.tagCount, b.tagCount)
    ?? byRule(rules.name, [...stemOf(a.path)].length, [...stemOf(b.path)].length);
}

/** The file of a group that stays: each file against the current keeper; ties keep the earlier (path order). */
export function keeperOf(files: FileFacts[], rules: DeleteRules): FileFacts {
  const sorted = [...files].sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
  let keeper = sorted[0]!;
  for (const f of sorted.slice(1)) if (loserOf(keeper, f, rules) === keeper) keeper = f;
  return keeper;
}
