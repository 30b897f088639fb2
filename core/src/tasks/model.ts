/** The documents of tasks, their items and the audit log; states and transitions are in README.md. */

/** Task status from the spec: running, success, fail, miss, stop. */
export type TaskStatus = 'running' | 'success' | 'fail' | 'miss' | 'stop';
/** Item status: waiting in the queue, being worked on, or one of the report outcomes. */
export type ItemStatus = 'pending' | 'running' | 'success' | 'fail' | 'miss' | 'skip' | 'stop';

export interface TaskDoc {
  _id: string;
  /** Machine kind, e.g. `tags.write`. */
  kind: string;
  /** The action name shown in the operation log, e.g. 手动修改. */
  action: string;
  actor: string;
  status: TaskStatus;
  total: number;
  counts: Record<'success' | 'fail' | 'miss' | 'skip' | 'stop', number>;
  createdAt: Date;
  completedAt: Date | null;
  /** The process holding the task's queue (its creator, or the process that settled it); see leases.ts. */
  owner?: string | null;
  /** The bus subject of its commands, so a settle can queue them again. */
  subject?: string;
  /** Set while a process settles the task after a crash: workers leave its items alone meanwhile. */
  settling?: string | null;
  [key: string]: unknown;
}

export interface TaskItemDoc {
  _id: string;
  taskId: string;
  /** Sequence inside the task, for stable report order. */
  seq: number;
  path: string | null;
  status: ItemStatus;
  payload: Record<string, unknown>;
  error: string | null;
  /**
   * The TAGSONIC_ERR_* code of a failure that was a TagsonicError (else null), so the dashboard can say
   * it in the interface language; `error` keeps the server's English text for logs and API users.
   * Absent on items stored before it existed.
   */
  errorCode?: string | null;
  result: Record<string, unknown> | null;
  attempts: number;
  /** True when the bus gave up delivering it (dead letter). */
  dead: boolean;
  /** The process working on it while `running`. */
  owner?: string | null;
  updatedAt: Date;
  [key: string]: unknown;
}

export interface AuditLogDoc {
  _id: string;
  taskId: string | null;
  user: string;
  level: 'info' | 'warning' | 'error';
  action: string;
  extra: string;
  status: TaskStatus | string;
  createdAt: Date;
  [key: string]: unknown;
}

export interface ItemOutcome {
  status: Exclude<ItemStatus, 'pending' | 'running'>;
  error?: string;
  /** TagsonicError.code of the failure, when it was one (see TaskItemDoc.errorCode). */
  errorCode?: string | null;
  result?: Record<string, unknown>;
  dead?: boolean;
}

export interface TaskProgress {
  taskId: string;
  status: TaskStatus;
  total: number;
  done: number;
  counts: TaskDoc['counts'];
  /** Items finished per second since the task started (absent on events of a settle). */
  items_per_sec?: number;
  /** Seconds left at that pace; null before the first item finished. */
  eta_sec?: number | null;
}
