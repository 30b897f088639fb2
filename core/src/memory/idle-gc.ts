/**
 * Gives the memory of a busy spell back once the process goes quiet.
 *
 * With the server's small young generation (`--max-semi-space-size=8`, see bench/README.md), a scan or
 * a burst of Subsonic calls promotes its short-lived garbage to the old generation, which grows to a few
 * hundred MB; V8 keeps those pages once the garbage is dead, and its own memory reducer gives them back
 * only minutes later, if at all (10k library: ~500 MB resident an hour after a wrk run). So the busy
 * parts call `noteActivity()`, and `QUIET_MS` after the last call one full, memory-reducing collection
 * runs ("last resort": it also releases V8's pooled pages): tens of ms, once per quiet spell, when
 * nobody is waiting. Idle processes run none.
 */
import v8 from 'node:v8';
import vm from 'node:vm';

/** How long without activity before the collection. */
export const QUIET_MS = 10_000;

type Gc = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

let lastActivity = 0;
let timer: NodeJS.Timeout | undefined;
let gc: Gc | undefined;
let collections = 0;

/** Something busy happened (a request, a scan): collect once the process has been quiet for `QUIET_MS`. */
export function noteActivity(): void {
  lastActivity = performance.now();
  // One timer per quiet spell, not one per request: it re-arms itself for what is left.
  if (!timer) arm(QUIET_MS);
}

/** Collections run so far (for tests and diagnostics). */
export const idleCollections = (): number => collections;

function arm(ms: number): void {
  timer = setTimeout(check, ms);
  // A pending collection must not keep a finished process alive.
  timer.unref();
}

function check(): void {
  const left = QUIET_MS - (performance.now() - lastActivity);
  if (left > 50) return arm(left);
  timer = undefined;
  collect();
}

function collect(): void {
  // The gc() of --expose-gc, obtained at run time: the flag applies to contexts created after it is set.
  if (!gc) {
    v8.setFlagsFromString('--expose-gc');
    gc = vm.runInNewContext('gc') as Gc;
  }
  gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  collections++;
}
