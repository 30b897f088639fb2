/**
 * The duplicate-check report (spec doc 2 §2: "For a 重复检查 task a duplicate-check detail is shown"): the
 * check's items each report their duplicates as rows (name, file 1, file 2) and groups of identical files,
 * under one of three kinds; the page shows one section per kind, 10 rows a page.
 */
import type { DetailRow } from '../api/types.ts';

export const DUPLICATE_KINDS = ['hash', 'name', 'acoustid'] as const;
export type DuplicateKind = (typeof DUPLICATE_KINDS)[number];

export const DUPLICATE_TITLES: Record<DuplicateKind, string> = { hash: '文件哈希重复', name: '文件名重复', acoustid: '声纹重复' };

/** The check's machine kind: its report is the duplicate-check detail. */
export const DUPLICATE_TASK_KIND = 'action:check-duplicate';

export interface DuplicateRow {
  name: string;
  file_1: string;
  file_2: string;
}

export interface DuplicateSection {
  kind: DuplicateKind;
  rows: DuplicateRow[];
  /** Sets of files that are one another's duplicates (what rule-delete keeps one of). */
  groups: string[][];
}

const isRow = (v: unknown): v is DuplicateRow =>
  !!v && typeof v === 'object' && typeof (v as DuplicateRow).file_1 === 'string' && typeof (v as DuplicateRow).file_2 === 'string';

/** The sections with at least one row, in the spec's order, from the check's successful items. */
export function duplicateSections(items: DetailRow[]): DuplicateSection[] {
  const by = new Map<DuplicateKind, DuplicateSection>(DUPLICATE_KINDS.map((k) => [k, { kind: k, rows: [], groups: [] }]));
  for (const item of items) {
    const report = item.report as { section?: unknown; rows?: unknown; groups?: unknown } | null | undefined;
    const section = report && by.get(report.section as DuplicateKind);
    if (!section) continue;
    if (Array.isArray(report.rows)) section.rows.push(...report.rows.filter(isRow).map((r) => ({ name: String(r.name ?? ''), file_1: r.file_1, file_2: r.file_2 })));
    if (Array.isArray(report.groups)) {
      for (const g of report.groups as Array<{ files?: unknown }>) {
        const files = Array.isArray(g?.files) ? g.files.filter((f): f is string => typeof f === 'string') : [];
        if (files.length > 1) section.groups.push(files);
      }
    }
  }
  return DUPLICATE_KINDS.map((k) => by.get(k)!).filter((s) => s.rows.length > 0);
}

/**
 * 全部删除 of a section: every duplicate goes and the first file of each set (file 1 of its rows) stays. A file
 * that is file 1 somewhere is never deleted, even if it is file 2 of another row (sets that share a file).
 */
export function deleteAllPaths(section: DuplicateSection): string[] {
  const keep = new Set(section.rows.map((r) => r.file_1));
  return [...new Set(section.rows.map((r) => r.file_2))].filter((p) => !keep.has(p));
}

/** The duplicate-delete rules form (spec doc 2 §3 "Duplicate-delete rules"), with the spec's defaults. */
export type RuleValue = 'larger' | 'smaller' | 'none';
export interface DeleteRulesForm {
  sizeRule: RuleValue;
  formatPriority: string[];
  nameRule: RuleValue;
  bitrateRule: RuleValue;
  sampleRule: RuleValue;
  metadataRule: RuleValue;
  deleteMode: 'direct' | 'move';
  targetDir: string;
}

export const RULE_VALUES: RuleValue[] = ['larger', 'smaller', 'none'];
export const RULE_FORMATS = ['mp3', 'wav', 'flac', 'wma', 'ogg'] as const;

export const DEFAULT_DELETE_RULES: DeleteRulesForm = {
  sizeRule: 'smaller',
  formatPriority: ['flac', 'mp3'],
  nameRule: 'larger',
  bitrateRule: 'none',
  sampleRule: 'none',
  metadataRule: 'none',
  deleteMode: 'direct',
  targetDir: '',
};

/** The form as the action takes it: no target folder unless duplicates are moved. */
export function rulesPayload(form: DeleteRulesForm): Record<string, unknown> {
  const { targetDir, ...rest } = form;
  return form.deleteMode === 'move' ? { ...rest, targetDir: targetDir.trim() } : rest;
}
