/**
 * manifest.schema.json is shipped for editors and other tools, so it must be a real JSON Schema that a
 * standard validator compiles in strict mode and that agrees with validateManifest. Ajv is not a
 * dependency of the sdk: it is only this test's independent second opinion.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import schema from './manifest.schema.json' with { type: 'json' };
import { validateManifest } from './validate-manifest.ts';

const valid = () => ({
  id: 'musicbrainz',
  name: 'MusicBrainz',
  version: '1.0.0',
  description: 'Recordings and releases from MusicBrainz, covers from the Cover Art Archive.',
  kind: 'tag-source',
  entry: 'index.js',
  config: { type: 'object', properties: { mirror: { type: 'string', title: 'Mirror', default: 'https://musicbrainz.org' } } },
  permissions: {
    http: { hosts: [{ host: 'musicbrainz.org', reason: 'Looks up recordings' }, { host: '*.coverartarchive.org', reason: 'Covers' }] },
    tags: { access: 'write', reason: 'Writes the tags the user picks' },
  },
});

/** Each edit breaks one rule the JSON Schema itself can express. */
const breakages: Array<[string, (m: any) => void]> = [
  ['unknown top-level key', (m) => { m.homepage = 'https://x'; }],
  ['unknown permission', (m) => { m.permissions.network = { reason: 'x' }; }],
  ['unknown key in a host grant', (m) => { m.permissions.http.hosts[0].port = 443; }],
  ['unknown key in a setting', (m) => { m.config.properties.mirror.placeholder = 'x'; }],
  ['bad setting key', (m) => { m.config.properties['Mirror URL'] = { type: 'string', title: 'x' }; }],
  ['bad id', (m) => { m.id = 'MusicBrainz'; }],
  ['bad version', (m) => { m.version = 'v1'; }],
  ['bad kind', (m) => { m.kind = 'source'; }],
  ['entry escaping the plugin', (m) => { m.entry = '../index.js'; }],
  ['permission without reason', (m) => { delete m.permissions.tags.reason; }],
  ['blank reason', (m) => { m.permissions.http.hosts[1].reason = '  '; }],
  ['host as URL', (m) => { m.permissions.http.hosts[0].host = 'https://musicbrainz.org'; }],
  ['host with a path', (m) => { m.permissions.http.hosts[0].host = 'musicbrainz.org/ws/2'; }],
  ['inner wildcard', (m) => { m.permissions.http.hosts[0].host = 'api.*.org'; }],
  ['missing permissions', (m) => { delete m.permissions; }],
];

describe('manifest.schema.json under an independent validator (Ajv, draft 2020-12, strict but for union types)', () => {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
  const check = ajv.compile(schema);

  it('compiles in strict mode and accepts a valid manifest, as validateManifest does', () => {
    expect(check(valid())).toBe(true);
    expect(validateManifest(valid()).ok).toBe(true);
  });

  it.each(breakages)('both reject: %s', (_, edit) => {
    const manifest = valid();
    edit(manifest);
    expect(check(manifest)).toBe(false);
    expect(validateManifest(manifest).ok).toBe(false);
  });
});
