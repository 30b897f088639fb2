/**
 * One writer thread of the pool: runs the prepare and verify steps of safe writes (write-steps.ts) with
 * several writes in flight. Errors cross as plain data and are rebuilt as TagsonicError on the other side.
 */
import { parentPort } from 'node:worker_threads';
import { isTagsonicError } from '../errors/index.ts';
import type { TagSnapshot } from './model.ts';
import { WriteSteps, type PrepareRequest, type Prepared, type VerifyRequest } from './write-steps.ts';

/** Fault injection for tests: what the thread does instead of the step. */
export type WorkerFault = 'exit' | 'hang';

export type WriterRequest =
  | { id: number; op: 'prepare'; req: PrepareRequest; fault?: WorkerFault }
  | { id: number; op: 'verify'; req: VerifyRequest; fault?: WorkerFault }
  | { id: 0; op: 'release'; writeId: string };

export interface SerializedError {
  kind?: string;
  code?: string;
  message: string;
  details?: Record<string, unknown>;
}

export type WriterReply =
  | { id: number; ok: true; prepared: Prepared }
  | { id: number; ok: true; after: TagSnapshot }
  | { id: number; ok: false; error: SerializedError };

const port = parentPort;
if (!port) throw new Error('writer-worker.ts must run as a worker thread');
const steps = new WriteSteps('blocking');

port.on('message', (msg: WriterRequest) => {
  if (msg.op === 'release') {
    steps.release(msg.writeId);
    return;
  }
  if (msg.fault === 'exit') process.exit(70);
  if (msg.fault === 'hang') for (;;);
  const work: Promise<WriterReply> =
    msg.op === 'prepare'
      ? steps.prepare(msg.req).then((prepared) => ({ id: msg.id, ok: true, prepared }))
      : steps.verify(msg.req).then((after) => ({ id: msg.id, ok: true, after }));
  work.then(
    (reply) => {
      const picture = 'prepared' in reply && !reply.prepared.noop ? reply.prepared.replacedPicture : null;
      port.postMessage(reply, picture ? [picture.buffer as ArrayBuffer] : []);
    },
    (err: unknown) => {
      const error: SerializedError = isTagsonicError(err)
        ? { kind: err.kind, code: err.code, message: err.message, details: err.details }
        : { message: err instanceof Error ? err.message : String(err) };
      port.postMessage({ id: msg.id, ok: false, error } satisfies WriterReply);
    },
  );
});
