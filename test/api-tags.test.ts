import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { copyFile, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { probeTags } from './support/audio.ts';
import { USER_PASSWORD, call, expectError, expectOk, login, startHarness, type Harness, type Session } from './api-harness.ts';

const run = promisify(execFile);
let h: Harness;
let s: Session;
let admin: Session;
let lib: string;
let png: Buffer;

beforeAll(async () => {
  h = await startHarness({ library: true });
  s = await login(h.app, 'alice', USER_PASSWORD);
  admin = await login(h.app);
  lib = path.join(h.media, 'lib');
  png = await image('png', 'color=c=0x3366cc:s=120x90');
}, 180_000);
afterAll(async () => h?.close());

/** A real picture made by ffmpeg. */
async function image(kind: 'png' | 'jpg' | 'webp' | 'gif', source: string): Promise<Buffer> {
  const out = path.join(h.home, `img-${Math.random().toString(36).slice(2)}.${kind}`);
  await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', source, '-frames:v', '1', out]);
  return readFile(out);
}

function multipart(field: string, filename: string, data: Buffer, type = 'application/octet-stream') {
  const boundary = `----tagsonic${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${field}"; filename="${filename}"\r\ncontent-type: ${type}\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const upload = (url: string, body: ReturnType<typeof multipart>, auth: Parameters<typeof call>[1] = s) => call(h.app, auth, 'POST', url, body.payload, body.headers);

/** A fresh copy of a library file in its own folder, so tests do not see each other's edits. */
async function scratch(rel: string, name?: string): Promise<string> {
  const dir = path.join(h.media, 'scratch', Math.random().toString(36).slice(2));
  await mkdir(dir, { recursive: true });
  const target = path.join(dir, name ?? path.basename(rel));
  await copyFile(path.join(lib, rel), target);
  return target;
}

const save = (infos: Record<string, unknown>[], auth: Parameters<typeof call>[1] = s) => call(h.app, auth, 'POST', '/apimt/update_id3/', { music_id3_info: infos });

describe('POST /apimt/update_id3/', () => {
  it('writes fields, clears ${null}, renders ${var} templates from the current tags, and is undoable', async () => {
    const file = await scratch('赵长青/爱情里的青春/02 致远方.mp3');
    const before = await probeTags(file);
    expect(before.title).toBe('致远方');
    const res = expectOk(await save([{ file_full_path: file, title: '${title}（${first_artist}）', comment: '${parent_path}', genre: '${null}', year: '2021' }]));
    expect(res.message).toBe('修改成功！');
    const item = res.data.items[0];
    expect(item).toMatchObject({ status: 'success', error: null, path: file });
    const after = await probeTags(file);
    expect(after.title).toBe(`致远方（${before.artist.split(/[\/,&、，]/)[0].trim()}）`);
    expect(after.comment ?? after['comment-xxx'] ?? '').toContain(path.basename(path.dirname(file)));
    expect(after.genre).toBeUndefined();
    expect(after.date ?? after.year).toBe('2021');

    const info = expectOk(await call(h.app, s, 'POST', '/apimt/music_id3/', { file_path: file })).data;
    expect(info.last_write_id).toBe(item.write_id);
    const undone = expectOk(await call(h.app, s, 'POST', '/apimt/undo/', { write_id: item.write_id }));
    expect(undone.data).toMatchObject({ undone: 1, failed: 0 });
    expect(undone.message).toBe('撤销成功！');
    const restored = await probeTags(file);
    expect(restored.title).toBe(before.title);
    expect(restored.genre).toBe(before.genre);
    expect(restored.date ?? restored.year).toBe(before.date ?? before.year);
    // Twice is a clear conflict, not a second restore.
    expectError(await call(h.app, s, 'POST', '/apimt/undo/', { write_id: item.write_id }), 409, 'TAGSONIC_ERR_TAGS_ALREADY_UNDONE');
  });

  it('undoes a whole task; only the owner or an administrator may undo', async () => {
    const a = await scratch('林语嫣/时光的晚风/Disc 1/01 再见声音.flac');
    const b = await scratch('Silver Pines/Velvet Highway/02 Endless Ocean.mp3');
    const [ta, tb] = [(await probeTags(a)).title, (await probeTags(b)).title];
    const res = expectOk(await save([{ file_full_path: a, title: 'Task A' }, { file_full_path: b, title: 'Task B' }]));
    expect(res.data.items.map((i: any) => i.status)).toEqual(['success', 'success']);
    expect((await probeTags(a)).title).toBe('Task A');
    const carolPw = 'carol-password';
    await h.rt.users.create({ username: 'carol', password: carolPw });
    const carol = await login(h.app, 'carol', carolPw);
    expectError(await call(h.app, carol, 'POST', '/apimt/undo/', { task_id: res.data.task_id }), 403, 'TAGSONIC_ERR_UNDO_NOT_YOURS');
    expectError(await call(h.app, carol, 'POST', '/apimt/undo/', { write_id: res.data.items[0].write_id }), 403, 'TAGSONIC_ERR_UNDO_NOT_YOURS');
    const undone = expectOk(await call(h.app, admin, 'POST', '/apimt/undo/', { task_id: res.data.task_id }));
    expect(undone.data).toMatchObject({ undone: 2, failed: 0 });
    expect((await probeTags(a)).title).toBe(ta);
    expect((await probeTags(b)).title).toBe(tb);
    expectError(await call(h.app, s, 'POST', '/apimt/undo/', {}), 400);
    expectError(await call(h.app, s, 'POST', '/apimt/undo/', { write_id: 'x', task_id: 'y' }), 400, 'TAGSONIC_ERR_UNDO_BAD_REQUEST');
    expectError(await call(h.app, s, 'POST', '/apimt/undo/', { write_id: 'nope' }), 404);
    expectError(await call(h.app, 'none', 'POST', '/apimt/undo/', { write_id: 'nope' }), 401);
    expectError(await call(h.app, { cookieOnly: s }, 'POST', '/apimt/undo/', { write_id: 'nope' }), 403, 'TAGSONIC_ERR_AUTH_CSRF');
  });

  it('saves lyrics to the same-name .lrc and imports an .lrc into the lyrics tag', async () => {
    const file = await scratch('赵长青/爱情里的青春/02 致远方.mp3');
    const lrc = file.replace(/\.mp3$/, '.lrc');
    expectOk(await save([{ file_full_path: file, lyrics: '[00:01.00]第一行\n[00:02.00]第二行', is_save_lyrics_file: true }]));
    expect(await readFile(lrc, 'utf8')).toBe('[00:01.00]第一行\n[00:02.00]第二行');
    await writeFile(lrc, '\uFEFF[00:03.00]从文件导入');
    const res = expectOk(await save([{ file_full_path: file, is_import_lyrics_file: true }]));
    expect(res.data.items[0].status).toBe('success');
    const info = expectOk(await call(h.app, s, 'POST', '/apimt/music_id3/', { file_path: file })).data;
    expect(info.lyrics).toBe('[00:03.00]从文件导入');
    expect(info.lyrics_file).toBe(true);
    const other = await scratch('Unsorted/track01.mp3');
    expectError(await save([{ file_full_path: other, is_import_lyrics_file: true }]), 400, 'TAGSONIC_ERR_FILES_NO_LRC');
  });

  it('embeds an uploaded cover, saves it as the folder cover.jpg, imports a folder cover, removes with ${null}', async () => {
    const file = await scratch('Unsorted/track01.mp3');
    const up = expectOk(await upload('/apimt/upload_image/', multipart('upload_file', 'cover.png', png, 'image/png')));
    expect(up.data).toMatch(/^\/apimt\/uploaded_image\/[\w-]+$/);
    const served = await call(h.app, s, 'GET', up.data);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload).toEqual(png);

    const res = expectOk(await save([{ file_full_path: file, album_img: up.data, is_save_album_cover: true }]));
    expect(res.data.items[0].cover_file).toBe(path.join(path.dirname(file), 'cover.jpg'));
    const { stdout } = await run('ffprobe', ['-v', 'error', '-select_streams', 'v', '-show_entries', 'stream=width,height', '-of', 'csv=p=0', file]);
    expect(stdout.trim()).toBe('120,90');
    const coverJpg = await readFile(path.join(path.dirname(file), 'cover.jpg'));
    expect(coverJpg.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));

    const info = expectOk(await call(h.app, s, 'POST', '/apimt/music_id3/', { file_path: file })).data;
    expect(info).toMatchObject({ artwork_w: 120, artwork_h: 90, artwork_mime: 'image/png' });
    // Sending the unchanged cover URL back leaves the cover alone.
    expectOk(await save([{ file_full_path: file, title: 'kept cover', album_img: info.album_img }]));
    expect(expectOk(await call(h.app, s, 'POST', '/apimt/music_id3/', { file_path: file })).data.artwork_size).toBe(png.length);
    const cover = await call(h.app, s, 'GET', info.album_img);
    expect(cover.rawPayload).toEqual(png);
    const img = expectOk(await call(h.app, s, 'POST', '/apimt/get_image/', { file_path: file })).data;
    expect(Buffer.from(img.image_data, 'base64').subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(img).toMatchObject({ mime: 'image/jpeg', width: 120, height: 90 });

    expectOk(await save([{ file_full_path: file, album_img: '${null}' }]));
    expect(expectOk(await call(h.app, s, 'POST', '/apimt/music_id3/', { file_path: file })).data.album_img).toBe('');
    expectOk(await save([{ file_full_path: file, is_import_album_cover: true }]));
    const imported = expectOk(await call(h.app, s, 'POST', '/apimt/music_id3/', { file_path: file })).data;
    expect(imported).toMatchObject({ artwork_mime: 'image/jpeg', artwork_size: coverJpg.length });

    const dataUrl = `data:image/png;base64,${png.toString('base64')}`;
    expectOk(await save([{ file_full_path: file, album_img: dataUrl }]));
    expect(expectOk(await call(h.app, s, 'POST', '/apimt/music_id3/', { file_path: file })).data.artwork_mime).toBe('image/png');
    expectError(await save([{ file_full_path: file, album_img: 'ftp://example.com/cover.jpg' }]), 400, 'TAGSONIC_ERR_TAGS_BAD_COVER');
    expectError(await save([{ file_full_path: file, album_img: '/apimt/uploaded_image/aaaaaaaaaaaaaaaaaaaaaa' }]), 404, 'TAGSONIC_ERR_UPLOAD_NOT_FOUND');
  });

  it('reports a side file that cannot be written on its item, after the tags were written', async () => {
    const file = await scratch('Unsorted/track01.mp3');
    await mkdir(path.join(path.dirname(file), 'cover.jpg'));
    const res = expectError(await save([{ file_full_path: file, title: 'side', album_img: `data:image/png;base64,${png.toString('base64')}`, is_save_album_cover: true }]), 400, 'TAGSONIC_ERR_FILES_SIDE_FILE_FAILED');
    expect(res.message).toMatch(/cover\.jpg|EISDIR|directory/i);
    expect((await probeTags(file)).title).toBe('side');
  });

  it('renames the file (sanitised, extension kept, .lrc follows) and refuses collisions', async () => {
    const file = await scratch('赵长青/爱情里的青春/01 再见远方.mp3');
    await copyFile(path.join(lib, '赵长青/爱情里的青春/01 再见远方.lrc'), file.replace(/\.mp3$/, '.lrc'));
    const dir = path.dirname(file);
    const res = expectOk(await save([{ file_full_path: file, filename: '${tracknumber}. ${title}: ${first_artist}', title: '再见远方' }]));
    const renamed = res.data.items[0].path;
    expect(path.dirname(renamed)).toBe(dir);
    expect(path.basename(renamed)).toMatch(/^1\. 再见远方_ .+\.mp3$/);
    expect(res.data.items[0].renamed_from).toBe(file);
    await expect(stat(file)).rejects.toThrow();
    expect((await stat(renamed.replace(/\.mp3$/, '.lrc'))).isFile()).toBe(true);
    expect((await probeTags(renamed)).title).toBe('再见远方');
    const other = path.join(dir, 'other.mp3');
    await copyFile(renamed, other);
    expectError(await save([{ file_full_path: other, filename: path.basename(renamed) }]), 409, 'TAGSONIC_ERR_FILES_NAME_TAKEN');
    expectError(await save([{ file_full_path: other, filename: '../escape' }]), 400, 'TAGSONIC_ERR_FILES_BAD_NAME');
    expectError(await save([{ file_full_path: other, title: '${nonsense}' }]), 400, 'TAGSONIC_ERR_TEMPLATE_UNKNOWN_VARIABLE');
    expect((await stat(other)).isFile()).toBe(true);
  });

  it('undoing the task of a rename gives the file its name (and .lrc) and its tags back', async () => {
    const file = await scratch('赵长青/爱情里的青春/01 再见远方.mp3');
    const lrc = file.replace(/\.mp3$/, '.lrc');
    await copyFile(path.join(lib, '赵长青/爱情里的青春/01 再见远方.lrc'), lrc);
    const before = (await probeTags(file)).title;
    const res = expectOk(await save([{ file_full_path: file, filename: 'Renamed', title: 'Changed' }]));
    const renamed = res.data.items[0].path;
    expect(path.basename(renamed)).toBe('Renamed.mp3');
    expect((await probeTags(renamed)).title).toBe('Changed');
    const undone = expectOk(await call(h.app, s, 'POST', '/apimt/undo/', { task_id: res.data.task_id }));
    // Newest first: the tag write (under the new name), then the move.
    expect(undone.data).toMatchObject({ undone: 2, failed: 0 });
    expect(undone.data.items.map((it: { path: string }) => path.basename(it.path))).toEqual(['Renamed.mp3', 'Renamed.mp3']);
    expect(undone.data.items.every((it: { undo_write_id: string | null }) => typeof it.undo_write_id === 'string')).toBe(true);
    await expect(stat(renamed)).rejects.toThrow();
    expect((await probeTags(file)).title).toBe(before);
    expect((await stat(lrc)).isFile()).toBe(true);
    // The move back is journaled too, and the move itself cannot be undone twice.
    const moveId = undone.data.items[1].write_id;
    expectError(await call(h.app, s, 'POST', '/apimt/undo/', { write_id: moveId }), 409, 'TAGSONIC_ERR_TAGS_ALREADY_UNDONE');
    expectOk(await call(h.app, s, 'POST', '/apimt/undo/', { write_id: undone.data.items[1].undo_write_id }));
    expect((await stat(renamed)).isFile()).toBe(true);
  });

  it('refuses bad payloads, paths outside the roots and unauthenticated calls', async () => {
    const file = await scratch('Unsorted/track01.mp3');
    expectError(await save([]), 400, 'TAGSONIC_ERR_HTTP_INVALID');
    expectError(await save([{ title: 'x' }]), 400, 'TAGSONIC_ERR_HTTP_INVALID');
    expectError(await save([{ file_full_path: file, title: { $ne: 1 } }]), 400, 'TAGSONIC_ERR_HTTP_INVALID');
    expectError(await call(h.app, s, 'POST', '/apimt/update_id3/', { music_id3_info: [{ file_full_path: file }], more: 1 }), 400, 'TAGSONIC_ERR_HTTP_INVALID');
    expectError(await save([{ file_full_path: '/etc/hostname', title: 'x' }]), 403, 'TAGSONIC_ERR_MEDIA_OUTSIDE_ROOTS');
    expectError(await save([{ file_full_path: `${h.media}/../../etc/hostname`, title: 'x' }]), 403);
    expectError(await save([{ file_full_path: `${h.media}/%2e%2e/x.mp3`, title: 'x' }]), 400, 'TAGSONIC_ERR_MEDIA_BAD_PATH');
    expectError(await save([{ file_full_path: file, title: 'x' }], 'none'), 401);
    expectError(await save([{ file_full_path: file, title: 'x' }], { cookieOnly: s }), 403, 'TAGSONIC_ERR_AUTH_CSRF');
    // A file that cannot be written fails its task with the engine's message and code.
    const bad = path.join(h.media, 'scratch', 'corrupt.mp3');
    await copyFile(path.join(lib, 'Unsorted/corrupt.mp3'), bad);
    const failed = expectError(await save([{ file_full_path: bad, title: 'x' }]), 400, 'TAGSONIC_ERR_TAGS_UNSUPPORTED_FORMAT');
    expect(failed.message).toMatch(/corrupt\.mp3/);
  });
});

describe('images and uploads', () => {
  it('upload_image checks the bytes, the 5 MB and 20 megapixel limits, and the field name', async () => {
    const jpg = await image('jpg', 'color=c=red:s=64x64');
    expectOk(await upload('/apimt/upload_image/', multipart('upload_file', 'a.jpg', jpg, 'image/jpeg')));
    const webp = await image('webp', 'color=c=green:s=64x64');
    expectOk(await upload('/apimt/upload_image/', multipart('upload_file', 'a.webp', webp)));
    const gif = await image('gif', 'color=c=blue:s=64x64');
    expectError(await upload('/apimt/upload_image/', multipart('upload_file', 'a.png', gif, 'image/png')), 400, 'TAGSONIC_ERR_UPLOAD_NOT_IMAGE');
    expectError(await upload('/apimt/upload_image/', multipart('upload_file', 'evil.png', Buffer.from('<script>alert(1)</script>'), 'image/png')), 400, 'TAGSONIC_ERR_UPLOAD_NOT_IMAGE');
    const huge = await image('png', 'color=c=white:s=6000x3600');
    expect(huge.length).toBeLessThan(5 * 1024 * 1024);
    const px = expectError(await upload('/apimt/upload_image/', multipart('upload_file', 'huge.png', huge)), 400, 'TAGSONIC_ERR_UPLOAD_TOO_MANY_PIXELS');
    expect(px.message).toMatch(/6000×3600/);
    const big = Buffer.concat([jpg, Buffer.alloc(5 * 1024 * 1024)]);
    expectError(await upload('/apimt/upload_image/', multipart('upload_file', 'big.jpg', big)), 413, 'TAGSONIC_ERR_UPLOAD_TOO_LARGE');
    expectError(await upload('/apimt/upload_image/', multipart('file', 'a.jpg', jpg)), 400, 'TAGSONIC_ERR_UPLOAD_MISSING');
    expectError(await call(h.app, s, 'POST', '/apimt/upload_image/', { upload_file: 'x' }), 400, 'TAGSONIC_ERR_UPLOAD_NOT_MULTIPART');
    expectError(await upload('/apimt/upload_image/', multipart('upload_file', 'a.jpg', jpg), 'none'), 401);
    expectError(await upload('/apimt/upload_image/', multipart('upload_file', 'a.jpg', jpg), { cookieOnly: s }), 403, 'TAGSONIC_ERR_AUTH_CSRF');
    expectError(await call(h.app, s, 'GET', '/apimt/uploaded_image/..%2F..%2Fsecrets.json'), 400);
  });

  it('get_image converts image files to base64 JPEG and refuses non-images and outside paths', async () => {
    const img = expectOk(await call(h.app, s, 'POST', '/apimt/get_image/', { file_path: path.join(lib, 'ミドリノソラ/夏の終わりに/front.png') })).data;
    expect(Buffer.from(img.image_data, 'base64').subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(img.mime).toBe('image/jpeg');
    expectError(await call(h.app, s, 'POST', '/apimt/get_image/', { file_path: path.join(lib, 'Unsorted/notes.txt') }), 400, 'TAGSONIC_ERR_FILES_NOT_IMAGE');
    expectError(await call(h.app, s, 'POST', '/apimt/get_image/', { file_path: path.join(lib, 'Unsorted/voice memo.m4a') }), 404, 'TAGSONIC_ERR_FILES_NO_COVER');
    expectError(await call(h.app, s, 'POST', '/apimt/get_image/', { file_path: '/etc/hostname' }), 403);
    expectError(await call(h.app, s, 'POST', '/apimt/get_image/', { file_path: 'x', y: 1 }), 400, 'TAGSONIC_ERR_HTTP_INVALID');
    expectError(await call(h.app, 'none', 'POST', '/apimt/get_image/', { file_path: 'x' }), 401);
  });

  it('background: upload_logo_and_save, served, shown in /user/info/, restore_logo', async () => {
    const res = expectOk(await upload('/apimt/upload_logo_and_save/', multipart('upload_file', 'bg.png', png)));
    expect(res.message).toBe('上传成功！');
    expect(res.data).toMatch(/^\/apimt\/background\/\?v=\d+$/);
    expect(expectOk(await call(h.app, s, 'GET', '/user/info/')).data.sys_dict.background_url).toBe(res.data);
    const served = await call(h.app, s, 'GET', res.data);
    expect(served.rawPayload).toEqual(png);
    expectError(await upload('/apimt/upload_logo_and_save/', multipart('upload_file', 'bg.txt', Buffer.from('hello'))), 400, 'TAGSONIC_ERR_UPLOAD_NOT_IMAGE');
    expect(expectOk(await call(h.app, s, 'POST', '/apimt/restore_logo/')).message).toBe('恢复成功！');
    expectError(await call(h.app, s, 'GET', '/apimt/background/'), 404, 'TAGSONIC_ERR_BACKGROUND_NONE');
    expect(expectOk(await call(h.app, s, 'GET', '/user/info/')).data.sys_dict.background_url).toBeNull();
    expectError(await call(h.app, { cookieOnly: s }, 'POST', '/apimt/restore_logo/'), 403, 'TAGSONIC_ERR_AUTH_CSRF');
  });
});
