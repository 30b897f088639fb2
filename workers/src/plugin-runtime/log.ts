/**
 * A plugin's log: the last entries in a ring buffer per plugin (shown on its page), so a chatty plugin costs a
 * fixed amount of memory. Entries come from untrusted code, so each is checked and capped, and the values of
 * the plugin's `secret` settings are masked wherever they appear.
 */
import type { HostFunction, JsonValue } from '../plugin-host/index.ts';
import { parseSandboxJson } from '../plugin-host/json.ts';

export type PluginLogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface PluginLogEntry {
  at: string;
  level: PluginLogLevel;
  message: string;
  fields?: Record<string, JsonValue>;
}

export interface PluginLog {
  /** Oldest first. */
  entries(): PluginLogEntry[];
  /** The `log` capability: `debug/info/warn/error(message, fields?)`. */
  capability(): Record<PluginLogLevel, HostFunction>;
}

const MAX_MESSAGE_CHARS = 2000;
const MAX_FIELDS_CHARS = 4000;
const MASK = '********';

export function createPluginLog(options: { capacity?: number; secrets?: readonly string[] } = {}): PluginLog {
  const capacity = Math.max(1, options.capacity ?? 200);
  const secrets = (options.secrets ?? []).filter((s) => s.length > 0);
  const mask = (text: string) => secrets.reduce((t, s) => t.split(s).join(MASK), text);
  // In JSON text a secret appears escaped; masking that form keeps the text valid JSON.
  const escaped = secrets.map((s) => JSON.stringify(s).slice(1, -1));
  const maskJson = (text: string) => escaped.reduce((t, s) => t.split(s).join(MASK), text);
  const buffer: PluginLogEntry[] = [];

  const write = (level: PluginLogLevel) => ((args: JsonValue[]) => {
    const [message, fields] = args;
    const entry: PluginLogEntry = { at: new Date().toISOString(), level, message: mask(String(message ?? '')).slice(0, MAX_MESSAGE_CHARS) };
    if (fields !== null && typeof fields === 'object' && !Array.isArray(fields)) {
      const text = maskJson(JSON.stringify(fields));
      entry.fields = text.length <= MAX_FIELDS_CHARS ? (parseSandboxJson(text) as Record<string, JsonValue>) : { truncated: text.slice(0, MAX_FIELDS_CHARS) };
    }
    buffer.push(entry);
    if (buffer.length > capacity) buffer.shift();
    return null;
  }) satisfies HostFunction;

  return {
    entries: () => buffer.map((e) => ({ ...e })),
    capability: () => ({ debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') }),
  };
}
