import { Type } from 'typebox';
import { Envelope } from './common.ts';

export const RecordQuery = Type.Object(
  {
    state: Type.Optional(Type.Literal('failed')),
    // Query strings are not coerced (the app's Ajv has coerceTypes off): a number as digits, 1–100.
    page_size: Type.Optional(Type.String({ pattern: '^(100|[1-9][0-9]?)$' })),
  },
  { additionalProperties: false },
);

const RecordItem = Type.Object({
  id: Type.String(),
  task_id: Type.String(),
  title: Type.String(),
  content: Type.String(),
  // The record as data, for the dashboard to word in its language (core/src/records).
  action: Type.String(),
  failed_count: Type.Integer(),
  total: Type.Integer(),
  path: Type.Union([Type.String(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
  error_code: Type.Union([Type.String(), Type.Null()]),
  update_at: Type.String(),
  version: Type.String(),
  read: Type.Boolean(),
});

export const RecordResponse = Envelope(Type.Object({ items: Type.Array(RecordItem), unread_count: Type.Integer() }));

/** The bell posts the list it showed; everything finished up to now is then read. */
export const MarkReadRequest = Type.Object(
  { message_list: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 1000 })) },
  { additionalProperties: false },
);
export const MarkReadResponse = Envelope(Type.Object({ unread_count: Type.Integer() }));
