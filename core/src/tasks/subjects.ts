/** Bus subjects, general → specific; ids travel in payloads, never in subjects. */
export const SUBJECTS = {
  /** Write tags to one file (one task item). */
  tagsWrite: 'tagsonic.cmd.tags.write',
  /** Run one item of a batch action (`action:<pluginId>` tasks): the plugin's runItem on a worker. */
  actionItem: 'tagsonic.cmd.action.item',
  /** Delete (into the trash) or move away one file of a task report (`files.delete` tasks). */
  filesDelete: 'tagsonic.cmd.files.delete',
  /** Scan the media roots (one task item per scan). */
  libraryScan: 'tagsonic.cmd.library.scan',
  /** Put files something just changed into the library now (payload: { paths }), see workers/src/scanner/follow-edits.ts. */
  libraryFollow: 'tagsonic.cmd.library.follow',
  taskProgressed: 'tagsonic.evt.task.progressed',
  taskCompleted: 'tagsonic.evt.task.completed',
  trackUpdated: 'tagsonic.evt.track.updated',
  /** A batch action's or a delete's item changed files (payload: { taskId, itemId, paths }: every path written, moved from or to, deleted). */
  filesChanged: 'tagsonic.evt.files.changed',
  /** The library catalogue moved to a new revision (payload: { rev, added, updated, moved, removed }). */
  libraryChanged: 'tagsonic.evt.library.changed',
} as const;

/** Events a browser may follow over SSE. */
export const EVENT_PATTERN = 'tagsonic.evt.>';
