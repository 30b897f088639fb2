/**
 * One reader thread of the pool: parses files with `readTags` and answers on its port, in batches.
 * Errors cross as plain data and are rebuilt as TagsonicError on the other side.
 */
import { parentPort, type MessagePort } from 'node:worker_threads';
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

/** Requests and replies travel in batches: one message per file cost more than parsing a small one. */
export interface ReadBatch {
  requests: ReadRequest[];
}

export interface ReplyBatch {
  replies: ReadReply[];
}

if (!parentPort) throw new Error('reader-worker.ts must run as a worker thread');
const port: MessagePort = parentPort;

let outbox: ReadReply[] = [];
let transfer: ArrayBuffer[] = [];
let flushScheduled = false;
/**
 * Replies leave at the latest when the event loop turns, and earlier once this many are ready: files
 * in the page cache parse synchronously one after another, and a thread that answered only when all
 * of its files were done would then sit idle until the pool's next batch arrived (a fifth of its time).
 */
const EARLY_FLUSH = 8;

function flush(): void {
  if (outbox.length === 0) return;
  const replies = outbox;
  const buffers = transfer;
  outbox = [];
  transfer = [];
  port.postMessage({ replies } satisfies ReplyBatch, buffers);
}

/** Queues a reply; see EARLY_FLUSH. */
function send(reply: ReadReply, buffers: ArrayBuffer[] = []): void {
  outbox.push(reply);
  transfer.push(...buffers);
  if (outbox.length >= EARLY_FLUSH) flush();
  if (flushScheduled) return;
  flushScheduled = true;
  setImmediate(() => {
    flushScheduled = false;
    flush();
  });
}

function read(req: ReadRequest): void {
  readTags(req.path, { artwork: req.artwork, timeoutMs: req.timeoutMs, opening: 'reader-thread' }).then(
    (result) => {
      // A private copy: music-metadata's bytes may be a view into a pooled buffer, which cannot move.
      if (result.artwork) result.artwork = { mime: result.artwork.mime, data: new Uint8Array(result.artwork.data) };
      send({ id: req.id, ok: true, result }, result.artwork ? [result.artwork.data.buffer as ArrayBuffer] : []);
    },
    (err: unknown) => {
      const error = isTagsonicError(err)
        ? { kind: err.kind, code: err.code, message: err.message, details: err.details }
        : { message: err instanceof Error ? err.message : String(err) };
      send({ id: req.id, ok: false, error });
    },
  );
}

port.on('message', (batch: ReadBatch) => {
  for (const req of batch.requests) read(req);
});
