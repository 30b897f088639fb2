/**
 * The system settings document (`settings`, `_id: 'system'`) read with every default filled in, and changed one key
 * at a time with the key's schema: the one place that knows what a setting may hold. A change is recorded in the
 * operation log (an entry without a task) and announced on the bus, so processes that cache settings read again.
 */
import { Value } from 'typebox/value';
import type { Bus } from '../bus/port.ts';
import { TagsonicError, invalid, isTagsonicError } from '../errors/errors.ts';
import { newId } from '../ids.ts';
import type { MediaRoots } from '../media/roots.ts';
import type { Store } from '../store/port.ts';
import { templateCommand } from '../transcode/command.ts';
import { isSettingKey, SETTING_KEYS, SETTINGS, type SettingDef, type SettingKey, type SystemSettings } from './registry.ts';

export const SETTINGS_COLLECTION = 'settings';
export const SYSTEM_SETTINGS_ID = 'system';
/** Published after every change: `{ key, actor, at }` (never the value: it may be a secret). */
export const SETTINGS_CHANGED = 'tagsonic.evt.settings.changed';
/** The operation log's action for a settings change. */
export const SETTINGS_AUDIT_ACTION = '修改设置';

export const SETTINGS_UNKNOWN_KEY = 'TAGSONIC_ERR_SETTINGS_UNKNOWN_KEY';
export const SETTINGS_BAD_VALUE = 'TAGSONIC_ERR_SETTINGS_BAD_VALUE';
export const SETTINGS_FOLDER_OUTSIDE = 'TAGSONIC_ERR_SETTINGS_FOLDER_OUTSIDE';

export interface SettingsChanged {
  key: SettingKey;
  actor: string;
  at: string;
}

type Doc = { _id: string } & Record<string, unknown>;

/**
 * Every setting, typed. A stored value its schema refuses (written by hand, or in the screen's wire form by an older
 * build) is read through the wire form once more, else replaced by the default: a reader never sees a bad value.
 */
export async function readSettings(store: Store): Promise<SystemSettings> {
  return settingsOf(await store.collection<Doc>(SETTINGS_COLLECTION).findOne({ _id: SYSTEM_SETTINGS_ID }));
}

/** readSettings over a settings document already read (or none). */
export function settingsOf(doc: Record<string, unknown> | null | undefined): SystemSettings {
  const out: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) {
    const d: SettingDef = SETTINGS[key];
    const stored = doc?.[key];
    if (stored === undefined || stored === null) out[key] = structuredClone(d.default);
    else if (Value.Check(d.schema, stored)) out[key] = stored;
    else {
      const parsed = fromWire(d, stored);
      out[key] = parsed !== undefined && Value.Check(d.schema, parsed) ? parsed : structuredClone(d.default);
    }
  }
  return out as SystemSettings;
}

/** The settings a non-administrator may read (the spec shows them only mi_play_in_pl). */
export function publicSettings(settings: SystemSettings): Partial<SystemSettings> {
  return Object.fromEntries(SETTING_KEYS.filter((k) => SETTINGS[k].public).map((k) => [k, settings[k]])) as Partial<SystemSettings>;
}

/** The settings as the screen gets them: secrets as '' with the names of those that hold a value. */
export function withoutSecrets(settings: SystemSettings): { values: Record<string, unknown>; secretsSet: SettingKey[] } {
  const values: Record<string, unknown> = { ...settings };
  const secretsSet: SettingKey[] = [];
  for (const key of SETTING_KEYS) {
    if (!SETTINGS[key].secret) continue;
    if (settings[key] !== '') secretsSet.push(key);
    values[key] = '';
  }
  return { values, secretsSet };
}

export interface UpdateSettingDeps {
  store: Store;
  /** Where folder settings must point; without it they cannot be changed. */
  roots?: MediaRoots;
  /** Announces the change; without it only this process's next read sees it. */
  bus?: Bus;
}

export interface UpdateSettingOptions {
  /** Back to the default, which empties a secret (an empty value alone keeps it: the screen sends '' for a secret it did not touch). */
  clear?: boolean;
}

export interface SettingUpdated {
  key: SettingKey;
  /** The stored value ('' for a secret); `kept` when an empty secret left the stored one alone. */
  value: unknown;
  kept: boolean;
}

/**
 * Sets one key: the value in the screen's wire form or as JSON, checked by the key's schema (and, for folders, the
 * media roots; for decode_command, the transcoder's own rules), then stored, logged and announced.
 */
export async function updateSetting(deps: UpdateSettingDeps, key: unknown, raw: unknown, actor: string, options: UpdateSettingOptions = {}): Promise<SettingUpdated> {
  if (!isSettingKey(key)) throw invalid(SETTINGS_UNKNOWN_KEY, `There is no setting named "${String(key).slice(0, 100)}".`, { key: String(key).slice(0, 100) });
  const d: SettingDef = SETTINGS[key];
  if (d.secret && !options.clear && (raw === '' || raw === null || raw === undefined)) return { key, value: '', kept: true };
  let value = options.clear ? structuredClone(d.default) : fromWire(d, raw);
  if (value === undefined || !Value.Check(d.schema, value)) throw badValue(key, d, raw);
  if (d.folder && value !== '') value = await confine(deps.roots, key, value as string);
  // '' is the default command (the transcoder reads it so); anything else must pass the transcoder's rules now.
  if (key === 'decode_command' && value !== '') checkDecodeCommand(value as string);
  if (key === 'dir_list') checkLevels(value as Array<{ value: string; value2?: string }>);

  await deps.store.collection<Doc>(SETTINGS_COLLECTION).updateOne({ _id: SYSTEM_SETTINGS_ID }, { $set: { [key]: value } }, { upsert: true });
  const at = new Date();
  await deps.store.collection('audit_log').insertOne({
    _id: newId(),
    taskId: null,
    user: actor,
    level: 'info',
    action: SETTINGS_AUDIT_ACTION,
    extra: d.secret ? `${key}${options.clear ? '（已清除）' : '（已更新）'}` : `${key} = ${shown(value)}`,
    status: 'success',
    createdAt: at,
  });
  const event: SettingsChanged = { key, actor, at: at.toISOString() };
  // The change is stored: a bus that is down must not turn a saved setting into a failed request.
  await deps.bus?.publish(SETTINGS_CHANGED, event).catch(() => undefined);
  return { key, value: d.secret ? '' : value, kept: false };
}

/** doc 2 §5: booleans "1"/"0", lists comma-joined, objects as JSON text; JSON-typed values are taken as they are. */
function fromWire(d: SettingDef, raw: unknown): unknown {
  switch (d.wire) {
    case 'boolean':
      if (typeof raw === 'boolean') return raw;
      if (raw === 1 || raw === '1' || raw === 'true') return true;
      if (raw === 0 || raw === '0' || raw === 'false') return false;
      return undefined;
    case 'integer': {
      if (typeof raw === 'number') return raw;
      if (typeof raw !== 'string' || !/^\s*-?\d+\s*$/.test(raw)) return undefined;
      return Number(raw);
    }
    case 'text':
      return typeof raw === 'string' ? raw.trim() : undefined;
    case 'list':
      if (Array.isArray(raw)) return raw;
      if (typeof raw !== 'string') return undefined;
      if (raw.trim().startsWith('[')) return parseJson(raw);
      return raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
    case 'json':
      return typeof raw === 'string' ? parseJson(raw) : raw;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function badValue(key: SettingKey, d: SettingDef, raw: unknown): TagsonicError {
  const first = Value.Errors(d.schema, fromWire(d, raw)).at(0);
  const where = first?.instancePath ? ` (at ${first.instancePath})` : '';
  const allowed = (first?.params as { allowedValues?: unknown[] } | undefined)?.allowedValues;
  const why = first ? `${first.message}${allowed ? ` (${allowed.map((v) => (v === '' ? '""' : String(v))).join(', ')})` : ''}${where}` : `expected ${expected(d)}`;
  return invalid(SETTINGS_BAD_VALUE, `The value of ${key} is not valid: ${why}.`, { key });
}

const expected = (d: SettingDef): string =>
  ({ boolean: '"1" or "0"', integer: 'a whole number', text: 'text', list: 'a comma-separated list', json: 'JSON text' })[d.wire];

async function confine(roots: MediaRoots | undefined, key: SettingKey, folder: string): Promise<string> {
  if (!roots) throw invalid(SETTINGS_FOLDER_OUTSIDE, `${key} cannot be checked in this process (no media folders).`, { key });
  if (!folder.startsWith('/')) throw invalid(SETTINGS_FOLDER_OUTSIDE, `${key} must be a full path (/…) inside the media folders.`, { key });
  try {
    return (await roots.resolve(folder, { mustExist: false })).path;
  } catch (e) {
    if (isTagsonicError(e)) throw invalid(SETTINGS_FOLDER_OUTSIDE, `${key} must be a folder inside the media folders: ${e.message}`, { key });
    throw e;
  }
}

function checkDecodeCommand(command: string): void {
  try {
    templateCommand(command, { path: '/probe.flac', offset: 0, bitRate: null }, 128);
  } catch (e) {
    if (isTagsonicError(e)) throw invalid(SETTINGS_BAD_VALUE, `The value of decode_command is not valid: ${e.message}`, { key: 'decode_command' });
    throw e;
  }
}

/** A custom level needs its text (the tidy action refuses one without, so the watcher's tidy would fail every time). */
function checkLevels(levels: Array<{ value: string; value2?: string }>): void {
  const i = levels.findIndex((l) => l.value === 'custom' && !(l.value2 ?? '').trim());
  if (i >= 0) throw invalid(SETTINGS_BAD_VALUE, `The value of dir_list is not valid: level ${i + 1} is custom and needs value2.`, { key: 'dir_list' });
}

const shown = (value: unknown): string => {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
};
