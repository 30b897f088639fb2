import type { Logger } from 'pino';
import { isTagsonicError } from '@tagsonic/core/errors';
import { Scanner, SCAN_ERRORS, type ScannerDeps, type ScanOptions, type ScanResult } from '@tagsonic/workers/scanner';

/** Unreadable files named in a scan's console line; the task report lists them all. */
const NAMED_FAILURES = 5;
/** Unreadable files carried as a field of the JSON record. */
const RECORDED_FAILURES = 100;

/**
 * The scanner of a worker process, telling the console when each scan starts and how it ended (one summary
 * line: duration, counts, unreadable files). It logs where the scan runs, so in a distributed deployment each
 * scan is reported once, by the worker that ran it, however it was started (start-up check, watcher, a user).
 */
export class LoggingScanner extends Scanner {
  private readonly log: Logger;

  constructor(deps: ScannerDeps, log: Logger) {
    super(deps);
    this.log = log;
  }

  override async scan(options: ScanOptions = {}): Promise<ScanResult> {
    const kind = options.full ? 'full' : 'incremental';
    const started = Date.now();
    this.log.info({ scan: { kind, roots: options.roots, task: options.taskId ?? undefined } }, `library scan started (${kind})`);
    try {
      const result = await super.scan(options);
      this.log.info({ scan: scanRecord(result) }, scanSummary(result));
      return result;
    } catch (e) {
      if (isTagsonicError(e) && e.code === SCAN_ERRORS.running) {
        this.log.info({ scan: { kind } }, 'library scan not started: another scan is running');
      } else {
        this.log.error({ err: e, scan: { kind } }, `library scan failed after ${seconds(Date.now() - started)}`);
      }
      throw e;
    }
  }
}

/** `library scan finished in 4.2 s: 1200 files (3 added, …), 2 unreadable: a.mp3 (…), …` */
export function scanSummary(r: ScanResult): string {
  const changes = [`${r.added} added`, `${r.updated} updated`, `${r.moved} moved`, `${r.removed} removed`, `${r.unchanged} unchanged`];
  let line = `library scan finished in ${seconds(r.durationMs)}: ${r.found} ${r.found === 1 ? 'file' : 'files'} (${changes.join(', ')}), ${r.failed.length} unreadable`;
  if (r.failed.length) {
    const named = r.failed
      .slice(0, NAMED_FAILURES)
      .map((f) => (f.message.includes(f.path) ? f.message : `${f.path}: ${f.message}`).replace(/\.$/, ''));
    const more = r.failed.length - named.length;
    line += `: ${named.join('; ')}${more ? `; and ${more} more in the scan task's report` : ''}`;
  }
  if (r.walkErrors.length) line += `; ${r.walkErrors.length} folders could not be listed (first: ${r.walkErrors[0].path}: ${r.walkErrors[0].message})`;
  return line;
}

/** The same facts for log collectors (a JSON record's `scan` field). */
function scanRecord(r: ScanResult): Record<string, unknown> {
  return {
    kind: r.full ? 'full' : 'incremental',
    durationMs: r.durationMs,
    files: { found: r.found, added: r.added, updated: r.updated, moved: r.moved, removed: r.removed, unchanged: r.unchanged, read: r.read },
    albums: r.albums,
    artists: r.artists,
    unreadable: r.failed.length,
    unreadableFiles: r.failed.slice(0, RECORDED_FAILURES).map((f) => ({ path: f.path, code: f.code, message: f.message })),
    walkErrors: r.walkErrors.length || undefined,
    rev: r.rev,
  };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
