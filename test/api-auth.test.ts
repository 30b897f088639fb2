import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { ADMIN_PASSWORD, USER_PASSWORD, call, expectError, expectOk, login, startHarness, type Harness } from './api-harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

describe('POST /apimt/token/', () => {
  it('signs in: token in the body, HttpOnly jwt cookie and readable CSRF cookie for 7 days', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/apimt/token/', payload: { username: 'admin', password: ADMIN_PASSWORD, code: '' } });
    const body = expectOk(res);
    expect(body.token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(body.data).toMatchObject({ username: 'admin', role: 'V1', is_admin: true, is_forever: false });
    const auth = res.cookies.find((c) => c.name === 'AUTHORIZATION')!;
    expect(auth.value).toBe(`jwt ${body.token}`);
    expect(auth).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', maxAge: 7 * 86400 });
    expect(auth.secure).toBeFalsy();
    const csrf = res.cookies.find((c) => c.name === 'csrftoken')!;
    expect(csrf.httpOnly).toBeFalsy();
    expect(csrf.value).toBe(body.data.csrf_token);
  });

  it('refuses wrong passwords and unknown users with the same clear message', async () => {
    const a = expectError(await h.app.inject({ method: 'POST', url: '/apimt/token/', payload: { username: 'alice', password: 'nope-nope' } }), 401, 'TAGSONIC_ERR_AUTH_BAD_CREDENTIALS');
    const b = expectError(await h.app.inject({ method: 'POST', url: '/apimt/token/', payload: { username: 'nobody', password: 'nope-nope' } }), 401, 'TAGSONIC_ERR_AUTH_BAD_CREDENTIALS');
    expect(a.message).toBe('Wrong username or password.');
    expect(b.message).toBe(a.message);
  });

  it('validates the payload: missing fields and extra keys are 400 envelopes', async () => {
    expectError(await h.app.inject({ method: 'POST', url: '/apimt/token/', payload: { username: 'admin' } }), 400, 'TAGSONIC_ERR_HTTP_INVALID');
    expectError(await h.app.inject({ method: 'POST', url: '/apimt/token/', payload: { username: 'admin', password: 'x', admin: true } }), 400, 'TAGSONIC_ERR_HTTP_INVALID');
    expectError(await h.app.inject({ method: 'POST', url: '/apimt/token/', payload: { username: '', password: 'x' } }), 400);
    expectError(await h.app.inject({ method: 'POST', url: '/apimt/token/', headers: { 'content-type': 'application/json' }, payload: '{"username":' }), 400);
  });
  // Sign-in limits (429 per address, slow-down per account): test/api-lockout.test.ts.
});

describe('sessions: cookies, CSRF, header clients', () => {
  it('GET /user/info/ answers for a cookie session and a header client, 401 without', async () => {
    const s = await login(h.app);
    const info = expectOk(await call(h.app, { cookieOnly: s }, 'GET', '/user/info/'));
    expect(info.data).toMatchObject({ username: 'admin', role: 'V1', is_forever: false, is_admin: true, salt: '', hash: '', sys_dict: { mi_play_in_pl: 0, background_url: null } });
    expect(info.data.version).toEqual({ display: '2.4.3', project: '20250516' });
    expectOk(await call(h.app, { header: `jwt ${s.token}` }, 'GET', '/user/info/'));
    expectError(await call(h.app, 'none', 'GET', '/user/info/'), 401, 'TAGSONIC_ERR_AUTH_REQUIRED');
    expectError(await call(h.app, { header: 'jwt not.a.token' }, 'GET', '/user/info/'), 401, 'TAGSONIC_ERR_AUTH_INVALID');
    expectError(await call(h.app, { header: `Bearer ${s.token}` }, 'GET', '/user/info/'), 401);
  });

  it('cookie-authenticated mutations need the CSRF token of their own session; header clients do not', async () => {
    const s = await login(h.app);
    const other = await login(h.app, 'alice', USER_PASSWORD);
    const body = { full_path: h.media };
    expectError(await call(h.app, { cookieOnly: s }, 'POST', '/apimt/update_folder_state/', body), 403, 'TAGSONIC_ERR_AUTH_CSRF');
    expectError(await call(h.app, { csrf: 'abc.def', session: s }, 'POST', '/apimt/update_folder_state/', body), 403, 'TAGSONIC_ERR_AUTH_CSRF');
    // Another session's valid token does not work: tokens are bound to the session.
    expectError(await call(h.app, { csrf: other.csrf, session: s }, 'POST', '/apimt/update_folder_state/', body), 403, 'TAGSONIC_ERR_AUTH_CSRF');
    // CSRF is checked before the body: a CSRF failure with a bad body is still 403.
    expectError(await call(h.app, { cookieOnly: s }, 'POST', '/apimt/update_folder_state/', { bogus: 1 }), 403);
    expectOk(await call(h.app, s, 'POST', '/apimt/update_folder_state/', body));
    expectOk(await call(h.app, { header: `jwt ${s.token}` }, 'POST', '/apimt/update_folder_state/', body));
  });

  it('a password reset ends the sessions signed before it', async () => {
    const s = await login(h.app, 'alice', USER_PASSWORD);
    await h.rt.users.setPassword('alice', 'alice-second-password');
    expectError(await call(h.app, s, 'GET', '/user/info/'), 401, 'TAGSONIC_ERR_AUTH_INVALID');
    await h.rt.users.setPassword('alice', USER_PASSWORD);
  });

  it('POST /logout/ clears both cookies, with or without a session', async () => {
    const s = await login(h.app);
    for (const auth of [s, 'none'] as const) {
      const res = await call(h.app, auth, 'POST', '/logout/');
      expectOk(res);
      const names = res.cookies.filter((c) => c.value === '' && (c.maxAge === 0 || (c.expires && c.expires.getTime() <= Date.now()))).map((c) => c.name);
      expect(names.sort()).toEqual(['AUTHORIZATION', 'csrftoken']);
    }
  });

  it('/user/info/ carries salt and md5(subsonic password + salt) once a Subsonic password is set', async () => {
    const s = await login(h.app);
    expectOk(await call(h.app, s, 'POST', '/apimt/admin/users/admin/subsonic_password/', { password: 'sub-sonic-pw' }));
    const info = expectOk(await call(h.app, s, 'GET', '/user/info/')).data;
    expect(info.salt).toMatch(/^[0-9a-f]{12}$/);
    expect(info.hash).toBe(createHash('md5').update(`sub-sonic-pw${info.salt}`).digest('hex'));
  });

  it('every answer carries the security headers', async () => {
    const res = await call(h.app, 'none', 'GET', '/user/info/');
    expect(res.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    expect(res.headers['content-security-policy']).toMatch(/img-src 'self' data: blob:/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});
