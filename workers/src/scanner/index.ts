export { Scanner, SCAN_ERRORS, type ScannerDeps, type ScanOptions, type ScanProgress, type ScanResult, type FailedFile, type EntityCounts, type ChangeSummary } from './scanner.ts';
export { walkRoots, AUDIO_EXTENSIONS, folderCoverFor, lrcFor, type FoundFile, type DirInfo, type WalkResult } from './walk.ts';
export { trackDocFrom, fingerprint, contentTypeOf } from './track-doc.ts';
export { LibraryWatcher, WATCH_SCHEDULE, type WatchTick } from './watcher.ts';
export { followEdits, FOLLOW_DURABLE, type FollowCommand, type FollowEditsOptions } from './follow-edits.ts';
