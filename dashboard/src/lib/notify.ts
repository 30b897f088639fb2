/**
 * The one place notices are raised. The UI layer registers a sink (a Blueprint toaster); notices raised
 * before it mounts are queued so nothing said at start-up is lost.
 */

export type NoticeIntent = 'success' | 'warning' | 'danger' | 'primary' | 'none';

export interface Notice {
  intent: NoticeIntent;
  title: string;
  content?: string;
  /** Milliseconds; 0 keeps it until closed. */
  timeout: number;
  action?: { text: string; onClick: () => void };
}

type Sink = (notice: Notice) => void;

let sink: Sink | undefined;
const pending: Notice[] = [];
const listeners = new Set<(notice: Notice) => void>();

export function setNoticeSink(next: Sink | undefined): void {
  sink = next;
  if (sink) for (const n of pending.splice(0)) sink(n);
}

/** Observers (tests, the debug log) see every notice too. */
export function onNotice(listener: (notice: Notice) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function notify(notice: Notice): void {
  for (const l of listeners) l(notice);
  if (sink) sink(notice);
  else pending.push(notice);
}

export const notifySuccess = (title: string, content?: string, timeout = 2000) => notify({ intent: 'success', title, content, timeout });
export const notifyError = (title: string, content?: string, timeout = 5000) => notify({ intent: 'danger', title, content, timeout });
export const notifyWarning = (title: string, content?: string, timeout = 5000) => notify({ intent: 'warning', title, content, timeout });
