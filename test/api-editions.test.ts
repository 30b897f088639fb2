import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import path from 'node:path';
import { issueLicense } from '@tagsonic/core/license';
import { generateKeyPairSync } from 'node:crypto';
import { issueLicenseCode } from '../cli/src/commands/license.ts';
import { guarded, requireV2 } from '../gateway/src/auth.ts';
import { ok, useEnvelopeErrors } from '../gateway/src/envelope.ts';
import { USER_PASSWORD, call, expectError, expectOk, login, startHarness, type Harness } from './api-harness.ts';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..');

let h: Harness;
beforeAll(async () => {
  // A V2-only route guarded by the product's own hook, as the V2 features (import collection,
  // duplicate check, generate strm, plugins, system, index, search) will be.
  h = await startHarness({
    beforeReady: async (app) => {
      await app.register(async (api) => {
        useEnvelopeErrors(api);
        api.post('/apimt/v2_only_probe/', { onRequest: guarded(requireV2) }, async () => ok({ fine: true }));
      });
    },
  });
});
afterAll(async () => h?.close());

const v2Probe = (auth: Parameters<typeof call>[1]) => call(h.app, auth, 'POST', '/apimt/v2_only_probe/', {});

describe('editions and activation', () => {
  it('a V1 user is refused V2 features with 40302 "V1 version restriction"', async () => {
    const s = await login(h.app, 'alice', USER_PASSWORD);
    const body = expectError(await v2Probe(s), 403, 'TAGSONIC_ERR_AUTH_V1_RESTRICTED', 40302);
    expect(body.message).toMatch(/^V1 version restriction/);
    expectError(await v2Probe('none'), 401);
  });

  it('activates with a code minted by the CLI function: V1 → V2 for N days, and the gate opens', async () => {
    const s = await login(h.app, 'alice', USER_PASSWORD);
    const { code, payload } = await issueLicenseCode(h.rt.config, { days: 30 });
    expect(code).toMatch(/^TSV2\.[\w-]+\.[\w-]+$/);
    const res = expectOk(await call(h.app, s, 'POST', '/user/active/', { code }));
    expect(res.message).toBe('激活成功！');
    expect(res.data).toMatchObject({ role: 'V2', is_forever: false });
    expect(new Date(res.data.active_until).getTime()).toBe(payload.expiresAt);
    const info = expectOk(await call(h.app, s, 'GET', '/user/info/')).data;
    expect(info).toMatchObject({ role: 'V2', is_forever: false });
    expectOk(await v2Probe(s));
    // The same account may submit its code again; another account may not use it.
    expectOk(await call(h.app, s, 'POST', '/user/active/', { code }));
    const admin = await login(h.app);
    expectError(await call(h.app, admin, 'POST', '/user/active/', { code }), 409, 'TAGSONIC_ERR_LICENSE_USED');
  });

  it('refuses tampered, foreign, expired and garbage codes clearly', async () => {
    const s = await login(h.app);
    const { code } = await issueLicenseCode(h.rt.config, { forever: true });
    const [prefix, body, sig] = code.split('.');
    const forged = JSON.parse(Buffer.from(body, 'base64url').toString());
    forged.id = 'another-id';
    const tampered = `${prefix}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${sig}`;
    const t = expectError(await call(h.app, s, 'POST', '/user/active/', { code: tampered }), 400, 'TAGSONIC_ERR_LICENSE_BAD_SIGNATURE');
    expect(t.message).toMatch(/not valid for this server/);
    const foreignKey = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    expectError(await call(h.app, s, 'POST', '/user/active/', { code: issueLicense(foreignKey, { forever: true }).code }), 400, 'TAGSONIC_ERR_LICENSE_BAD_SIGNATURE');
    const old = issueLicense(h.rt.secrets.licensePrivateKey, { days: 1, now: Date.now() - 3 * 86_400_000 }).code;
    const e = expectError(await call(h.app, s, 'POST', '/user/active/', { code: old }), 400, 'TAGSONIC_ERR_LICENSE_EXPIRED');
    expect(e.message).toMatch(/expired on \d{4}-\d\d-\d\d/);
    expectError(await call(h.app, s, 'POST', '/user/active/', { code: 'hello' }), 400, 'TAGSONIC_ERR_LICENSE_MALFORMED');
    expectError(await call(h.app, s, 'POST', '/user/active/', { code: '' }), 400, 'TAGSONIC_ERR_HTTP_INVALID');
    expectError(await call(h.app, s, 'POST', '/user/active/', { code: 'x', extra: 1 }), 400, 'TAGSONIC_ERR_HTTP_INVALID');
    expectError(await call(h.app, 'none', 'POST', '/user/active/', { code }), 401);
    expectError(await call(h.app, { cookieOnly: s }, 'POST', '/user/active/', { code }), 403, 'TAGSONIC_ERR_AUTH_CSRF');
    expect(expectOk(await call(h.app, s, 'GET', '/user/info/')).data.role).toBe('V1');
  });

  it('an expired V2 activation counts as V1', async () => {
    await h.rt.users.create({ username: 'bob', password: 'bob-password' });
    await h.rt.users.setRole('bob', 'V2', { activeUntil: new Date(Date.now() + 60_000) });
    const s = await login(h.app, 'bob', 'bob-password');
    expectOk(await v2Probe(s));
    await h.rt.store.collection('users').updateOne({ username: 'bob' }, { $set: { activeUntil: new Date(Date.now() - 1000) } });
    expectError(await v2Probe(s), 403, 'TAGSONIC_ERR_AUTH_V1_RESTRICTED', 40302);
    expect(expectOk(await call(h.app, s, 'GET', '/user/info/')).data).toMatchObject({ role: 'V1', is_forever: false, active_until: null });
  });

  it('a code given at sign-in activates; the CLI mints a permanent code the server accepts', async () => {
    const { stdout, stderr } = await run(process.execPath, ['--no-node-snapshot', path.join(ROOT, 'cli/src/main.ts'), 'license', 'issue', '--forever'], {
      env: { ...process.env, TAGSONIC_HOME: h.home },
    });
    expect(stderr).toMatch(/permanent/);
    const code = stdout.trim();
    const s = await login(h.app, 'admin', undefined, { code });
    const info = expectOk(await call(h.app, s, 'GET', '/user/info/')).data;
    expect(info).toMatchObject({ role: 'V2', is_forever: true, active_until: null });
    expectOk(await v2Probe(s));
    // Bad CLI usage is a clear error with exit code 2.
    await expect(run(process.execPath, ['--no-node-snapshot', path.join(ROOT, 'cli/src/main.ts'), 'license', 'issue', '--days', 'x'], { env: { ...process.env, TAGSONIC_HOME: h.home } })).rejects.toMatchObject({ code: 2 });
  });
});
