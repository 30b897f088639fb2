/**
 * One reader thread of the pool: parses files with `readTags` and answers on its port. Errors cross as
 * plain data and are rebuilt as TagsonicError on the other side.
 */
import { parentPort } from 'node:worker_threads';
import { readTags } from './read.ts';
import { isTagsonicError } from '../errors/index.ts';

export interface ReadRequest {
  id: number;
  path: string;
  artwork: boolean;
  timeoutMs: number;
}

export type ReadReply =
  | { id: number; ok: true; result: Awaited<ReturnType<typeof readTags>> }
  | { id: number; ok: false; error: { kind?: string; code?: string; message: string; details?: Record<string, unknown> } };

const port = parentPort;
if (!port) throw new Error('reader-worker.ts must run as a worker thread');

port.on('message', (req: ReadRequest) => {
  readTags(req.path, { artwork: req.artwork, timeoutMs: req.timeoutMs }).then(
    (result) => {
      // A private copy: music-metadata's bytes may be a view into a pooled buffer, which cannot move.
      if (result.artwork) result.artwork = { mime: result.artwork.mime, data: new Uint8Array(result.artwork.data) };
      const transfer = result.artwork ? [result.artwork.data.buffer as ArrayBuffer] : [];
      port.postMessage({ id: req.id, ok: true, result } satisfies ReadReply, transfer);
    },
    (err: unknown) => {
      const error = isTagsonicError(err)
        ? { kind: err.kind, code: err.code, message: err.message, details: err.details }
        : { message: err instanceof Error ? err.message : String(err) };
      port.postMessage({ id: req.id, ok: false, error } satisfies ReadReply);
    },
  );
});
