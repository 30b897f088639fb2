/**
 * The log API's shapes (spec doc 2 §3 "Audit log item", "Log detail", "Detail row"; §7 "Logs"), written out
 * here because the dashboard may not import server packages. Snake case as the wire carries it.
 */

export type AuditLevel = 'info' | 'warning' | 'error';

/** Task status (§4); the audit log may also carry another text, shown as it is. */
export type TaskStatus = 'running' | 'success' | 'fail' | 'miss' | 'stop';

/** One row of the operation log. */
export interface AuditLogItem {
  id: string;
  user: string;
  level: AuditLevel | string;
  /** The action's name, e.g. 替换文本. */
  action: string;
  extra: string;
  status: TaskStatus | string;
  created_at: string;
  /** The task behind the entry (absent for entries that are not tasks). */
  task_id?: string | null;
}

export interface AuditLogPage {
  items: AuditLogItem[];
  count: number;
}

/** One file change of a batch action (the SDK's BatchChange): in a dry run what would change. */
export interface ReportChange {
  path: string;
  kind: 'tags' | 'move' | 'copy' | 'delete' | 'create' | 'convert';
  field?: string;
  before: string | null;
  after: string | null;
}

/** One row of a report section. */
export interface DetailRow {
  id: string;
  name: string;
  /** null for an item that is not one file (a library scan's single item covers its roots). */
  path: string | null;
  title?: string | null;
  artist?: string | null;
  album?: string | null;
  reason?: string | null;
  /** The TAGSONIC_ERR_* code of a failure, so it can be said in the interface language. */
  error_code?: string | null;
  created_at?: string | null;
  /** mode_success: similarity summed over title, artist and album (0–3). */
  similar?: number | null;
  candidate_list?: unknown[];
  extra?: { raw_title?: string | null; raw_artist?: string | null; raw_album?: string | null } | null;
  changes?: ReportChange[];
  /** The item's own status (the list it is in says it too). */
  status?: string;
  [key: string]: unknown;
}

/** The report's lists, in the order the page shows them (§2 "Task report"; `stop`: items stopped before they ran). */
export const SECTION_KEYS = ['running', 'miss_tag', 'miss_artist', 'miss_album', 'miss_artist_album', 'fail', 'mode_success', 'success', 'skip', 'delete', 'stop'] as const;
export type SectionKey = (typeof SECTION_KEYS)[number];

export interface LogStatic {
  complete_count: number;
  total_count: number;
  complete_rate: number;
  success_count: number;
  fail_count: number;
  miss_count: number;
  skip_count?: number;
  stop_count?: number;
}

/**
 * getAuditLogDetail's answer: the task's card, its counts and each list (its first 10 rows, or the page asked
 * for) with `<list>_count`. `id` is the task's id.
 */
export type LogDetail = {
  id: string;
  name: string;
  created_at: string;
  status: TaskStatus | string;
  status_display: string;
  /** Seconds, or the server's own text. */
  run_time: number | string | null;
  complete_at: string | null;
  static: LogStatic;
  /** The action's machine kind, e.g. `action:replace-text`. */
  kind?: string;
  mode_name?: string | null;
  /** A dry run: its rows list the changes it would make; `apply_task` makes them as a new task. */
  dry_run?: boolean;
  /** The task that applied this dry run, once applied. */
  applied_task_id?: string | null;
  /** The dry run this task applies. */
  source_task_id?: string | null;
  /** The task's effects were undone. */
  undone?: boolean;
  progress?: { done: number; total: number; items_per_sec: number | null; eta_sec: number | null } | null;
} & { [K in SectionKey]?: DetailRow[] } & { [K in `${SectionKey}_count`]?: number } & Record<string, unknown>;

/** getRuntimeLog's answer (§3): the run log and the error log of one process. */
export interface RuntimeLog {
  log: string;
  fail_log: string;
}
