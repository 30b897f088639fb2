/**
 * Plugin management routes (/mod, /actionMod) through the real gateway, store and bus: the lists and details,
 * upload of real zips and single-file scripts, enable, settings with masked secrets, a new version, roll back and
 * remove; non-admins refused, unsafe packages refused with the envelope, and every change announced to workers.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import yazl from 'yazl';
import { PLUGIN_CHANGED_EVENT } from '@tagsonic/core/plugins';
import { call, expectError, expectOk, login, startHarness, USER_PASSWORD, type Harness, type Session } from './api-harness.ts';

let h: Harness;
let admin: Session;
let alice: Session;
const events: unknown[] = [];

beforeAll(async () => {
  h = await startHarness();
  admin = await login(h.app);
  alice = await login(h.app, 'alice', USER_PASSWORD);
  await h.rt.bus.subscribe(PLUGIN_CHANGED_EVENT, (_subject, payload) => void events.push(payload));
}, 60_000);
afterAll(async () => {
  await h?.close();
});

const manifest = (over: Record<string, unknown> = {}) => JSON.parse(JSON.stringify({
  id: 'hello', name: 'Hello Source', version: '1.0.0', description: 'Finds hello songs.', kind: 'tag-source', entry: 'index.js',
  config: {
    type: 'object', required: ['token'],
    properties: { token: { type: 'string', title: 'Token', secret: true }, region: { type: 'string', title: 'Region', enum: ['us', 'jp'], default: 'us' } },
  },
  permissions: { http: { hosts: [{ host: 'api.hello.example', reason: 'Searches songs' }] }, tags: { access: 'read', reason: 'Reads the title' } },
  ...over,
})) as Record<string, unknown>;
const code = (version: string) => `module.exports = { search: async () => [] }; // ${version}`;

async function zip(entries: Array<{ name: string; data: string; mode?: number }>): Promise<Buffer> {
  const file = new yazl.ZipFile();
  for (const e of entries) file.addBuffer(Buffer.from(e.data), e.name, { mode: e.mode });
  file.end();
  const chunks: Buffer[] = [];
  for await (const chunk of file.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

function upload(auth: Session, fileName: string, data: Buffer) {
  const boundary = `----tagsonic${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="upload_file"; filename="${fileName}"\r\ncontent-type: application/octet-stream\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return call(h.app, auth, 'POST', '/apimt/upload_script/', payload, { 'content-type': `multipart/form-data; boundary=${boundary}` });
}
const post = (auth: Session, name: string, body: unknown) => call(h.app, auth, 'POST', `/apimt/${name}/`, body);

describe('plugin management routes', () => {
  it('uploads a zip, lists it, enables it after configuring, rolls a new version back and removes it', async () => {
    const uploaded = expectOk(await upload(admin, 'hello.zip', await zip([
      { name: 'hello/manifest.json', data: JSON.stringify(manifest()) }, { name: 'hello/index.js', data: code('1.0.0') }, { name: 'hello/README.md', data: '# Hello' },
    ])));
    expect(uploaded.data).toMatchObject({
      id: 'hello', name: 'Hello Source', version: '1.0.0', kind: 'tag-source', builtin: false, enabled: false, disabled_reason: 'admin',
      permissions: [
        { kind: 'http', detail: 'api.hello.example', reason: 'Searches songs' },
        { kind: 'tags', detail: 'read', reason: 'Reads the title' },
      ],
      health: { calls: 0, failures: 0, p50_ms: null, last_success_at: null, last_error: null },
    });
    await vi.waitFor(() => expect(events).toContainEqual({ id: 'hello' }));

    // Any signed-in user sees the lists; only tag sources on /mod.
    const listed = expectOk(await post(alice, 'get_resource_script', { search: 'hello' }));
    expect(listed.data).toMatchObject({ total: 1, page: 1, page_size: 20, total_page: 1, items: [{ id: 'hello' }] });
    expect(expectOk(await post(alice, 'get_action_script', {})).data).toMatchObject({ total: 0, items: [] });

    // Required setting missing: enabling is refused until it is set.
    expectError(await post(admin, 'enable_script', { id: 'hello', enabled: true }), 400, 'TAGSONIC_ERR_PLUGIN_CONFIG_INVALID');
    expectError(await post(admin, 'configure_script', { id: 'hello', config: { token: 'abc', region: 'fr' } }), 400, 'TAGSONIC_ERR_PLUGIN_CONFIG_INVALID');
    expectOk(await post(admin, 'configure_script', { id: 'hello', base_url: 'http://mirror.local:8080/', config: { token: 's3cret', region: 'jp' } }));
    const detail = expectOk(await post(alice, 'script_detail', { id: 'hello' })).data;
    expect(detail.settings).toEqual({ base_url: 'http://mirror.local:8080', config: { token: '********', region: 'jp' } });
    expect(JSON.stringify(detail)).not.toContain('s3cret');
    expect(detail).toMatchObject({ env_base_url: null, config_schema: { required: ['token'] }, versions: [{ version: '1.0.0', origin: 'upload', active: true }] });
    // The mask sent back keeps the stored secret.
    expectOk(await post(admin, 'configure_script', { id: 'hello', config: { token: '********', region: 'us' } }));
    expect((await h.rt.plugins.get('hello'))?.settings.config).toEqual({ token: 's3cret', region: 'us' });
    expect(expectOk(await post(admin, 'enable_script', { id: 'hello', enabled: true })).data).toMatchObject({ enabled: true, disabled_reason: null });

    // A new version (single .js) becomes active and keeps the state; roll back; remove it; remove the plugin.
    const js = `/* @tagsonic-manifest ${JSON.stringify(manifest({ version: '1.1.0' }))} */\n${code('1.1.0')}`;
    expect(expectOk(await upload(admin, 'hello.js', Buffer.from(js))).data).toMatchObject({ version: '1.1.0', enabled: true });
    expect((await h.rt.plugins.active('hello'))?.code).toContain('// 1.1.0');
    expectError(await upload(admin, 'hello.js', Buffer.from(js.replace('// 1.1.0', '// changed'))), 409, 'TAGSONIC_ERR_PLUGIN_VERSION_EXISTS');
    expect(expectOk(await post(admin, 'activate_script_version', { id: 'hello', version: '1.0.0' })).data.version).toBe('1.0.0');
    expect((await h.rt.plugins.active('hello'))?.code).toContain('// 1.0.0');
    expectError(await post(admin, 'activate_script_version', { id: 'hello', version: '3.0.0' }), 404, 'TAGSONIC_ERR_PLUGIN_VERSION_NOT_FOUND');
    expect(expectOk(await post(admin, 'remove_script', { id: 'hello', version: '1.1.0' })).data).toMatchObject({ version: '1.0.0' });
    expect(expectOk(await post(admin, 'script_detail', { id: 'hello' })).data.versions.map((v: { version: string }) => v.version)).toEqual(['1.0.0']);
    events.length = 0;
    expect(expectOk(await post(admin, 'remove_script', { id: 'hello' })).data).toBeNull();
    await vi.waitFor(() => expect(events).toEqual([{ id: 'hello' }]));
    expectError(await post(admin, 'script_detail', { id: 'hello' }), 404, 'TAGSONIC_ERR_PLUGIN_NOT_INSTALLED');
  });

  it('refuses every change from a non-admin and from anonymous callers, and lists only for signed-in users', async () => {
    const pkg = await zip([{ name: 'manifest.json', data: JSON.stringify(manifest()) }, { name: 'index.js', data: code('1.0.0') }]);
    expectError(await upload(alice, 'hello.zip', pkg), 403, 'TAGSONIC_ERR_AUTH_ADMIN_ONLY');
    for (const [name, body] of [
      ['enable_script', { id: 'lrclib', enabled: false }], ['configure_script', { id: 'lrclib', base_url: 'http://x.example' }],
      ['activate_script_version', { id: 'lrclib', version: '1.0.0' }], ['remove_script', { id: 'lrclib' }],
    ] as const) {
      expectError(await post(alice, name, body), 403, 'TAGSONIC_ERR_AUTH_ADMIN_ONLY');
    }
    expect((await call(h.app, 'none', 'POST', '/apimt/get_resource_script/', {})).statusCode).toBe(401);
    expect(await h.rt.plugins.get('hello')).toBeNull();
  });

  it('refuses unsafe or broken packages with the envelope and installs nothing', async () => {
    const base = [{ name: 'manifest.json', data: JSON.stringify(manifest({ id: 'evil' })) }, { name: 'index.js', data: code('1.0.0') }];
    // yazl refuses "../" names, so the name is patched in the bytes (same length).
    const slip = Buffer.from((await zip([...base, { name: 'xx/evil.sh', data: 'x' }])).toString('latin1').replaceAll('xx/evil.sh', '../evil.sh'), 'latin1');
    const body = expectError(await upload(admin, 'evil.zip', slip), 400, 'TAGSONIC_ERR_PLUGIN_PACKAGE_UNSAFE_PATH');
    expect(body.message).toContain('../evil.sh');
    expectError(await upload(admin, 'evil.zip', await zip([...base, { name: 'link', data: '/etc/passwd', mode: 0o120777 }])), 400, 'TAGSONIC_ERR_PLUGIN_PACKAGE_SYMLINK');
    expectError(await upload(admin, 'evil.zip', await zip([{ name: 'manifest.json', data: JSON.stringify(manifest({ id: 'evil', permision: {} })) }])), 400, 'TAGSONIC_ERR_PLUGIN_MANIFEST_INVALID');
    expectError(await upload(admin, 'evil.exe', Buffer.from('MZ')), 400, 'TAGSONIC_ERR_PLUGIN_PACKAGE_UNSUPPORTED_TYPE');
    expectError(await upload(admin, 'big.zip', Buffer.alloc(3 * 1024 * 1024)), 400, 'TAGSONIC_ERR_PLUGIN_PACKAGE_TOO_LARGE');
    expectError(await post(admin, 'upload_script', {}), 400, 'TAGSONIC_ERR_UPLOAD_NOT_MULTIPART');
    expect(await h.rt.plugins.get('evil')).toBeNull();
  });

  it('keeps a built-in: its shipped version cannot be removed, and an upload over it can', async () => {
    await h.rt.plugins.syncBuiltins([{ manifest: manifest({ id: 'shipped', config: undefined }) as never, code: code('1.0.0') }]);
    expect(expectOk(await post(alice, 'get_resource_script', { search: 'shipped' })).data.items).toMatchObject([{ id: 'shipped', builtin: true, enabled: true }]);
    expectError(await post(admin, 'remove_script', { id: 'shipped' }), 409, 'TAGSONIC_ERR_PLUGIN_BUILTIN_VERSION');
    expectOk(await upload(admin, 'shipped.zip', await zip([{ name: 'manifest.json', data: JSON.stringify(manifest({ id: 'shipped', version: '2.0.0', config: undefined })) }, { name: 'index.js', data: code('2.0.0') }])));
    expect(expectOk(await post(admin, 'remove_script', { id: 'shipped' })).data).toMatchObject({ version: '1.0.0', builtin: true });
  });
});
