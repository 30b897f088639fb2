/**
 * A plugin's settings, checked against its manifest's config form before the plugin gets them: a plugin reads
 * `caps.config.get()` and trusts the types its manifest declared, so a value of the wrong type, a value outside
 * an `enum`, an unknown key or a missing required setting is refused here, with the key named.
 */
import type { ConfigSchema, ConfigValues } from '@tagsonic/sdk';

export interface ConfigProblem {
  path: string;
  message: string;
}

/** The values the plugin sees (defaults applied, unset optional settings absent), or every problem found. */
export function resolveConfig(
  schema: ConfigSchema | undefined,
  given: Readonly<Record<string, unknown>> | undefined,
): { ok: true; values: ConfigValues } | { ok: false; errors: ConfigProblem[] } {
  const properties = schema?.properties ?? {};
  const errors: ConfigProblem[] = [];
  const values: ConfigValues = {};
  for (const key of Object.keys(given ?? {})) {
    if (!Object.hasOwn(properties, key)) errors.push({ path: `config.${key}`, message: `is not a setting of this plugin; its settings: ${Object.keys(properties).join(', ') || 'none'}` });
  }
  for (const [key, field] of Object.entries(properties)) {
    const raw = given && Object.hasOwn(given, key) ? given[key] : undefined;
    const value = raw === undefined || raw === null ? field.default : raw;
    if (value === undefined) {
      if (schema?.required?.includes(key)) errors.push({ path: `config.${key}`, message: `is required ("${field.title}")` });
      continue;
    }
    if (typeof value !== field.type || (field.type === 'number' && !Number.isFinite(value))) {
      errors.push({ path: `config.${key}`, message: `must be a ${field.type}, got ${typeof value}` });
      continue;
    }
    if (field.type === 'string' && field.enum && !field.enum.includes(value as string)) {
      errors.push({ path: `config.${key}`, message: `must be one of ${field.enum.map((v) => JSON.stringify(v)).join(', ')}` });
      continue;
    }
    if (field.type === 'string' && schema?.required?.includes(key) && (value as string).trim() === '') {
      errors.push({ path: `config.${key}`, message: `is required ("${field.title}")` });
      continue;
    }
    values[key] = value as string | number | boolean;
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, values };
}

/** The values of `secret` settings, for masking in the plugin's log. */
export function secretValues(schema: ConfigSchema | undefined, values: ConfigValues): string[] {
  const secrets: string[] = [];
  for (const [key, field] of Object.entries(schema?.properties ?? {})) {
    const value = values[key];
    if (field.type === 'string' && field.secret && typeof value === 'string' && value.length > 0) secrets.push(value);
  }
  return secrets;
}
