/**
 * The runtime log (/log's 运行日志 tab): the last lines each process part printed, kept in memory so the dashboard
 * can show them without a log file or a shell on the host. Parts are named as the spec's getRuntimeLog `type`
 * names the upstream processes: `gunicorn` (the HTTP API), `nginx` (its access lines), `beat` (scheduled jobs:
 * the watchers), `worker` (commands and task items), `redis` (the bus) and `xiaoai` (the smart speaker). Each part
 * keeps two bounded rings, every line (`log`) and the warnings and errors (`fail_log`), so a chatty access log
 * never pushes an error out of sight. Lines are per process: in distributed mode a gateway holds the HTTP parts and
 * each worker process its own, which is why a part records whether this process runs it at all.
 */
export const PROCESS_KINDS = ['gunicorn', 'nginx', 'beat', 'worker', 'redis', 'xiaoai'] as const;
export type ProcessKind = (typeof PROCESS_KINDS)[number];

export const isProcessKind = (value: unknown): value is ProcessKind => typeof value === 'string' && (PROCESS_KINDS as readonly string[]).includes(value);

export interface ProcessLogsOptions {
  /** Lines kept per ring (default 1000). */
  maxLines?: number;
  /** A longer line is cut to this many characters (default 4000): one huge stack cannot fill the ring. */
  maxLineChars?: number;
}

/** A fixed-size ring of lines; the oldest goes first. */
class Ring {
  private readonly lines: string[] = [];
  private start = 0;
  private readonly max: number;
  constructor(max: number) {
    this.max = max;
  }
  push(line: string): void {
    if (this.lines.length < this.max) this.lines.push(line);
    else {
      this.lines[this.start] = line;
      this.start = (this.start + 1) % this.max;
    }
  }
  /** Oldest first. */
  all(): string[] {
    return [...this.lines.slice(this.start), ...this.lines.slice(0, this.start)];
  }
}

/** pino's level numbers: warn and above also go to the error ring. */
const WARN = 40;

export class ProcessLogs {
  private readonly rings = new Map<ProcessKind, { log: Ring; fail: Ring }>();
  private readonly served = new Set<ProcessKind>();
  private readonly maxLines: number;
  private readonly maxLineChars: number;

  constructor(options: ProcessLogsOptions = {}) {
    this.maxLines = options.maxLines ?? 1000;
    this.maxLineChars = options.maxLineChars ?? 4000;
  }

  /** Marks parts this process runs (the cli's start does, per role). */
  serve(...kinds: ProcessKind[]): void {
    for (const kind of kinds) this.served.add(kind);
  }

  runs(kind: ProcessKind): boolean {
    return this.served.has(kind);
  }

  /** One printed line of `kind` at pino level `level` (30 info, 40 warn, 50 error). */
  add(kind: ProcessKind, level: number, line: string): void {
    let rings = this.rings.get(kind);
    if (!rings) this.rings.set(kind, (rings = { log: new Ring(this.maxLines), fail: new Ring(this.maxLines) }));
    const cut = line.length > this.maxLineChars ? `${line.slice(0, this.maxLineChars)}…` : line;
    rings.log.push(cut);
    if (level >= WARN) rings.fail.push(cut);
  }

  /** The part's lines, oldest first, as the two text areas show them. */
  read(kind: ProcessKind): { log: string[]; fail_log: string[] } {
    const rings = this.rings.get(kind);
    return { log: rings?.log.all() ?? [], fail_log: rings?.fail.all() ?? [] };
  }
}

/** This process's runtime log: the console writes into it, the gateway's runtime_log route reads it. */
export const processLogs = new ProcessLogs();
