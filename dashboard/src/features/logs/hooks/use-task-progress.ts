import { useEffect, useRef, useState } from 'react';
import { addSample, progressOf, type Progress, type ProgressEvent, type Sample } from '../lib/progress.ts';

/** The bus events the gateway forwards over SSE (core's SUBJECTS.taskProgressed / taskCompleted). */
const EVENTS = ['tagsonic.evt.task.progressed', 'tagsonic.evt.task.completed'];
const EVENTS_URL = '/apimt/events/';

/**
 * Follows one task's progress over the gateway's SSE route while `active`: every item a worker finishes
 * moves the bar, with items/s and the time left measured from the events. `onEvent` lets the page refresh
 * its lists when the task ends. The browser reconnects a dropped stream by itself.
 */
export function useTaskProgress(taskId: string | null, active: boolean, onEvent?: (e: ProgressEvent) => void): Progress | null {
  const [progress, setProgress] = useState<Progress | null>(null);
  const samples = useRef<Sample[]>([]);
  const handler = useRef(onEvent);
  handler.current = onEvent;

  useEffect(() => {
    if (!taskId || !active || typeof EventSource === 'undefined') return;
    const source = new EventSource(EVENTS_URL, { withCredentials: true });
    const listener = (message: MessageEvent<string>) => {
      let event: ProgressEvent;
      try {
        event = JSON.parse(message.data) as ProgressEvent;
      } catch {
        return;
      }
      if (event.taskId !== taskId) return;
      samples.current = addSample(samples.current, { at: Date.now(), done: event.done });
      setProgress(progressOf(event, samples.current));
      handler.current?.(event);
    };
    for (const name of EVENTS) source.addEventListener(name, listener);
    return () => {
      for (const name of EVENTS) source.removeEventListener(name, listener);
      source.close();
    };
  }, [taskId, active]);

  return progress;
}
