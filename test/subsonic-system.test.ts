/**
 * The /rest framework and the system and scan groups: the envelope in XML, JSON and JSONP
 * (snapshots), every authentication mechanism and each failure code, GET and form POST, `.view`
 * aliases, not-implemented and unknown methods, secrets kept out of logs.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SubsonicCredentials } from '@tagsonic/core/users';
import { ADMIN, ALICE, asAdmin, asAlice, both, fails, ok, parseXml, rest, startSubsonic, type SubsonicHarness } from './subsonic-harness.ts';
import { validateResponse } from './subsonic-schemas.ts';

const md5 = (s: string) => createHash('md5').update(s, 'utf8').digest('hex');
const hex = (s: string) => Buffer.from(s, 'utf8').toString('hex');

describe('subsonic framework and system', () => {
  let h: SubsonicHarness;
  const logLines: string[] = [];
  beforeAll(async () => {
    h = await startSubsonic({ scan: false, logLines });
    // bob has a dashboard login but no Subsonic password.
    await h.rt.users.create({ username: 'bob', password: 'bob-login-password' });
  });
  afterAll(() => h?.close());

  describe('envelope', () => {
    it('answers ping in XML by default', async () => {
      const res = await rest(h.app, 'ping');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/xml; charset=utf-8');
      expect(res.body).toMatchInlineSnapshot(`
        "<?xml version="1.0" encoding="UTF-8"?>
        <subsonic-response xmlns="http://subsonic.org/restapi" status="ok" version="1.16.1" type="tagsonic" serverVersion="2.4.3 (test)" openSubsonic="true"/>"
      `);
    });

    it('answers ping in JSON', async () => {
      const res = await rest(h.app, 'ping', {}, { format: 'json' });
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.body).toMatchInlineSnapshot(`"{"subsonic-response":{"status":"ok","version":"1.16.1","type":"tagsonic","serverVersion":"2.4.3 (test)","openSubsonic":true}}"`);
    });

    it('answers JSONP with the callback, and refuses to call anything but a plain name', async () => {
      const res = await rest(h.app, 'ping', { f: 'jsonp', callback: 'app.cb_1' });
      expect(res.headers['content-type']).toBe('application/javascript; charset=utf-8');
      expect(res.body).toMatchInlineSnapshot(`"app.cb_1({"subsonic-response":{"status":"ok","version":"1.16.1","type":"tagsonic","serverVersion":"2.4.3 (test)","openSubsonic":true}});"`);
      const evil = await rest(h.app, 'ping', { f: 'jsonp', callback: 'alert(1);x' });
      expect(evil.headers['content-type']).toBe('text/xml; charset=utf-8');
      expect(evil.body).not.toContain('alert');
      const unknown = await rest(h.app, 'ping', { f: 'yaml' });
      expect(unknown.headers['content-type']).toBe('text/xml; charset=utf-8');
    });

    it('writes errors in the body with HTTP 200, in every format', async () => {
      const x = await rest(h.app, 'ping', {}, { auth: { u: ADMIN.username, p: 'wrong' } });
      expect(x.statusCode).toBe(200);
      expect(x.body).toMatchInlineSnapshot(`
        "<?xml version="1.0" encoding="UTF-8"?>
        <subsonic-response xmlns="http://subsonic.org/restapi" status="failed" version="1.16.1" type="tagsonic" serverVersion="2.4.3 (test)" openSubsonic="true"><error code="40" message="Wrong username or password."/></subsonic-response>"
      `);
      const j = await rest(h.app, 'ping', {}, { auth: { u: ADMIN.username, p: 'wrong' }, format: 'json' });
      expect(j.body).toMatchInlineSnapshot(`"{"subsonic-response":{"status":"failed","version":"1.16.1","type":"tagsonic","serverVersion":"2.4.3 (test)","openSubsonic":true,"error":{"code":40,"message":"Wrong username or password."}}}"`);
      const p = await rest(h.app, 'ping', { f: 'jsonp', callback: 'cb' }, { auth: { u: ADMIN.username, p: 'wrong' } });
      expect(p.body).toMatch(/^cb\(\{"subsonic-response":\{"status":"failed".*"code":40/);
    });
  });

  describe('authentication', () => {
    it('accepts u+p in clear and as enc:hex (UTF-8), u+t+s, and apiKey', async () => {
      await ok(h.app, 'ping', {}, { auth: { u: ADMIN.username, p: ADMIN.subsonic } });
      await ok(h.app, 'ping', {}, { auth: { u: ADMIN.username, p: `enc:${hex(ADMIN.subsonic)}` } });
      await ok(h.app, 'ping', {}, { auth: { u: ADMIN.username, p: `enc:${hex(ADMIN.subsonic).toUpperCase()}` } });
      const s = 'c19b2d';
      await ok(h.app, 'ping', {}, { auth: { u: ALICE.username, t: md5(ALICE.subsonic + s), s } });
      const r = await ok(h.app, 'tokenInfo', {}, { auth: { apiKey: h.aliceKey } });
      expect(r.tokenInfo).toEqual({ username: ALICE.username });
      const mine = await both(h.app, 'tokenInfo', {}, { auth: asAdmin });
      expect(mine.tokenInfo.username).toBe(ADMIN.username);
    });

    it('40: wrong, empty or someone else’s password; unknown or differently cased user; the login password; no Subsonic password', async () => {
      await fails(h.app, 'ping', {}, 40, { auth: { u: ADMIN.username, p: ALICE.subsonic } });
      await fails(h.app, 'ping', {}, 40, { auth: { u: ADMIN.username, p: '' } });
      await fails(h.app, 'ping', {}, 40, { auth: { u: 'ADMIN', p: ADMIN.subsonic } });
      await fails(h.app, 'ping', {}, 40, { auth: { u: 'nobody', p: ADMIN.subsonic } });
      await fails(h.app, 'ping', {}, 40, { auth: { u: ADMIN.username, p: ADMIN.password } });
      await fails(h.app, 'ping', {}, 40, { auth: { u: ADMIN.username, p: 'enc:zz' } });
      await fails(h.app, 'ping', {}, 40, { auth: { u: 'bob', p: 'bob-login-password' } });
      await fails(h.app, 'ping', {}, 40, { auth: { u: 'bob', t: md5('bob-login-password' + 'salt'), s: 'salt' } });
      await fails(h.app, 'ping', {}, 40, { auth: { u: ALICE.username, t: md5(ALICE.subsonic + 'aaa'), s: 'bbb' } });
      await fails(h.app, 'ping', {}, 40, { auth: { u: ALICE.username, t: 'not-hex', s: 'aaa' } });
    });

    it('10: missing credentials, u, v or c', async () => {
      await fails(h.app, 'ping', {}, 10, { auth: 'none' });
      await fails(h.app, 'ping', {}, 10, { auth: { p: ADMIN.subsonic } });
      await fails(h.app, 'ping', {}, 10, { auth: { u: '', p: ADMIN.subsonic } });
      await fails(h.app, 'ping', {}, 10, { auth: { u: ADMIN.username } });
      await fails(h.app, 'ping', {}, 10, { auth: { u: ALICE.username, t: md5(ALICE.subsonic + 'x') } });
      await fails(h.app, 'ping', {}, 10, { base: { c: 'x' } });
      await fails(h.app, 'ping', {}, 10, { base: { v: '1.16.1' } });
    });

    it('20/30: protocol versions the server cannot speak', async () => {
      expect((await fails(h.app, 'ping', {}, 20, { base: { v: '0.9.0', c: 'x' } })).message).toMatch(/client must upgrade/);
      expect((await fails(h.app, 'ping', {}, 30, { base: { v: '2.0.0', c: 'x' } })).message).toMatch(/1\.16\.1/);
      await fails(h.app, 'ping', {}, 30, { base: { v: '1.17.0', c: 'x' } });
      await ok(h.app, 'ping', {}, { base: { v: '1.2.0', c: 'x' } });
      await ok(h.app, 'ping', {}, { base: { v: '1.16', c: 'x' } });
      await fails(h.app, 'ping', {}, 0, { base: { v: 'latest', c: 'x' } });
    });

    it('42: JWT; 43: conflicting mechanisms; 44: bad API keys', async () => {
      await fails(h.app, 'ping', { jwt: 'abc.def.ghi' }, 42, { auth: 'none' });
      await fails(h.app, 'ping', {}, 43, { auth: { u: ADMIN.username, p: ADMIN.subsonic, t: md5(ADMIN.subsonic + 'a'), s: 'a' } });
      await fails(h.app, 'ping', {}, 43, { auth: { apiKey: h.aliceKey, u: ALICE.username } });
      await fails(h.app, 'ping', {}, 43, { auth: { apiKey: h.aliceKey, p: ALICE.subsonic } });
      await fails(h.app, 'ping', {}, 44, { auth: { apiKey: 'tsk_not-a-real-key' } });
      await fails(h.app, 'ping', {}, 44, { auth: { apiKey: '' } });
      await fails(h.app, 'ping', {}, 44, { auth: { apiKey: h.aliceKey.slice(0, -1) } });
    });

    it('a revoked API key stops working at once', async () => {
      const creds = new SubsonicCredentials(h.rt.store, h.rt.users, h.rt.secrets.subsonicKey);
      const { key, id } = await creds.createApiKey(ALICE.username, 'temporary');
      await ok(h.app, 'ping', {}, { auth: { apiKey: key } });
      await creds.revokeApiKey(ALICE.username, id);
      await fails(h.app, 'ping', {}, 44, { auth: { apiKey: key } });
    });

    it('keeps p, t, s and apiKey out of the logs', async () => {
      logLines.length = 0;
      await ok(h.app, 'ping', {}, { auth: { u: ADMIN.username, p: ADMIN.subsonic } });
      await ok(h.app, 'ping', {}, { auth: { u: ALICE.username, t: md5(ALICE.subsonic + 'logsalt'), s: 'logsalt' } });
      await ok(h.app, 'ping', {}, { auth: { apiKey: h.aliceKey } });
      await fails(h.app, 'ping', {}, 40, { auth: { u: ADMIN.username, p: 'enc:' + hex('leaky-guess') } });
      const all = logLines.join('\n');
      expect(all).toContain('/rest/ping');
      expect(all).toContain('[redacted]');
      for (const secret of [encodeURIComponent(ADMIN.subsonic), ADMIN.subsonic, md5(ALICE.subsonic + 'logsalt'), 'logsalt', h.aliceKey, hex('leaky-guess')]) {
        expect(all).not.toContain(secret);
      }
    });
  });

  describe('transport', () => {
    it('serves every method as name and name.view, by GET and by form POST', async () => {
      await ok(h.app, 'ping', {}, { path: '/rest/ping.view' });
      await ok(h.app, 'ping', {}, { post: true });
      await ok(h.app, 'getLicense', {}, { post: true, path: '/rest/getLicense.view' });
      // Parameters split between the query string and the body.
      const res = await h.app.inject({
        method: 'POST',
        url: '/rest/tokenInfo?f=json&v=1.16.1&c=form',
        headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
        payload: new URLSearchParams({ u: ALICE.username, p: ALICE.subsonic }).toString(),
      });
      expect(res.json()['subsonic-response'].tokenInfo.username).toBe(ALICE.username);
      // A POST without a form body (parameters in the query only) works too.
      const bare = await h.app.inject({ method: 'POST', url: `/rest/ping?f=json&v=1.16.1&c=x&u=admin&p=${encodeURIComponent(ADMIN.subsonic)}` });
      expect(bare.json()['subsonic-response'].status).toBe('ok');
    });

    it('answers methods it does not implement with 501 and unknown ones with 404, in the envelope', async () => {
      for (const m of ['getPodcasts', 'getVideos', 'jukeboxControl', 'getNewestPodcasts', 'getChatMessages', 'createPodcastChannel']) {
        const res = await rest(h.app, m, {}, { format: 'json' });
        expect(res.statusCode, m).toBe(501);
        const body = res.json()['subsonic-response'];
        validateResponse(body);
        expect(body.error.code).toBe(0);
        expect(body.error.message).toMatch(new RegExp(`^${m} is not implemented\\.`));
      }
      const x = await rest(h.app, 'getPodcasts', {}, { path: '/rest/getPodcasts.view' });
      expect(x.statusCode).toBe(501);
      expect(parseXml(x.body)['subsonic-response'].error[0].code).toBe('0');
      const unknown = await rest(h.app, 'frobnicate', {}, { format: 'json' });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()['subsonic-response'].error.message).toBe('Unknown Subsonic method "frobnicate".');
      const caseMatters = await rest(h.app, 'PING', {}, { format: 'json' });
      expect(caseMatters.statusCode).toBe(404);
    });

    it('reports bad form bodies as Subsonic errors', async () => {
      const res = await h.app.inject({
        method: 'POST',
        url: '/rest/ping?f=json',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'u=' + 'x'.repeat(1024 * 1024 + 10),
      });
      expect(res.statusCode).toBe(200);
      const body = res.json()['subsonic-response'];
      expect(body.status).toBe('failed');
      expect(body.error.code).toBe(0);
    });
  });

  describe('system', () => {
    it('getLicense is valid with no expiry', async () => {
      const r = await both(h.app, 'getLicense');
      expect(r.license).toEqual({ valid: true });
    });

    it('getOpenSubsonicExtensions answers without credentials and lists what is implemented', async () => {
      const res = await rest(h.app, 'getOpenSubsonicExtensions', {}, { auth: 'none', base: {}, format: 'json' });
      const body = res.json()['subsonic-response'];
      validateResponse(body);
      const names = body.openSubsonicExtensions.map((e: { name: string }) => e.name);
      expect(names).toEqual(expect.arrayContaining(['formPost', 'apiKeyAuthentication']));
      expect(names).not.toContain('getPodcastEpisode');
      for (const e of body.openSubsonicExtensions) expect(e.versions).toEqual([1]);
      const x = parseXml((await rest(h.app, 'getOpenSubsonicExtensions', {}, { auth: 'none', base: {} })).body)['subsonic-response'];
      expect(x.openSubsonicExtensions.map((e: any) => e.name)).toEqual(names);
      expect(x.openSubsonicExtensions[0].versions).toEqual([{ value: '1' }]);
    });

    it('scan: status for everyone, starting a scan for administrators only (50)', async () => {
      const status = await both(h.app, 'getScanStatus', {}, { auth: asAlice });
      expect(status.scanStatus.scanning).toBe(false);
      expect(status.scanStatus.count).toBe(0);
      const refused = await fails(h.app, 'startScan', {}, 50, { auth: asAlice });
      expect(refused.message).toMatch(/administrators/);
      const started = await ok(h.app, 'startScan');
      expect(started.scanStatus.scanning).toBe(true);
      const again = await ok(h.app, 'startScan', { fullScan: true });
      expect(again.scanStatus.scanning).toBe(true);
      const tasks = await h.rt.store.collection('tasks').find({ kind: 'library.scan' });
      expect(tasks).toHaveLength(1);
      await fails(h.app, 'startScan', { fullScan: 'maybe' }, 0);
    });
  });
});
