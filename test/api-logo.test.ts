/**
 * The theme drawer's background picture belongs to each account (issue 10 item 5): before, any signed-in
 * user replaced the one picture everybody saw.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { USER_PASSWORD, call, expectError, expectOk, login, startHarness, type Harness, type Session } from './api-harness.ts';

const run = promisify(execFile);
let h: Harness;
let alice: Session;
let admin: Session;
let bob: Session;
let red: Buffer;
let blue: Buffer;

beforeAll(async () => {
  h = await startHarness();
  await h.rt.users.create({ username: 'bob', password: USER_PASSWORD });
  alice = await login(h.app, 'alice', USER_PASSWORD);
  bob = await login(h.app, 'bob', USER_PASSWORD);
  admin = await login(h.app);
  red = await image('color=c=0xcc3333:s=64x48');
  blue = await image('color=c=0x3366cc:s=64x48');
}, 120_000);
afterAll(async () => h?.close());

async function image(source: string): Promise<Buffer> {
  const out = path.join(h.home, `img-${Math.random().toString(36).slice(2)}.png`);
  await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', source, '-frames:v', '1', out]);
  return readFile(out);
}

function upload(session: Session, data: Buffer) {
  const boundary = `----tagsonic${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="upload_file"; filename="bg.png"\r\ncontent-type: image/png\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return call(h.app, session, 'POST', '/apimt/upload_logo_and_save/', payload, { 'content-type': `multipart/form-data; boundary=${boundary}` });
}

const infoUrl = async (session: Session): Promise<string | null> => expectOk(await call(h.app, session, 'GET', '/user/info/')).data.sys_dict.background_url;
const served = async (session: Session) => call(h.app, session, 'GET', '/apimt/background/');

describe('background picture per account', () => {
  it("a user's upload and restore change only what that user sees", async () => {
    const url = expectOk(await upload(alice, red)).data;
    expect(url).toMatch(/^\/apimt\/background\/\?v=\d+$/);
    expect(await infoUrl(alice)).toBe(url);
    expect((await served(alice)).rawPayload).toEqual(red);
    // The administrator and another user still see the default.
    expect(await infoUrl(admin)).toBeNull();
    expect(await infoUrl(bob)).toBeNull();
    expectError(await served(admin), 404, 'TAGSONIC_ERR_BACKGROUND_NONE');

    expectOk(await upload(admin, blue));
    expect((await served(admin)).rawPayload).toEqual(blue);
    expect((await served(alice)).rawPayload).toEqual(red);

    // Bob's restore leaves the others' pictures alone; Alice's restore returns only her to the default.
    expectOk(await call(h.app, bob, 'POST', '/apimt/restore_logo/'));
    expect((await served(alice)).rawPayload).toEqual(red);
    expectOk(await call(h.app, alice, 'POST', '/apimt/restore_logo/'));
    expect(await infoUrl(alice)).toBeNull();
    expect((await served(admin)).rawPayload).toEqual(blue);
    expectOk(await call(h.app, admin, 'POST', '/apimt/restore_logo/'));
    expect(await infoUrl(admin)).toBeNull();
  });

  it('the shared picture of earlier versions shows until an administrator restores; a user cannot remove it', async () => {
    const shared = path.join(h.rt.config.dataDir, 'background', 'background');
    await writeFile(shared, red);
    expect((await served(bob)).rawPayload).toEqual(red);
    expectOk(await call(h.app, bob, 'POST', '/apimt/restore_logo/'));
    expect((await served(bob)).rawPayload).toEqual(red);
    await expect(stat(shared)).resolves.toBeTruthy();
    // A user's own picture wins over the shared one.
    expectOk(await upload(bob, blue));
    expect((await served(bob)).rawPayload).toEqual(blue);
    expectOk(await call(h.app, admin, 'POST', '/apimt/restore_logo/'));
    await expect(stat(shared)).rejects.toThrow();
    expect((await served(alice)).statusCode).toBe(404);
    expect((await served(bob)).rawPayload).toEqual(blue);
  });

  it("deleting an account removes its picture", async () => {
    const carol = await h.rt.users.create({ username: 'carol', password: USER_PASSWORD });
    expectOk(await upload(await login(h.app, 'carol', USER_PASSWORD), red));
    const own = path.join(h.rt.config.dataDir, 'background', `user-${carol._id}`);
    await expect(stat(own)).resolves.toBeTruthy();
    expectOk(await call(h.app, admin, 'DELETE', '/apimt/admin/users/carol/'));
    await expect(stat(own)).rejects.toThrow();
  });

  it('still needs a session, the CSRF token and an image', async () => {
    expectError(await call(h.app, 'none', 'POST', '/apimt/restore_logo/'), 401);
    expectError(await call(h.app, { cookieOnly: alice }, 'POST', '/apimt/restore_logo/'), 403, 'TAGSONIC_ERR_AUTH_CSRF');
    expectError(await upload(alice, Buffer.from('hello')), 400, 'TAGSONIC_ERR_UPLOAD_NOT_IMAGE');
  });
});
