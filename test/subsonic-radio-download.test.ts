/**
 * Issue 10 item 10 over the scanned small library: internet radio stations (everyone lists them,
 * administrators manage them, URLs validated, listed in the admin backend) and download.view of an
 * album, artist or playlist as a streamed zip of the original files.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, login } from './api-harness.ts';
import { ADMIN, asAlice, both, fails, ok, startSubsonic, type SubsonicHarness } from './subsonic-harness.ts';

let h: SubsonicHarness;

beforeAll(async () => {
  h = await startSubsonic();
}, 120_000);

afterAll(async () => {
  await h?.close();
});

const stations = async () => (await ok(h.app, 'getInternetRadioStations', {}, { auth: asAlice })).internetRadioStations.internetRadioStation;

describe('internet radio stations', () => {
  it('starts empty for every user, in JSON and XML', async () => {
    const body = await both(h.app, 'getInternetRadioStations', {}, { auth: asAlice });
    expect(body.internetRadioStations).toEqual({ internetRadioStation: [] });
  });

  it('lets administrators create, update and delete stations that every user lists', async () => {
    await ok(h.app, 'createInternetRadioStation', { name: 'Zeta FM', streamUrl: 'http://zeta.example.org/live.mp3' });
    await ok(h.app, 'createInternetRadioStation', { name: '  Alpha Radio ', streamUrl: 'https://alpha.example.org/stream', homepageUrl: 'https://alpha.example.org/' }, { post: true });
    const list = await stations();
    expect(list).toEqual([
      { id: expect.stringMatching(/^ra-[0-9a-f]{16}$/), name: 'Alpha Radio', streamUrl: 'https://alpha.example.org/stream', homePageUrl: 'https://alpha.example.org/' },
      { id: expect.stringMatching(/^ra-[0-9a-f]{16}$/), name: 'Zeta FM', streamUrl: 'http://zeta.example.org/live.mp3' },
    ]);
    const xmlList = (await both(h.app, 'getInternetRadioStations', {})).internetRadioStations.internetRadioStation;
    expect(xmlList).toEqual(list);

    const [alpha, zeta] = list;
    await ok(h.app, 'updateInternetRadioStation', { id: alpha.id, name: 'Alpha Radio 2', streamUrl: 'https://alpha.example.org/hq' });
    expect((await stations())[0]).toEqual({ id: alpha.id, name: 'Alpha Radio 2', streamUrl: 'https://alpha.example.org/hq' });

    await ok(h.app, 'deleteInternetRadioStation', { id: zeta.id });
    expect((await stations()).map((s: { id: string }) => s.id)).toEqual([alpha.id]);
    expect((await fails(h.app, 'deleteInternetRadioStation', { id: zeta.id }, 70)).message).toMatch(/No internet radio station/);
    await fails(h.app, 'updateInternetRadioStation', { id: 'ra-0000000000000000', name: 'x', streamUrl: 'http://x.example/' }, 70);
  });

  it('refuses other users with error 50', async () => {
    const [first] = await stations();
    for (const [method, params] of [
      ['createInternetRadioStation', { name: 'Mine', streamUrl: 'http://mine.example/' }],
      ['updateInternetRadioStation', { id: first.id, name: 'Mine', streamUrl: 'http://mine.example/' }],
      ['deleteInternetRadioStation', { id: first.id }],
    ] as const) {
      expect((await fails(h.app, method, params, 50, { auth: asAlice })).message).toMatch(/administrators only/);
    }
    expect((await stations())[0]).toEqual(first);
  });

  it('validates names and URLs with clear messages', async () => {
    const before = await stations();
    expect((await fails(h.app, 'createInternetRadioStation', { streamUrl: 'http://a.example/' }, 10)).message).toMatch(/"name"/);
    expect((await fails(h.app, 'createInternetRadioStation', { name: 'A' }, 10)).message).toMatch(/"streamUrl"/);
    expect((await fails(h.app, 'createInternetRadioStation', { name: '   ', streamUrl: 'http://a.example/' }, 10)).message).toMatch(/needs a name/);
    for (const bad of ['javascript:alert(1)', 'file:///etc/passwd', 'ftp://a.example/x', 'not a url', 'http://']) {
      expect((await fails(h.app, 'createInternetRadioStation', { name: 'A', streamUrl: bad }, 0)).message).toMatch(/streamUrl must be an http:\/\/ or https:\/\/ address/);
    }
    expect((await fails(h.app, 'createInternetRadioStation', { name: 'A', streamUrl: 'http://a.example/', homepageUrl: 'javascript:x' }, 0)).message).toMatch(/homepageUrl/);
    expect((await fails(h.app, 'createInternetRadioStation', { name: 'A\u0007', streamUrl: 'http://a.example/' }, 0)).message).toMatch(/control characters/);
    expect(await stations()).toEqual(before);
  });

  it('lists the stations in the admin backend (administrators only)', async () => {
    const admin = await login(h.app, ADMIN.username, ADMIN.password);
    const res = await call(h.app, admin, 'GET', '/apimt/admin/radio_stations/');
    expect(res.statusCode, res.body).toBe(200);
    const [station] = await stations();
    expect(res.json().data.stations).toEqual([
      { id: station.id, name: station.name, stream_url: station.streamUrl, home_page_url: '', created_at: expect.any(String), updated_at: expect.any(String) },
    ]);
    const alice = await login(h.app, 'alice', 'alice-login-password');
    expect((await call(h.app, alice, 'GET', '/apimt/admin/radio_stations/')).statusCode).toBe(403);
  });
});
