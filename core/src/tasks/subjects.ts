/** Bus subjects, general → specific; ids travel in payloads, never in subjects. */
export const SUBJECTS = {
  /** Write tags to one file (one task item). */
  tagsWrite: 'tagsonic.cmd.tags.write',
  taskProgressed: 'tagsonic.evt.task.progressed',
  taskCompleted: 'tagsonic.evt.task.completed',
  trackUpdated: 'tagsonic.evt.track.updated',
} as const;

/** Events a browser may follow over SSE. */
export const EVENT_PATTERN = 'tagsonic.evt.>';
