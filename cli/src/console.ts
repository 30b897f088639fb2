/**
 * The server's console: one pino logger for the cli's own messages and the gateway's. People at a terminal
 * read one plain line per event; log collectors (stdout not a terminal, or TAGSONIC_LOG_FORMAT=json) get
 * pino's JSON lines, as pino users expect. The text form is made from the same JSON records, so both forms
 * always carry the same events.
 */
import { format as formatText } from 'node:util';
import { pino, type DestinationStream, type Logger } from 'pino';
import { isProcessKind, processLogs, type ProcessKind, type ProcessLogs } from '@tagsonic/core/logs';
import { CliError } from './cli-error.ts';

export type LogFormat = 'text' | 'json';

export interface ConsoleOptions {
  /** pino level name (`TAGSONIC_LOG_LEVEL`): trace, debug, info, warn, error, fatal or silent. */
  level: string;
  format: LogFormat;
  /** Where lines go; default standard output. */
  out?: NodeJS.WritableStream & { isTTY?: boolean };
  /** Where the runtime log (/log's 运行日志) keeps the lines too; default this process's. */
  ring?: ProcessLogs;
}

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

/** `TAGSONIC_LOG_FORMAT` (`json` or `text`); without it, text on a terminal and JSON otherwise. */
export function logFormat(env: Record<string, string | undefined> = process.env, isTTY = process.stdout.isTTY === true): LogFormat {
  const v = env.TAGSONIC_LOG_FORMAT?.trim().toLowerCase();
  if (v === 'json' || v === 'text') return v;
  if (v) throw new CliError(`TAGSONIC_LOG_FORMAT must be json or text, not "${env.TAGSONIC_LOG_FORMAT}"`);
  return isTTY ? 'text' : 'json';
}

export function createConsole(options: ConsoleOptions): Logger {
  if (!LEVELS.includes(options.level)) throw new CliError(`TAGSONIC_LOG_LEVEL must be one of ${LEVELS.join(', ')}, not "${options.level}"`);
  const out = options.out ?? process.stdout;
  // Synchronous writes: a line logged just before process.exit() (a failed start, a shutdown) is not lost.
  const printed: DestinationStream = options.format === 'json' ? (out === process.stdout ? pino.destination({ dest: 1, sync: true }) : out) : textStream(out);
  const dest = keptStream(printed, options.ring ?? processLogs);
  return pino(
    {
      level: options.level,
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
    },
    dest,
  );
}

/** Record fields the text form shows in its own way (or not at all: the process is the same for every line). */
const SHOWN_APART = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'err', 'reqId', 'proc']);

/**
 * Prints each record and keeps its text line in the runtime log under the part that logged it: a child logger's
 * `proc` binding (`worker`, `beat` …), a request's own lines below error (the gateway's one line per request,
 * logged at debug) as the access log (`nginx`), anything else the HTTP API's (`gunicorn`).
 */
function keptStream(printed: DestinationStream, ring: ProcessLogs): DestinationStream {
  return {
    write(line: string) {
      printed.write(line);
      let record: Record<string, unknown>;
      try {
        record = JSON.parse(line) as Record<string, unknown>;
      } catch {
        return;
      }
      const level = typeof record.level === 'number' ? record.level : 30;
      ring.add(partOf(record, level), level, textLine(record));
    },
  };
}

export function partOf(record: Record<string, unknown>, level: number): ProcessKind {
  if (isProcessKind(record.proc)) return record.proc;
  if (record.reqId !== undefined && level < 50) return 'nginx';
  return 'gunicorn';
}
const LABELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO ', 40: 'WARN ', 50: 'ERROR', 60: 'FATAL' };
const COLOURS: Record<number, string> = { 10: '90', 20: '90', 30: '32', 40: '33', 50: '31', 60: '31' };

/** Turns pino's JSON records into `2026-11-25 13:02:41 INFO  message key=value …` lines. */
function textStream(out: NodeJS.WritableStream & { isTTY?: boolean }): DestinationStream {
  const colour = out.isTTY === true && !process.env.NO_COLOR;
  return {
    write(line: string) {
      let record: Record<string, unknown>;
      try {
        record = JSON.parse(line) as Record<string, unknown>;
      } catch {
        out.write(line);
        return;
      }
      out.write(textLine(record, colour) + '\n');
    },
  };
}

export function textLine(record: Record<string, unknown>, colour = false): string {
  const level = typeof record.level === 'number' ? record.level : 30;
  const time = typeof record.time === 'string' ? localTime(new Date(record.time)) : '';
  const label = LABELS[level] ?? String(level);
  let text = `${time} ${colour ? `\x1b[${COLOURS[level] ?? '0'}m${label}\x1b[0m` : label} ${String(record.msg ?? '')}`;
  // Objects and lists are details for log collectors; the message already says what a person needs.
  const extras = Object.entries(record)
    .filter(([k, v]) => !SHOWN_APART.has(k) && v !== undefined && (v === null || typeof v !== 'object'))
    .map(([k, v]) => `${k}=${typeof v === 'string' && /^[^\s"=]+$/.test(v) ? v : JSON.stringify(v)}`);
  if (extras.length) text += `  ${extras.join(' ')}`;
  const err = record.err as { message?: string; stack?: string } | undefined;
  if (err) text += level >= 50 && err.stack ? `\n${indent(err.stack)}` : `: ${err.message ?? formatText(err)}`;
  return text;
}

const pad = (n: number) => String(n).padStart(2, '0');
const localTime = (d: Date) =>
  `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
const indent = (s: string) => s.replace(/^/gm, '    ');
