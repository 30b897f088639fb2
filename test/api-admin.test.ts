import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { SubsonicCredentials } from '@tagsonic/core/users';
import { USER_PASSWORD, call, expectError, expectOk, login, startHarness, type Harness, type Session } from './api-harness.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
let h: Harness;
let admin: Session;
let alice: Session;
let creds: SubsonicCredentials;
beforeAll(async () => {
  h = await startHarness();
  admin = await login(h.app);
  alice = await login(h.app, 'alice', USER_PASSWORD);
  creds = new SubsonicCredentials(h.rt.store, h.rt.users, h.rt.secrets.subsonicKey);
});
afterAll(async () => h?.close());

describe('admin API', () => {
  it('is for administrators only: 401 anonymous, 403 for other users, 403 without CSRF', async () => {
    expectError(await call(h.app, 'none', 'GET', '/apimt/admin/users/'), 401);
    expectError(await call(h.app, alice, 'GET', '/apimt/admin/users/'), 403, 'TAGSONIC_ERR_AUTH_ADMIN_ONLY');
    expectError(await call(h.app, alice, 'POST', '/apimt/admin/users/', { username: 'mallory', password: 'mallory-password', is_admin: true }), 403, 'TAGSONIC_ERR_AUTH_ADMIN_ONLY');
    expectError(await call(h.app, { cookieOnly: admin }, 'POST', '/apimt/admin/users/', { username: 'x1', password: 'long-enough-pw' }), 403, 'TAGSONIC_ERR_AUTH_CSRF');
    expectError(await call(h.app, { cookieOnly: admin }, 'DELETE', '/apimt/admin/users/alice/'), 403, 'TAGSONIC_ERR_AUTH_CSRF');
    expect(await h.rt.users.findByName('mallory')).toBeNull();
  });

  it('lists, creates, sets roles and admin rights, resets passwords, deletes', async () => {
    const list = expectOk(await call(h.app, admin, 'GET', '/apimt/admin/users/')).data.users;
    expect(list.map((u: any) => u.username)).toEqual(['admin', 'alice']);
    expect(list[0]).toMatchObject({ role: 'V1', effective_role: 'V1', is_admin: true, has_subsonic_password: false, api_key_count: 0 });

    const created = expectOk(await call(h.app, admin, 'POST', '/apimt/admin/users/', { username: 'carol', password: 'carol-password', role: 'V2' })).data;
    expect(created).toMatchObject({ username: 'carol', role: 'V2', effective_role: 'V2', is_forever: true, is_admin: false });
    expectError(await call(h.app, admin, 'POST', '/apimt/admin/users/', { username: 'carol', password: 'carol-password' }), 409, 'TAGSONIC_ERR_USER_EXISTS');
    expectError(await call(h.app, admin, 'POST', '/apimt/admin/users/', { username: 'dave', password: 'short' }), 400, 'TAGSONIC_ERR_USER_WEAK_PASSWORD');
    expectError(await call(h.app, admin, 'POST', '/apimt/admin/users/', { username: 'dave', password: 'long-enough', role: 'V3' }), 400, 'TAGSONIC_ERR_HTTP_INVALID');
    expectError(await call(h.app, admin, 'POST', '/apimt/admin/users/', { username: 'dave', password: 'long-enough', sneaky: 1 }), 400, 'TAGSONIC_ERR_HTTP_INVALID');

    const until = new Date(Date.now() + 86_400_000).toISOString();
    const timed = expectOk(await call(h.app, admin, 'POST', '/apimt/admin/users/carol/role/', { role: 'V2', active_until: until })).data;
    expect(timed).toMatchObject({ role: 'V2', is_forever: false, active_until: until });
    expectError(await call(h.app, admin, 'POST', '/apimt/admin/users/carol/role/', { role: 'V2', active_until: '2001-01-01T00:00:00Z' }), 400, 'TAGSONIC_ERR_USER_BAD_DATE');
    expect(expectOk(await call(h.app, admin, 'POST', '/apimt/admin/users/carol/role/', { role: 'V1' })).data.effective_role).toBe('V1');
    expectError(await call(h.app, admin, 'POST', '/apimt/admin/users/nobody/role/', { role: 'V1' }), 404, 'TAGSONIC_ERR_USER_NOT_FOUND');

    expect(expectOk(await call(h.app, admin, 'POST', '/apimt/admin/users/carol/admin/', { is_admin: true })).data.is_admin).toBe(true);
    expectOk(await call(h.app, admin, 'POST', '/apimt/admin/users/carol/admin/', { is_admin: false }));
    // The last administrator keeps the rights and the account.
    expectError(await call(h.app, admin, 'POST', '/apimt/admin/users/admin/admin/', { is_admin: false }), 409, 'TAGSONIC_ERR_USER_LAST_ADMIN');
    expectError(await call(h.app, admin, 'DELETE', '/apimt/admin/users/admin/'), 409, 'TAGSONIC_ERR_USER_DELETE_SELF');

    const carol = await login(h.app, 'carol', 'carol-password');
    expectOk(await call(h.app, admin, 'POST', '/apimt/admin/users/carol/password/', { password: 'carol-new-password' }));
    expectError(await call(h.app, carol, 'GET', '/user/info/'), 401);
    await login(h.app, 'carol', 'carol-new-password');

    expectOk(await call(h.app, admin, 'DELETE', '/apimt/admin/users/carol/'));
    expectError(await call(h.app, admin, 'DELETE', '/apimt/admin/users/carol/'), 404, 'TAGSONIC_ERR_USER_NOT_FOUND');
    expect(await h.rt.users.findByName('carol')).toBeNull();
  });

  it('sets and clears Subsonic passwords and manages API keys the Subsonic API can verify', async () => {
    const set = expectOk(await call(h.app, admin, 'POST', '/apimt/admin/users/alice/subsonic_password/', { password: 'alice-sub' })).data;
    expect(set.has_subsonic_password).toBe(true);
    expect(await creds.verifySubsonicPassword('alice', 'alice-sub')).toMatchObject({ username: 'alice' });
    expectError(await call(h.app, admin, 'POST', '/apimt/admin/users/alice/subsonic_password/', { password: '' }), 400);

    const made = expectOk(await call(h.app, admin, 'POST', '/apimt/admin/users/alice/api_keys/', { name: 'DSub on phone' }));
    expect(made.data.key).toMatch(/^tsk_/);
    expect(await creds.verifyApiKey(made.data.key)).toMatchObject({ username: 'alice' });
    const keys = expectOk(await call(h.app, admin, 'GET', '/apimt/admin/users/alice/api_keys/')).data.keys;
    expect(keys).toHaveLength(1);
    expect(JSON.stringify(keys)).not.toContain(made.data.key);
    expectOk(await call(h.app, admin, 'DELETE', `/apimt/admin/users/alice/api_keys/${made.data.id}/`));
    expect(await creds.verifyApiKey(made.data.key)).toBeNull();
    expectError(await call(h.app, admin, 'DELETE', `/apimt/admin/users/alice/api_keys/${made.data.id}/`), 404, 'TAGSONIC_ERR_SUBSONIC_NO_KEY');

    const cleared = expectOk(await call(h.app, admin, 'DELETE', '/apimt/admin/users/alice/subsonic_password/')).data;
    expect(cleared.has_subsonic_password).toBe(false);
    // A fresh reader of the store: `creds` may keep alice's password for its short lookup cache.
    expect(await new SubsonicCredentials(h.rt.store, h.rt.users, h.rt.secrets.subsonicKey).verifySubsonicPassword('alice', 'alice-sub')).toBeNull();
  });

  it('tagsonic subsonic-password USER reads the password from standard input', async () => {
    await new Promise<void>((resolve, reject) => {
      const child = execFile(process.execPath, ['--no-node-snapshot', path.join(ROOT, 'cli/src/main.ts'), 'subsonic-password', 'alice'], {
        env: { ...process.env, TAGSONIC_HOME: h.home },
      }, (err, stdout) => (err ? reject(err) : (expect(stdout).toMatch(/Subsonic password of "alice" set/), resolve())));
      child.stdin!.end('from-the-cli\n');
    });
    expect(await creds.verifySubsonicPassword('alice', 'from-the-cli')).toMatchObject({ username: 'alice' });
  });
});
