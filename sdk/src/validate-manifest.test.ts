import { describe, expect, it } from 'vitest';
import schema from './manifest.schema.json' with { type: 'json' };
import { validateManifest, type ManifestError } from './validate-manifest.ts';

/** A manifest using every key, so "unknown key at every level" can be tested by adding one anywhere. */
const full = () => ({
  $schema: '../../sdk/src/manifest.schema.json',
  id: 'spotify_web-api',
  name: 'Spotify',
  version: '1.2.0-beta.1+build.7',
  description: 'Tags and covers from the Spotify Web API.',
  kind: 'tag-source',
  entry: 'dist/index.js',
  config: {
    type: 'object',
    required: ['client_id'],
    properties: {
      client_id: { type: 'string', title: 'Client ID', description: 'From the developer dashboard' },
      client_secret: { type: 'string', title: 'Client secret', secret: true },
      market: { type: 'string', title: 'Market', enum: ['US', 'JP'], default: 'US' },
      limit: { type: 'number', title: 'Results', default: 10 },
      prefer_explicit: { type: 'boolean', title: 'Prefer explicit versions', default: false },
    },
  },
  permissions: {
    http: {
      hosts: [
        { host: 'api.spotify.com', reason: 'Searches tracks' },
        { host: '*.scdn.co', reason: 'Downloads full-size covers' },
        { host: 'accounts.spotify.com', reason: 'Exchanges client credentials for a token' },
        { host: '127.0.0.1', reason: 'A local mirror' },
        { host: '[::1]', reason: 'A local mirror over IPv6' },
      ],
    },
    files: { access: 'write', reason: 'Saves covers beside the album' },
    ffmpeg: { reason: 'Reads durations' },
    fingerprint: { reason: 'Identifies untagged files' },
    tags: { access: 'read', reason: 'Reads title and artist to search' },
    sources: { ids: ['netease', 'itunes'], reason: 'Merges the candidates of several sources' },
  },
});

const minimal = () => ({
  id: 'hello',
  name: 'Hello',
  version: '0.1.0',
  description: 'Says hello.',
  kind: 'batch-action',
  entry: 'index.js',
  permissions: {},
});

const errorsOf = (value: unknown): ManifestError[] => {
  const result = validateManifest(value);
  if (result.ok) throw new Error('expected the manifest to be rejected');
  return result.errors;
};

/** Applies `edit` to a fresh full manifest and returns its errors. */
const errorsAfter = (edit: (m: ReturnType<typeof full> & Record<string, any>) => void): ManifestError[] => {
  const manifest = full() as ReturnType<typeof full> & Record<string, any>;
  edit(manifest);
  return errorsOf(manifest);
};

describe('validateManifest: valid manifests', () => {
  it('accepts a manifest using every key, and a minimal one, returning a copy', () => {
    const input = full();
    const result = validateManifest(input);
    expect(result).toEqual({ ok: true, manifest: input });
    if (result.ok) expect(result.manifest).not.toBe(input);
    expect(validateManifest(minimal()).ok).toBe(true);
  });
});

describe('validateManifest: unknown keys are rejected at every level', () => {
  it.each([
    ['', (m: any) => m],
    ['config', (m: any) => m.config],
    ['config.properties.client_id', (m: any) => m.config.properties.client_id],
    ['permissions', (m: any) => m.permissions],
    ['permissions.http', (m: any) => m.permissions.http],
    ['permissions.http.hosts[1]', (m: any) => m.permissions.http.hosts[1]],
    ['permissions.files', (m: any) => m.permissions.files],
    ['permissions.ffmpeg', (m: any) => m.permissions.ffmpeg],
    ['permissions.fingerprint', (m: any) => m.permissions.fingerprint],
    ['permissions.tags', (m: any) => m.permissions.tags],
    ['permissions.sources', (m: any) => m.permissions.sources],
  ])('at %s', (at, pick) => {
    const errors = errorsAfter((m) => { pick(m).permision = true; });
    expect(errors).toEqual([{ path: at ? `${at}.permision` : 'permision', message: expect.stringMatching(/^unknown key "permision"; allowed here: /) }]);
  });

  it('including __proto__ and keys that are not identifiers, with unambiguous paths', () => {
    const manifest = JSON.parse(JSON.stringify(minimal()).replace('{', '{"__proto__":{"x":1},"my key":1,'));
    expect(errorsOf(manifest).map((e) => e.path)).toEqual(['__proto__', '["my key"]']);
  });

  it('a setting key that breaks the key rule is reported on the key', () => {
    const errors = errorsAfter((m) => { (m.config.properties as any)['Client-ID'] = { type: 'string', title: 'x' }; });
    expect(errors).toEqual([{ path: 'config.properties["Client-ID"]', message: expect.stringContaining('a setting key of a-z, 0-9 and _') }]);
  });
});

describe('validateManifest: field rules', () => {
  it.each(['My-Plugin', 'a b', '-lead', '', 'x'.repeat(65), 'ünï'])('rejects the id %j', (id) => {
    expect(errorsAfter((m) => { m.id = id; })).toEqual([{ path: 'id', message: expect.stringContaining('1 to 64 characters of a-z, 0-9, _ and -') }]);
  });

  it.each(['1', '1.0', 'v1.0.0', '01.0.0', '1.0.0-', '1.0.0+', '1.0.0.0', 1])('rejects the version %j', (version) => {
    expect(errorsAfter((m) => { (m as any).version = version; })).toEqual([{ path: 'version', message: expect.stringContaining('semantic version') }]);
  });

  it.each(['source', 'Tag-Source', '', null])('rejects the kind %j', (kind) => {
    expect(errorsAfter((m) => { (m as any).kind = kind; })).toEqual([{ path: 'kind', message: expect.stringContaining('must be "tag-source" or "batch-action"') }]);
  });

  it.each(['/index.js', '../index.js', 'a/../../index.js', './index.js', 'index.ts', 'index.mjs', 'index', 'C:\\x.js'])('rejects the entry %j', (entry) => {
    expect(errorsAfter((m) => { m.entry = entry; }).map((e) => e.path)).toEqual(['entry']);
  });

  it('names every missing required key', () => {
    expect(errorsOf({}).map((e) => e.path)).toEqual(['id', 'name', 'version', 'description', 'kind', 'entry', 'permissions']);
    expect(errorsOf([])).toEqual([{ path: '', message: expect.stringContaining('must be an object') }]);
    expect(errorsOf(null)).toEqual([{ path: '', message: expect.stringContaining('got null') }]);
  });

  it('rejects blank names and descriptions', () => {
    expect(errorsAfter((m) => { m.name = '   '; m.description = ''; }).map((e) => e.path)).toEqual(['name', 'description']);
  });
});

describe('validateManifest: permissions carry a human reason', () => {
  it.each([
    ['permissions.files', (m: any) => m.permissions.files],
    ['permissions.ffmpeg', (m: any) => m.permissions.ffmpeg],
    ['permissions.fingerprint', (m: any) => m.permissions.fingerprint],
    ['permissions.tags', (m: any) => m.permissions.tags],
    ['permissions.http.hosts[2]', (m: any) => m.permissions.http.hosts[2]],
  ])('%s without a reason', (at, pick) => {
    expect(errorsAfter((m) => { delete pick(m).reason; })).toEqual([{ path: `${at}.reason`, message: expect.stringMatching(/^is required: a human sentence/) }]);
    expect(errorsAfter((m) => { pick(m).reason = ' \n'; })).toEqual([{ path: `${at}.reason`, message: expect.stringContaining('a human sentence') }]);
  });

  it('rejects an access other than read or write', () => {
    expect(errorsAfter((m) => { (m.permissions.files as any).access = 'all'; })).toEqual([{ path: 'permissions.files.access', message: 'must be "read" or "write", got "all"' }]);
  });

  it('rejects permissions given as true instead of an object with a reason', () => {
    expect(errorsAfter((m) => { (m.permissions as any).ffmpeg = true; })).toEqual([{ path: 'permissions.ffmpeg', message: expect.stringContaining('got true') }]);
  });

  it('rejects an empty host list', () => {
    expect(errorsAfter((m) => { m.permissions.http.hosts = []; })).toEqual([{ path: 'permissions.http.hosts', message: expect.stringContaining('got 0 items') }]);
  });
});

describe('validateManifest: http hosts are host names, not URLs, paths or patterns', () => {
  it.each([
    'https://api.spotify.com', 'api.spotify.com/v1', 'api.spotify.com?x=1', '//api.spotify.com', 'api.*.com',
    'api.spotify.*', '*', '*.', '**.spotify.com', 'a*.spotify.com', 'API.Spotify.com', 'api..spotify.com',
    '-api.spotify.com', 'api.spotify.com.', 'user@api.spotify.com', 'api.spotify.com:', 'api.spotify.com:0',
    'api.spotify.com:08', 'api.spotify.com:443', '127.0.0.1:9001', ' api.spotify.com', '::1', '',
  ])('rejects %j', (host) => {
    expect(errorsAfter((m) => { m.permissions.http.hosts[0].host = host; })).toEqual([
      { path: 'permissions.http.hosts[0].host', message: expect.stringContaining('no scheme, port, path, query or inner wildcard') },
    ]);
  });

  it('rejects a host listed twice', () => {
    expect(errorsAfter((m) => { m.permissions.http.hosts[1].host = 'api.spotify.com'; })).toEqual([
      { path: 'permissions.http.hosts[1].host', message: '"api.spotify.com" is listed twice' },
    ]);
  });
});

describe('validateManifest: the settings form', () => {
  it('rejects an unknown setting type', () => {
    expect(errorsAfter((m) => { (m.config.properties.limit as any).type = 'integer'; })).toEqual([
      { path: 'config.properties.limit.type', message: 'must be "string", "number" or "boolean", got "integer"' },
    ]);
  });

  it('rejects a default of another type, a default outside enum, and enum/secret on non-strings', () => {
    expect(errorsAfter((m) => {
      (m.config.properties.limit as any).default = '10';
      (m.config.properties.market as any).default = 'FR';
      (m.config.properties.prefer_explicit as any).enum = ['yes'];
      (m.config.properties.limit as any).secret = true;
    })).toEqual([
      { path: 'config.properties.market.default', message: 'must be one of enum ("US", "JP"), got "FR"' },
      { path: 'config.properties.limit.secret', message: 'is only allowed on a "string" setting, this one is "number"' },
      { path: 'config.properties.limit.default', message: 'must be a number like the setting, got "10"' },
      { path: 'config.properties.prefer_explicit.enum', message: 'is only allowed on a "string" setting, this one is "boolean"' },
    ]);
  });

  it('rejects a required key that is not a setting', () => {
    expect(errorsAfter((m) => { m.config.required.push('client_token'); })).toEqual([
      { path: 'config.required[1]', message: 'names "client_token", which is not a key of config.properties' },
    ]);
  });
});

describe('manifest.schema.json', () => {
  /** The validator interprets only these keywords; a new one in the schema would be silently ignored. */
  const known = new Set(['$schema', '$id', '$defs', '$ref', 'title', 'description', 'type', 'enum', 'pattern', 'minLength',
    'maxLength', 'minItems', 'maxItems', 'items', 'properties', 'required', 'additionalProperties', 'propertyNames']);

  const walk = (node: any, path: string, visit: (node: any, path: string) => void): void => {
    visit(node, path);
    for (const [key, child] of Object.entries(node)) {
      if (key === 'properties' || key === '$defs') for (const [name, sub] of Object.entries(child as object)) walk(sub, `${path}/${key}/${name}`, visit);
      else if (['items', 'propertyNames', 'additionalProperties'].includes(key) && typeof child === 'object') walk(child, `${path}/${key}`, visit);
    }
  };

  it('uses only the keywords the validator implements, and closes every object', () => {
    walk(schema, '#', (node, path) => {
      for (const key of Object.keys(node)) expect(known.has(key), `${path}: ${key}`).toBe(true);
      if (node.type === 'object') expect(node.additionalProperties, `${path} must not allow unknown keys`).not.toBe(true);
      if (node.type === 'object' && node.additionalProperties === undefined) throw new Error(`${path} leaves additionalProperties open`);
    });
  });
});

describe('validateManifest: the sources grant (smart_tag)', () => {
  it('accepts plugin ids with a reason', () => {
    const result = validateManifest(full());
    expect(result.ok && result.manifest.permissions.sources).toEqual({ ids: ['netease', 'itunes'], reason: 'Merges the candidates of several sources' });
  });

  it('rejects ids that are not plugin ids, an empty list, a missing reason, a repeated id and the plugin itself', () => {
    expect(errorsAfter((m) => { m.permissions.sources.ids = ['Net Ease']; })).toEqual([{ path: 'permissions.sources.ids[0]', message: expect.stringContaining('a plugin id') }]);
    expect(errorsAfter((m) => { m.permissions.sources.ids = []; }).map((e) => e.path)).toEqual(['permissions.sources.ids']);
    expect(errorsAfter((m) => { delete (m.permissions.sources as any).reason; }).map((e) => e.path)).toEqual(['permissions.sources.reason']);
    expect(errorsAfter((m) => { m.permissions.sources.ids = ['itunes', 'itunes']; })).toEqual([{ path: 'permissions.sources.ids[1]', message: '"itunes" is listed twice' }]);
    expect(errorsAfter((m) => { m.permissions.sources.ids = [m.id]; })).toEqual([{ path: 'permissions.sources.ids[0]', message: expect.stringContaining('the plugin itself') }]);
  });
});
