import { Type } from 'typebox';
import { Envelope, NullableString } from './common.ts';

const TaskId = Type.String({ minLength: 1, maxLength: 64 });
/** Query strings are not coerced (the app's Ajv has coerceTypes off): a positive number as digits. */
const Digits = Type.String({ pattern: '^[1-9][0-9]{0,6}$' });

/**
 * A batch action's payload (spec doc 1 §7): the selection (`file_full_path`, `select_data`), the action's own
 * fields — checked by the action itself, so they pass through — and optionally `dry_run` and `depth`.
 */
export const ActionRequest = Type.Object(
  {
    file_full_path: Type.Optional(Type.String({ maxLength: 4096 })),
    select_data: Type.Optional(Type.Array(Type.Union([
      Type.String({ minLength: 1, maxLength: 4096 }),
      Type.Object({ name: Type.String({ minLength: 1, maxLength: 4096 }) }, { additionalProperties: true }),
    ]), { maxItems: 100_000 })),
    dry_run: Type.Optional(Type.Boolean()),
    /** The file list's depth rule for selected folders: 1 = the files directly inside, -1 (default) = all. */
    depth: Type.Optional(Type.Union([Type.Literal(1), Type.Literal(-1)])),
  },
  { additionalProperties: true },
);

/** run_action: an installed batch action by id (an upload from /actionMod), with the same payload. */
export const RunActionRequest = Type.Intersect([
  Type.Object({ plugin_id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: true }),
  ActionRequest,
]);

export const TaskCreatedResponse = Envelope(Type.Object({ task_id: Type.String(), total: Type.Integer(), dry_run: Type.Boolean() }));

export const ApplyTaskRequest = Type.Object({ task_id: TaskId }, { additionalProperties: false });

export const UndoTaskRequest = Type.Object(
  {
    task_id: TaskId,
    /** Undo even files changed since (those later edits of the same fields are lost). */
    force: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const UndoTaskResponse = Envelope(Type.Object({
  undone: Type.Integer(),
  skipped: Type.Integer(),
  failed: Type.Array(Type.Object({ path: Type.String(), reason: Type.String() })),
  /** Files the task created that were changed since: left where they are (counted in skipped); `force` takes them too. */
  kept: Type.Array(Type.Object({ path: Type.String(), reason: Type.String() })),
}));

export const AuditLogQuery = Type.Object(
  {
    page: Type.Optional(Digits),
    /** Default 50; at most 200. */
    page_size: Type.Optional(Digits),
    action: Type.Optional(Type.String({ maxLength: 64 })),
    user: Type.Optional(Type.String({ maxLength: 128 })),
    level: Type.Optional(Type.Union([Type.Literal('info'), Type.Literal('warning'), Type.Literal('error'), Type.Literal('')])),
    status: Type.Optional(Type.String({ maxLength: 32 })),
  },
  { additionalProperties: false },
);

export const AuditLogItem = Type.Object({
  id: Type.String(),
  task_id: NullableString,
  user: Type.String(),
  level: Type.String(),
  action: Type.String(),
  extra: Type.String(),
  status: Type.String(),
  created_at: Type.String(),
});

export const AuditLogResponse = Envelope(Type.Object({ items: Type.Array(AuditLogItem), count: Type.Integer() }));

export const AuditLogDetailQuery = Type.Object(
  {
    id: TaskId,
    section: Type.Optional(Type.String({ maxLength: 32 })),
    page: Type.Optional(Digits),
    /** Default 10; at most 500. */
    page_size: Type.Optional(Digits),
  },
  { additionalProperties: false },
);

export const IdRequest = Type.Object({ id: TaskId }, { additionalProperties: false });

export const ChangeItemStatusRequest = Type.Object(
  {
    id: TaskId,
    /** The spec's call sends only the id (a missed or failed row finished by hand): success. */
    status: Type.Optional(Type.Union([Type.Literal('success'), Type.Literal('skip'), Type.Literal('fail'), Type.Literal('miss')])),
  },
  { additionalProperties: false },
);

/** The report (see routes/audit-log.ts for its fields): many lists of rows, serialised as they are. */
export const AuditLogDetailResponse = Envelope(Type.Object({}, { additionalProperties: true }));

export const ItemStatusResponse = Envelope(Type.Object({ id: Type.String(), status: Type.String() }));

/** deleteFiles (spec doc 2 §7): the report's task, which rows, and for a duplicate section the rules. */
export const DeleteFilesRequest = Type.Object(
  {
    log_id: TaskId,
    mode: Type.Union([Type.Literal('hash'), Type.Literal('name'), Type.Literal('acoustid'), Type.Literal('single'), Type.Literal('fail')]),
    paths: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 4096 }), { maxItems: 100_000 })),
    rules: Type.Optional(Type.Object({
      sizeRule: Type.Optional(Type.Union([Type.Literal('larger'), Type.Literal('smaller'), Type.Literal('none')])),
      formatPriority: Type.Optional(Type.Array(Type.String({ maxLength: 16 }), { maxItems: 16 })),
      nameRule: Type.Optional(Type.Union([Type.Literal('larger'), Type.Literal('smaller'), Type.Literal('none')])),
      bitrateRule: Type.Optional(Type.String({ maxLength: 16 })),
      sampleRule: Type.Optional(Type.String({ maxLength: 16 })),
      metadataRule: Type.Optional(Type.String({ maxLength: 16 })),
      deleteMode: Type.Optional(Type.Union([Type.Literal('direct'), Type.Literal('move')])),
      targetDir: Type.Optional(Type.Union([Type.String({ maxLength: 4096 }), Type.Null()])),
      mode: Type.Optional(Type.String({ maxLength: 16 })),
    }, { additionalProperties: true })),
    detail_id: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Null()])),
    /** List the files the call would delete (and the rules' folder), delete nothing; posting that list as `paths` applies exactly it. */
    dry_run: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** deleteFiles' answer: the delete task; or with dry_run, no task and the files it would delete. */
export const DeleteFilesResponse = Envelope(Type.Object({
  task_id: Type.String(),
  total: Type.Integer(),
  dry_run: Type.Boolean(),
  paths: Type.Optional(Type.Array(Type.String())),
  target_dir: Type.Optional(Type.Union([Type.String(), Type.Null()])),
}));

/** finishFiles: the report's task and the row (detail_id, or the row's path). */
export const FinishFilesRequest = Type.Object(
  {
    log_id: TaskId,
    mode: Type.Optional(Type.Literal('single')),
    paths: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 4096 }), { maxItems: 100 })),
    detail_id: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Null()])),
  },
  { additionalProperties: false },
);
