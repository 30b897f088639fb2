import { Type } from 'typebox';
import { Envelope } from './common.ts';
import { PROCESS_KINDS } from '@tagsonic/core/logs';

/** getRuntimeLog (spec doc 2 §7): one process part, as the /log page's tabs name them. */
export const RuntimeLogRequest = Type.Object(
  { type: Type.Union(PROCESS_KINDS.map((k) => Type.Literal(k))) },
  { additionalProperties: false },
);
export const RuntimeLogResponse = Envelope(Type.Object({ log: Type.String(), fail_log: Type.String() }));

/** uploadLog: the reason (the page refuses fewer than 20 characters; so does the server). */
export const UploadLogRequest = Type.Object({ reason: Type.String({ maxLength: 4000 }) }, { additionalProperties: false });
export const UploadLogResponse = Envelope(Type.Object({ file: Type.String() }));
