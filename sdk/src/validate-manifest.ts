/**
 * Enforces `manifest.schema.json` without a JSON Schema library: a small strict interpreter for exactly the
 * keywords that schema uses, plus the rules JSON Schema cannot say (a default of the field's type, required
 * settings that exist, no duplicate hosts). The host runs it on every upload and the CLI before packing, so
 * its messages are written for plugin authors: each names the offending path and what was expected.
 */
import schema from './manifest.schema.json' with { type: 'json' };
import type { ConfigField, Manifest } from './manifest.ts';

/**
 * One problem in a manifest. `path` points at the offending value (`permissions.http.hosts[0].host`);
 * an empty path means the manifest itself.
 *
 * @example
 * const error: ManifestError = { path: 'kind', message: 'must be "tag-source" or "batch-action", got "source"' };
 */
export interface ManifestError {
  path: string;
  message: string;
}

/**
 * The outcome of {@link validateManifest}: the manifest (a copy, safe to keep) or every problem found.
 *
 * @example
 * const result: ManifestValidation = validateManifest(JSON.parse(text));
 * if (!result.ok) for (const e of result.errors) console.error(`${e.path}: ${e.message}`);
 */
export type ManifestValidation = { ok: true; manifest: Manifest } | { ok: false; errors: ManifestError[] };

/** The JSON Schema keywords the manifest schema uses; anything else in it is a bug caught by the tests. */
interface Node {
  $ref?: string;
  type?: JsonType | JsonType[];
  description?: string;
  enum?: readonly unknown[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  items?: Node;
  properties?: Record<string, Node>;
  required?: readonly string[];
  additionalProperties?: boolean | Node;
  propertyNames?: Node;
}
type JsonType = 'object' | 'array' | 'string' | 'number' | 'boolean';

/** More than this and the author has the wrong file; listing every problem would bury the first one. */
const MAX_ERRORS = 50;
const root = schema as unknown as Node & { $defs: Record<string, Node> };
const patterns = new Map<string, RegExp>();

/**
 * Checks a parsed `manifest.json` against the manifest contract. Unknown keys are rejected at every level,
 * so a typo (`permision`) fails loudly instead of silently granting nothing. Never throws.
 *
 * @example
 * const result = validateManifest({ id: 'My Plugin', name: 'x' });
 * // { ok: false, errors: [{ path: 'id', message: 'must be 1 to 64 characters of a-z, 0-9, _ and -, …' }, …] }
 */
export const validateManifest = (value: unknown): ManifestValidation => {
  const errors: ManifestError[] = [];
  check(root, value, '', errors);
  if (errors.length === 0) checkSemantics(value as Manifest, errors);
  if (errors.length > 0) return { ok: false, errors: errors.slice(0, MAX_ERRORS) };
  return { ok: true, manifest: structuredClone(value as Manifest) };
};

const check = (node: Node, value: unknown, path: string, errors: ManifestError[]): void => {
  if (errors.length >= MAX_ERRORS) return;
  if (node.$ref) return check(resolve(node.$ref), value, path, errors);
  const fail = (message: string): void => { errors.push({ path, message }); };
  const expected = expectation(node);

  if (node.type && !matchesType(node.type, value)) return fail(`must be ${expected}, got ${show(value)}`);
  if (node.enum && !node.enum.includes(value)) return fail(`must be ${expected}, got ${show(value)}`);

  if (typeof value === 'string') {
    if (node.minLength !== undefined && value.length < node.minLength) return fail(`must be ${expected}, got ${show(value)}`);
    if (node.maxLength !== undefined && value.length > node.maxLength) {
      return fail(`must be ${expected}, got ${value.length} characters`);
    }
    if (node.pattern !== undefined && !regex(node.pattern).test(value)) return fail(`must be ${expected}, got ${show(value)}`);
  }

  if (Array.isArray(value)) {
    if (node.minItems !== undefined && value.length < node.minItems) return fail(`must be ${expected}, got ${value.length} items`);
    if (node.maxItems !== undefined && value.length > node.maxItems) return fail(`must be ${expected}, got ${value.length} items`);
    if (node.items) value.forEach((item, i) => check(node.items!, item, `${path}[${i}]`, errors));
  }

  if (isObject(value)) {
    for (const key of node.required ?? []) {
      if (!Object.hasOwn(value, key)) errors.push({ path: join(path, key), message: `is required: ${describe(node.properties?.[key])}` });
    }
    for (const key of Object.keys(value)) {
      const keyPath = join(path, key);
      const declared = node.properties && Object.hasOwn(node.properties, key) ? node.properties[key] : undefined;
      if (declared) {
        check(declared, value[key], keyPath, errors);
        continue;
      }
      if (node.propertyNames) {
        const before = errors.length;
        check(node.propertyNames, key, keyPath, errors);
        if (errors.length > before) continue;
      }
      if (node.additionalProperties === false || node.additionalProperties === undefined && node.properties) {
        const allowed = Object.keys(node.properties ?? {});
        errors.push({ path: keyPath, message: `unknown key ${show(key)}; allowed here: ${allowed.join(', ') || 'none'}` });
      } else if (typeof node.additionalProperties === 'object') {
        check(node.additionalProperties, value[key], keyPath, errors);
      }
    }
  }
};

/** Rules across fields that the JSON Schema cannot express; run only once the shape is right. */
const checkSemantics = (manifest: Manifest, errors: ManifestError[]): void => {
  const config = manifest.config;
  if (config) {
    for (const [key, field] of Object.entries(config.properties)) checkField(field, join('config.properties', key), errors);
    config.required?.forEach((key, i) => {
      if (!Object.hasOwn(config.properties, key)) {
        errors.push({ path: `config.required[${i}]`, message: `names ${show(key)}, which is not a key of config.properties` });
      }
    });
  }
  const seen = new Set<string>();
  manifest.permissions.http?.hosts.forEach(({ host }, i) => {
    const path = `permissions.http.hosts[${i}].host`;
    if (seen.has(host)) errors.push({ path, message: `${show(host)} is listed twice` });
    seen.add(host);
  });
  const sources = new Set<string>();
  manifest.permissions.sources?.ids.forEach((id, i) => {
    const path = `permissions.sources.ids[${i}]`;
    if (id === manifest.id) errors.push({ path, message: `${show(id)} is the plugin itself; a source cannot search itself` });
    else if (sources.has(id)) errors.push({ path, message: `${show(id)} is listed twice` });
    sources.add(id);
  });
};

const checkField = (field: ConfigField, path: string, errors: ManifestError[]): void => {
  const extra = field as { enum?: string[]; secret?: boolean; default?: unknown };
  if (field.type !== 'string' && extra.enum !== undefined) errors.push({ path: `${path}.enum`, message: `is only allowed on a "string" setting, this one is "${field.type}"` });
  if (field.type !== 'string' && extra.secret !== undefined) errors.push({ path: `${path}.secret`, message: `is only allowed on a "string" setting, this one is "${field.type}"` });
  if (extra.default === undefined) return;
  if (typeof extra.default !== field.type) {
    errors.push({ path: `${path}.default`, message: `must be a ${field.type} like the setting, got ${show(extra.default)}` });
  } else if (field.type === 'string' && field.enum && !field.enum.includes(field.default!)) {
    errors.push({ path: `${path}.default`, message: `must be one of enum (${field.enum.map(show).join(', ')}), got ${show(field.default)}` });
  }
};

const resolve = (ref: string): Node => {
  const name = ref.startsWith('#/$defs/') ? ref.slice('#/$defs/'.length) : undefined;
  const target = name === undefined ? undefined : root.$defs[name];
  if (!target) throw new Error(`manifest.schema.json: unresolvable $ref ${ref}`);
  return target;
};

const regex = (pattern: string): RegExp => {
  let compiled = patterns.get(pattern);
  if (!compiled) patterns.set(pattern, compiled = new RegExp(pattern, 'u'));
  return compiled;
};

const matchesType = (type: JsonType | JsonType[], value: unknown): boolean =>
  Array.isArray(type) ? type.some((t) => matchesType(t, value)) : type === 'object' ? isObject(value)
    : type === 'array' ? Array.isArray(value) : type === 'number' ? typeof value === 'number' && Number.isFinite(value)
    : typeof value === type;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const describeType = (type: Node['type']): string =>
  type === undefined ? 'a valid value' : Array.isArray(type) ? `a ${type.join(' or ')}` : type === 'array' ? 'an array' : type === 'object' ? 'an object' : `a ${type}`;

/** Strings say what they must look like; objects and arrays say their type first, then what they are. */
const expectation = (node: Node): string => {
  if (node === root) return 'an object (the manifest)';
  if (node.type !== 'object' && node.type !== 'array') return node.description ?? describeType(node.type);
  return node.description ? `${describeType(node.type)} (${node.description})` : describeType(node.type);
};

const describe = (node: Node | undefined): string => {
  const target = node?.$ref ? resolve(node.$ref) : node;
  return target ? expectation(target) : 'a value';
};

/** `a.b`, or `a["odd key"]` when the key is not a plain identifier, so every path is unambiguous. */
const join = (path: string, key: string): string =>
  /^[A-Za-z_$][\w$]*$/.test(key) ? (path ? `${path}.${key}` : key) : `${path}[${JSON.stringify(key)}]`;

/** A short, safe rendering of the offending value for messages (authors see it in the upload dialog). */
const show = (value: unknown): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  return String(value);
};
