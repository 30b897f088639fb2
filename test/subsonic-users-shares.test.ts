/**
 * Users and shares over /rest: getUser/getUsers/createUser/updateUser/deleteUser/changePassword
 * mapped onto Tagsonic accounts and their Subsonic passwords, with administrator checks (50); shares
 * (create with songs/albums/artists, list, update, expire, delete, owners only) and the public
 * /share/<id> page and stream (no login, ranges, 404 unknown, 410 expired).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, ALICE, asAdmin, asAlice, both, fails, ok, startSubsonic, type SubsonicHarness } from './subsonic-harness.ts';

const hex = (s: string) => Buffer.from(s, 'utf8').toString('hex');

describe('subsonic users and shares', () => {
  let h: SubsonicHarness;
  beforeAll(async () => {
    h = await startSubsonic();
  });
  afterAll(() => h?.close());

  describe('users', () => {
    it('getUser shows yourself; administrators see anyone; others get 50', async () => {
      const me = (await both(h.app, 'getUser', { username: ALICE.username }, { auth: asAlice })).user;
      expect(me).toMatchObject({ username: ALICE.username, adminRole: false, streamRole: true, downloadRole: true, shareRole: true, playlistRole: true, jukeboxRole: false, podcastRole: false });
      expect(me.folder).toEqual([1, 2, 3]);
      const admin = (await ok(h.app, 'getUser', { username: ADMIN.username })).user;
      expect(admin.adminRole).toBe(true);
      expect((await ok(h.app, 'getUser', { username: ALICE.username })).user.username).toBe(ALICE.username);
      await fails(h.app, 'getUser', { username: ADMIN.username }, 50, { auth: asAlice });
      await fails(h.app, 'getUser', { username: 'ghost' }, 70);
      await fails(h.app, 'getUser', {}, 10);
    });

    it('getUsers lists every account for administrators only', async () => {
      const users = (await both(h.app, 'getUsers')).users.user;
      expect(users.map((u: any) => u.username)).toEqual([ADMIN.username, ALICE.username]);
      await fails(h.app, 'getUsers', {}, 50, { auth: asAlice });
    });

    it('createUser makes an account whose password works for Subsonic and the dashboard', async () => {
      await ok(h.app, 'createUser', { username: 'carol', password: `enc:${hex('carol-Ünïcode-pw')}`, email: 'carol@example.org', adminRole: false });
      await ok(h.app, 'ping', {}, { auth: { u: 'carol', p: 'carol-Ünïcode-pw' } });
      expect(await h.rt.users.authenticate('carol', 'carol-Ünïcode-pw')).not.toBeNull();
      await fails(h.app, 'createUser', { username: 'carol', password: 'another-password' }, 0);
      await fails(h.app, 'createUser', { username: 'dave', password: 'short' }, 0);
      await fails(h.app, 'createUser', { username: 'bad name!', password: 'long-enough-pw' }, 0);
      await fails(h.app, 'createUser', { username: 'eve', password: 'long-enough-pw' }, 50, { auth: asAlice });
      await fails(h.app, 'createUser', { username: 'eve' }, 10);
      expect(await h.rt.users.findByName('eve')).toBeNull();
    });

    it('updateUser changes the Subsonic password and the administrator role', async () => {
      await ok(h.app, 'updateUser', { username: 'carol', password: 'carol-second-pw', adminRole: true });
      await ok(h.app, 'ping', {}, { auth: { u: 'carol', p: 'carol-second-pw' } });
      await fails(h.app, 'ping', {}, 40, { auth: { u: 'carol', p: 'carol-Ünïcode-pw' } });
      expect((await ok(h.app, 'getUser', { username: 'carol' })).user.adminRole).toBe(true);
      await ok(h.app, 'updateUser', { username: 'carol', adminRole: false });
      expect((await ok(h.app, 'getUser', { username: 'carol' })).user.adminRole).toBe(false);
      await fails(h.app, 'updateUser', { username: 'carol', adminRole: true }, 50, { auth: asAlice });
      await fails(h.app, 'updateUser', { username: 'ghost' }, 70);
      // The last administrator keeps the role.
      await fails(h.app, 'updateUser', { username: ADMIN.username, adminRole: false }, 0);
    });

    it('changePassword: yourself, or anyone as an administrator', async () => {
      await ok(h.app, 'changePassword', { username: ALICE.username, password: 'alice-new-sub' }, { auth: asAlice });
      await ok(h.app, 'ping', {}, { auth: { u: ALICE.username, p: 'alice-new-sub' } });
      await fails(h.app, 'changePassword', { username: ADMIN.username, password: 'hijack-attempt' }, 50, { auth: { u: ALICE.username, p: 'alice-new-sub' } });
      await ok(h.app, 'changePassword', { username: ALICE.username, password: `enc:${hex(ALICE.subsonic)}` });
      await ok(h.app, 'ping', {}, { auth: asAlice });
      await fails(h.app, 'changePassword', { username: 'ghost', password: 'whatever-pw' }, 70);
      await fails(h.app, 'changePassword', { username: ALICE.username }, 10);
    });

    it('deleteUser removes an account (never yourself or the last administrator)', async () => {
      await fails(h.app, 'deleteUser', { username: 'carol' }, 50, { auth: asAlice });
      await ok(h.app, 'deleteUser', { username: 'carol' });
      await fails(h.app, 'ping', {}, 40, { auth: { u: 'carol', p: 'carol-second-pw' } });
      await fails(h.app, 'deleteUser', { username: ADMIN.username }, 0);
      await fails(h.app, 'deleteUser', { username: 'carol' }, 70);
    });
  });

  describe('shares', () => {
    const catalog = () => h.rt.library.catalog;

    it('creates a share of songs, an album and an artist, and lists it for its owner', async () => {
      const songs = [...catalog().tracks.keys()].slice(0, 2);
      const album = [...catalog().albums.values()].find((a) => a.songCount >= 2)!;
      const artist = [...catalog().artists.values()].find((a) => a.songCount >= 1)!;
      const created = (await ok(h.app, 'createShare', { id: [...songs, album._id], description: '周末歌单 weekend' }, { auth: asAlice })).shares.share;
      expect(created).toHaveLength(1);
      const share = created[0];
      expect(share).toMatchObject({ username: ALICE.username, description: '周末歌单 weekend', visitCount: 0 });
      expect(share.url).toMatch(new RegExp(`^http://localhost(:80)?/share/${share.id}$`));
      expect(share.expires).toBeUndefined();
      const entryIds = share.entry.map((e: any) => e.id);
      expect(entryIds.slice(0, 2)).toEqual(songs);
      const albumSongs = [...catalog().tracks.values()].filter((t) => t.albumId === album._id).map((t) => t._id);
      for (const id of albumSongs) expect(entryIds).toContain(id);
      expect(new Set(entryIds).size).toBe(entryIds.length);
      const byArtist = (await ok(h.app, 'createShare', { id: artist._id }, { auth: asAlice })).shares.share[0];
      expect(byArtist.entry.length).toBe(artist.songCount);
      const mine = (await both(h.app, 'getShares', {}, { auth: asAlice })).shares.share;
      expect(mine.map((s: any) => s.id).sort()).toEqual([share.id, byArtist.id].sort());
      expect((await ok(h.app, 'getShares')).shares.share).toEqual([]);
      await fails(h.app, 'createShare', {}, 10, { auth: asAlice });
      await fails(h.app, 'createShare', { id: '0123456789abcdef01234567' }, 70, { auth: asAlice });
      await fails(h.app, 'createShare', { id: songs[0]!, expires: 'tomorrow' }, 0, { auth: asAlice });
    });

    it('serves the public page, JSON and the songs without login, with ranges', async () => {
      const share = (await ok(h.app, 'getShares', {}, { auth: asAlice })).shares.share.find((s: any) => s.description === '周末歌单 weekend');
      const page = await h.app.inject({ method: 'GET', url: `/share/${share.id}` });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.body).toContain('周末歌单 weekend');
      expect(page.body).toContain(`src="/share/${share.id}/stream/${share.entry[0].id}"`);
      expect(page.body).not.toMatch(/<script/i);
      const json = (await h.app.inject({ method: 'GET', url: `/share/${share.id}?f=json` })).json();
      expect(json.entries.map((e: any) => e.id)).toEqual(share.entry.map((e: any) => e.id));
      const song = json.entries[0];
      const whole = await h.app.inject({ method: 'GET', url: song.url });
      expect(whole.statusCode).toBe(200);
      expect(whole.headers['content-type']).toBe(song.contentType);
      const path = await h.rt.library.queries.songPath(song.id);
      const { readFile } = await import('node:fs/promises');
      const bytes = await readFile(path);
      expect(Buffer.compare(whole.rawPayload, bytes)).toBe(0);
      const part = await h.app.inject({ method: 'GET', url: song.url, headers: { range: 'bytes=10-19' } });
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 10-19/${bytes.length}`);
      expect(Buffer.compare(part.rawPayload, bytes.subarray(10, 20))).toBe(0);
      const bad = await h.app.inject({ method: 'GET', url: song.url, headers: { range: `bytes=${bytes.length + 5}-` } });
      expect(bad.statusCode).toBe(416);
      const outside = [...catalog().tracks.keys()].find((id) => !json.entries.some((e: any) => e.id === id))!;
      expect((await h.app.inject({ method: 'GET', url: `/share/${share.id}/stream/${outside}` })).statusCode).toBe(404);
      const after = (await ok(h.app, 'getShares', {}, { auth: asAlice })).shares.share.find((s: any) => s.id === share.id);
      expect(after.visitCount).toBe(2);
      expect(after.lastVisited).toMatch(/^\d{4}-/);
      expect((await h.app.inject({ method: 'GET', url: '/share/no-such-share' })).statusCode).toBe(404);
      expect((await h.app.inject({ method: 'GET', url: '/share/no-such-share?f=json' })).json().error).toBe('TAGSONIC_ERR_SHARE_NOT_FOUND');
    });

    it('updates description and expiry; an expired share answers 410 and streams nothing', async () => {
      const share = (await ok(h.app, 'getShares', {}, { auth: asAlice })).shares.share[0];
      const future = Date.now() + 3_600_000;
      await ok(h.app, 'updateShare', { id: share.id, description: 'renamed', expires: future }, { auth: asAlice });
      let now = (await ok(h.app, 'getShares', {}, { auth: asAlice })).shares.share.find((s: any) => s.id === share.id);
      expect(now).toMatchObject({ description: 'renamed', expires: new Date(future).toISOString() });
      await ok(h.app, 'updateShare', { id: share.id, expires: 0 }, { auth: asAlice });
      now = (await ok(h.app, 'getShares', {}, { auth: asAlice })).shares.share.find((s: any) => s.id === share.id);
      expect(now.expires).toBeUndefined();
      expect(now.description).toBe('renamed');
      await ok(h.app, 'updateShare', { id: share.id, expires: Date.now() - 1000 }, { auth: asAlice });
      expect((await h.app.inject({ method: 'GET', url: `/share/${share.id}` })).statusCode).toBe(410);
      expect((await h.app.inject({ method: 'GET', url: `/share/${share.id}/stream/${share.entry[0].id}` })).statusCode).toBe(410);
      // Only the owner or an administrator may change a share.
      await h.rt.users.create({ username: 'frank', password: 'frank-login-pw' });
      const { SubsonicCredentials } = await import('@tagsonic/core/users');
      await new SubsonicCredentials(h.rt.store, h.rt.users, h.rt.secrets.subsonicKey).setPassword('frank', 'frank-sub');
      const frank = { u: 'frank', p: 'frank-sub' };
      await fails(h.app, 'updateShare', { id: share.id, description: 'mine now' }, 50, { auth: frank });
      await fails(h.app, 'deleteShare', { id: share.id }, 50, { auth: frank });
      await ok(h.app, 'updateShare', { id: share.id, expires: 0 }, { auth: asAdmin });
      expect((await h.app.inject({ method: 'GET', url: `/share/${share.id}` })).statusCode).toBe(200);
      await fails(h.app, 'updateShare', { id: 'missing' }, 70, { auth: asAlice });
      await fails(h.app, 'updateShare', {}, 10, { auth: asAlice });
    });

    it('deletes shares; their links stop working', async () => {
      const before = (await ok(h.app, 'getShares', {}, { auth: asAlice })).shares.share;
      for (const s of before) await ok(h.app, 'deleteShare', { id: s.id }, { auth: asAlice });
      expect((await ok(h.app, 'getShares', {}, { auth: asAlice })).shares.share).toEqual([]);
      expect((await h.app.inject({ method: 'GET', url: `/share/${before[0].id}` })).statusCode).toBe(404);
      await fails(h.app, 'deleteShare', { id: before[0].id }, 70, { auth: asAlice });
    });
  });
});
