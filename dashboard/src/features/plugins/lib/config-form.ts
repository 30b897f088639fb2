/**
 * The plugin's settings form, generated from the manifest's config schema: the values to start from (saved
 * ones, else the manifest's defaults), and the checked values to send. Inputs hold text; numbers are parsed
 * here so a typo is caught before the server sees it.
 */
import { SECRET_MASK, type ConfigSchema } from '../api/types.ts';

export type FormValues = Record<string, string | boolean>;

/** Saved values first, then defaults; a saved secret comes back as its mask and stays so until retyped. */
export function initialValues(schema: ConfigSchema | null, saved: Record<string, unknown>): FormValues {
  const values: FormValues = {};
  for (const [key, field] of Object.entries(schema?.properties ?? {})) {
    const value = key in saved ? saved[key] : field.default;
    if (field.type === 'boolean') values[key] = value === true;
    else values[key] = value === undefined || value === null ? '' : String(value);
  }
  return values;
}

/** i18n keys of the field errors. */
export type FieldError = '必填' | '请输入数字' | '请选择一个选项';

/**
 * The config to send, or the errors by key. Empty optional fields are left out (the plugin falls back to its
 * default); a secret still showing its mask is sent as the mask, which the server reads as "keep".
 */
export function buildConfig(schema: ConfigSchema | null, values: FormValues): { config: Record<string, unknown>; errors: Record<string, FieldError> } {
  const config: Record<string, unknown> = {};
  const errors: Record<string, FieldError> = {};
  const required = new Set(schema?.required ?? []);
  for (const [key, field] of Object.entries(schema?.properties ?? {})) {
    const value = values[key];
    if (field.type === 'boolean') {
      config[key] = value === true;
      continue;
    }
    const text = typeof value === 'string' ? value.trim() : '';
    if (text === '') {
      if (required.has(key)) errors[key] = '必填';
      continue;
    }
    if (field.type === 'number') {
      const n = Number(text);
      if (!Number.isFinite(n)) errors[key] = '请输入数字';
      else config[key] = n;
    } else if (field.enum && !field.enum.includes(text) && !(field.secret && text === SECRET_MASK)) {
      errors[key] = '请选择一个选项';
    } else {
      config[key] = field.secret && text === SECRET_MASK ? SECRET_MASK : text;
    }
  }
  return { config, errors };
}

/** The base-URL override: '' clears it (null); anything else must be an http(s) URL. Undefined means invalid. */
export function parseBaseUrl(text: string): string | null | undefined {
  const value = text.trim();
  if (value === '') return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? value : undefined;
  } catch {
    return undefined;
  }
}
