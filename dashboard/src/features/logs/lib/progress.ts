/**
 * Live progress from the bus's task events (SSE): items per second and time left, from the events seen on
 * this page. A rate needs two samples; it is taken over a sliding window so a burst at the start does not
 * promise a finish that the rest of the task will not keep.
 */

/** The payload of `tagsonic.evt.task.progressed` (core's TaskProgress). */
export interface ProgressEvent {
  taskId: string;
  status: string;
  total: number;
  done: number;
  counts?: Record<string, number>;
  /** Items per second and seconds left, when the server computes them itself. */
  items_per_sec?: number | null;
  eta_sec?: number | null;
}

export interface Progress {
  total: number;
  done: number;
  status: string;
  /** Items per second; null until known. */
  rate: number | null;
  /** Seconds left; null until a rate is known or when nothing is left. */
  etaSeconds: number | null;
}

export interface Sample {
  at: number;
  done: number;
}

/** Samples older than this (ms) no longer count towards the rate. */
export const RATE_WINDOW_MS = 20_000;

/** Adds a sample and drops the ones outside the window (keeping at least the previous one). */
export function addSample(samples: Sample[], sample: Sample, windowMs = RATE_WINDOW_MS): Sample[] {
  const next = [...samples.filter((s) => s.done <= sample.done), sample];
  while (next.length > 2 && sample.at - next[0].at > windowMs) next.shift();
  return next;
}

/** The progress to show after an event, given the samples including it. */
export function progressOf(event: ProgressEvent, samples: Sample[]): Progress {
  const first = samples[0];
  const last = samples[samples.length - 1];
  let rate: number | null = typeof event.items_per_sec === 'number' && Number.isFinite(event.items_per_sec) && event.items_per_sec > 0 ? event.items_per_sec : null;
  if (rate === null && first && last && last.at > first.at && last.done > first.done) rate = ((last.done - first.done) * 1000) / (last.at - first.at);
  const left = Math.max(0, event.total - event.done);
  let etaSeconds: number | null = typeof event.eta_sec === 'number' ? event.eta_sec : null;
  if (etaSeconds === null && rate && left > 0 && event.status === 'running') etaSeconds = left / rate;
  if (left === 0 || event.status !== 'running') etaSeconds = null;
  return { total: event.total, done: event.done, status: event.status, rate, etaSeconds };
}

/** Seconds left as `1:02:03`, `3:20` or `45 s` (the same in both languages). */
export function formatEta(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '-';
  const s = Math.ceil(seconds);
  if (s < 60) return `${s} s`;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const r = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${r}` : `${m}:${r}`;
}

export const formatRate = (rate: number | null): string => (rate === null ? '-' : rate >= 10 ? rate.toFixed(0) : rate.toFixed(1));
