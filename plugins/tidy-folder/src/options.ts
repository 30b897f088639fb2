/**
 * The tidyFolder payload (doc 1 §7: root_path, dir_list, rule_form — see clean.ts) checked once, in `plan`, so a bad dialog is
 * refused when the task is created rather than failing every item; `runItem` parses the same options again
 * (items may run on another worker) and gets the same answer.
 */
import { PluginError, type JsonValue } from '@tagsonic/sdk';
import { parseCleanRules, type CleanRules } from './clean.ts';
import { checkTemplate, DIMENSIONS, type Dimension } from './template.ts';

export interface Level { value: Dimension; value2?: string }
export interface TidyOptions {
  /** The tidy root, a full path inside the media roots, without a trailing slash. */
  root: string;
  levels: Level[];
  /** A `${var}` template for the file name (the extension is kept); absent: the file keeps its name. */
  fileName: string | null;
  /** rule_form with is_clean_music: which of two copies of a song in one folder goes; null: no cleaning. */
  clean: CleanRules | null;
}

/** The spec's default levels: artist, then album (doc 1 §9 "Tidy"). */
export const DEFAULT_LEVELS: Level[] = [{ value: 'artist' }, { value: 'album' }];
const MAX_LEVELS = 10;

const invalid = (message: string) => new PluginError('TAGSONIC_ERR_PLUGIN_INVALID', message);

export function parseOptions(options: Record<string, JsonValue>): TidyOptions {
  const rootRaw = options.root_path;
  if (typeof rootRaw !== 'string' || rootRaw.trim() === '') throw invalid('root_path: choose the folder to tidy into');
  const root = rootRaw.trim().replace(/\/+$/, '') || '/';
  // Targets are compared with the host's full paths (a track already in place stays put), so the root is one too.
  if (!root.startsWith('/')) throw invalid('root_path must be a full path (/…) inside the media folders');
  if (root.split('/').some((segment) => segment === '..')) throw invalid('root_path may not contain ".."');

  const rawLevels = options.dir_list ?? null;
  if (rawLevels !== null && !Array.isArray(rawLevels)) throw invalid('dir_list must be a list of levels');
  const levels: Level[] = [];
  for (const [i, raw] of (rawLevels ?? []).entries()) {
    const entry = typeof raw === 'string' ? { value: raw } : raw;
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) throw invalid(`dir_list[${i}] must be { value, value2 }`);
    const value = entry.value;
    if (typeof value !== 'string' || !(DIMENSIONS as readonly string[]).includes(value)) {
      throw invalid(`dir_list[${i}].value must be one of ${DIMENSIONS.join(', ')}`);
    }
    const level: Level = { value: value as Dimension };
    if (value === 'custom') {
      if (typeof entry.value2 !== 'string' || entry.value2.trim() === '') throw invalid(`dir_list[${i}]: a custom level needs value2 (text or a \${var} template)`);
      const problem = checkTemplate(entry.value2);
      if (problem) throw invalid(`dir_list[${i}].value2: ${problem}`);
      level.value2 = entry.value2;
    }
    levels.push(level);
  }
  if (levels.length > MAX_LEVELS) throw invalid(`dir_list has more than ${MAX_LEVELS} levels`);

  let fileName: string | null = null;
  if (typeof options.file_name === 'string' && options.file_name.trim() !== '') {
    const problem = checkTemplate(options.file_name);
    if (problem) throw invalid(`file_name: ${problem}`);
    fileName = options.file_name.trim();
  }

  return { root, levels: rawLevels === null ? DEFAULT_LEVELS : levels, fileName, clean: parseCleanRules(options.rule_form) };
}
