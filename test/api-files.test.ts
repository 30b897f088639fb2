import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, symlink, writeFile, utimes } from 'node:fs/promises';
import path from 'node:path';
import { compareNames } from '@tagsonic/core/files';
import { USER_PASSWORD, call, expectError, expectOk, login, startHarness, type Harness, type Session } from './api-harness.ts';

let h: Harness;
let s: Session;
let lib: string;
beforeAll(async () => {
  h = await startHarness({ library: true });
  s = await login(h.app, 'alice', USER_PASSWORD);
  lib = path.join(h.media, 'lib');
  // Ways out of the roots a client might try.
  await symlink('/etc', path.join(lib, 'etc-link'));
  await symlink('/etc/hostname', path.join(lib, 'hostname-link.mp3'));
}, 180_000);
afterAll(async () => h?.close());

const list = (body: Record<string, unknown>, auth: Parameters<typeof call>[1] = s) => call(h.app, auth, 'POST', '/apimt/file_list/', body);

describe('POST /apimt/file_list/', () => {
  it('lists one level with icons, states and the folder name; folders first, CJK-aware names', async () => {
    const body = expectOk(await list({ file_path: lib }));
    expect(body.data.file_name).toBe('lib');
    expect(body.data.file_path).toBe(lib);
    expect(body.data.parent_path).toBe(h.media);
    const names = body.data.file_list_data.map((n: any) => n.name);
    expect(names).not.toContain('etc-link');
    expect(names).not.toContain('hostname-link.mp3');
    expect(names).not.toContain('.tagsonic-library.json');
    const nodes = body.data.file_list_data;
    expect(nodes.every((n: any) => n.icon === 'icon-folder' && n.is_dir && Array.isArray(n.children) && n.selected === false && n.state === null)).toBe(true);
    // Hanzi file under their pinyin initial among Latin names (林 lin < 王 wang < 赵 zhao), regardless of code points.
    expect(names.indexOf('林语嫣')).toBeLessThan(names.indexOf('Silver Pines'));
    expect(names.indexOf('Silver Pines')).toBeLessThan(names.indexOf('王听风'));
    expect(names.indexOf('王听风')).toBeLessThan(names.indexOf('赵长青'));
    expect(names.indexOf('Grace Whitfield')).toBeLessThan(names.indexOf('林语嫣'));
    expect(nodes[0]).toMatchObject({ id: path.join(lib, nodes[0].name), full_path: path.join(lib, nodes[0].name), title: nodes[0].name });
  });

  it('maps icons per file kind', async () => {
    const icons = async (dir: string) =>
      Object.fromEntries(expectOk(await list({ file_path: path.join(lib, dir) })).data.file_list_data.map((n: any) => [n.name, n.icon]));
    expect(await icons('赵长青/爱情里的青春')).toMatchObject({
      '01 再见远方.mp3': 'icon-file',
      '01 再见远方.lrc': 'icon-script-file',
      'cover.jpg': 'icon-image',
      Scans: 'icon-folder',
    });
    expect(await icons('王听风/再见声音')).toMatchObject({ '再见声音.cue': 'icon-cue', '再见声音.wav': 'icon-file' });
    expect(await icons('Streams')).toMatchObject({ 'Golden Morning.strm': 'icon-strm' });
    expect(await icons('Unsorted')).toMatchObject({ 'notes.txt': 'icon-script-file', 'track01.mp3': 'icon-file' });
  });

  it('filters by name and by state:, and sorts by each field', async () => {
    const dir = path.join(lib, 'Unsorted');
    expectOk(await call(h.app, s, 'POST', '/apimt/update_folder_state/', { full_path: path.join(dir, 'track01.mp3') }));
    expectOk(await call(h.app, s, 'POST', '/apimt/update_folder_state/', { full_path: path.join(dir, 'corrupt.mp3'), state: 'failed' }));
    const names = async (extra: Record<string, unknown>) => expectOk(await list({ file_path: dir, ...extra })).data.file_list_data.map((n: any) => n.name);
    expect(await names({ search_word: 'state:success' })).toEqual(['track01.mp3']);
    expect(await names({ search_word: 'state:failed' })).toEqual(['corrupt.mp3']);
    expect(await names({ search_word: 'state:null' })).not.toContain('track01.mp3');
    expect(await names({ search_word: 'TRACK' })).toEqual(['track01.mp3']);
    expect(await names({ search_word: 'ＴＲＡＣＫ' })).toEqual(['track01.mp3']);
    expect(await names({ search_word: '录音' })).toEqual(['录音 2019-03-17.mp3']);
    const bySize = expectOk(await list({ file_path: dir, sorted_fields: 'size' })).data.file_list_data.map((n: any) => n.size);
    expect(bySize).toEqual([...bySize].sort((a, b) => a - b));
    const bySizeDesc = expectOk(await list({ file_path: dir, sorted_fields: ['-size'] })).data.file_list_data.map((n: any) => n.size);
    expect(bySizeDesc).toEqual([...bySize].reverse());
    const byState = expectOk(await list({ file_path: dir, sorted_fields: 'state' })).data.file_list_data.map((n: any) => n.state);
    expect(byState.slice(-2)).toEqual(['failed', 'success']);
    await utimes(path.join(dir, 'notes.txt'), new Date(), new Date(Date.now() + 60_000));
    const byTime = expectOk(await list({ file_path: dir, sorted_fields: '-update_time', refresh: true })).data.file_list_data;
    expect(byTime[0].name).toBe('notes.txt');
    expectError(await list({ file_path: dir, sorted_fields: 'colour' }), 400, 'TAGSONIC_ERR_HTTP_INVALID');
  });

  it('lists the home folder as its media folders, and never goes above it', async () => {
    const home = expectOk(await list({ file_path: h.home })).data;
    expect(home.file_list_data.map((n: any) => n.name).sort()).toEqual(['download', 'media', 'webdav']);
    expect(home.parent_path).toBeNull();
    expect(expectOk(await list({ file_path: h.media })).data.parent_path).toBe(h.home);
    expect(expectOk(await list({})).data.file_path).toBe(h.media);
  });

  it('refuses traversal, encoded dots, outside paths and symlinks out: 403/400 envelopes', async () => {
    expectError(await list({ file_path: `${lib}/../../..` }), 403, 'TAGSONIC_ERR_MEDIA_OUTSIDE_ROOTS');
    expectError(await list({ file_path: '../../etc' }), 403, 'TAGSONIC_ERR_MEDIA_OUTSIDE_ROOTS');
    expectError(await list({ file_path: `${lib}/%2e%2e/%2e%2e` }), 400, 'TAGSONIC_ERR_MEDIA_BAD_PATH');
    expectError(await list({ file_path: '/etc' }), 403, 'TAGSONIC_ERR_MEDIA_OUTSIDE_ROOTS');
    expectError(await list({ file_path: path.dirname(h.home) }), 403, 'TAGSONIC_ERR_MEDIA_OUTSIDE_ROOTS');
    expectError(await list({ file_path: path.join(lib, 'etc-link') }), 403, 'TAGSONIC_ERR_MEDIA_OUTSIDE_ROOTS');
    expectError(await list({ file_path: path.join(lib, 'missing') }), 404, 'TAGSONIC_ERR_MEDIA_NOT_FOUND');
    expectError(await list({ file_path: path.join(lib, 'Unsorted/notes.txt') }), 400, 'TAGSONIC_ERR_FILES_NOT_A_FOLDER');
    expectError(await list({ file_path: lib, extra: true }), 400, 'TAGSONIC_ERR_HTTP_INVALID');
    expectError(await list({ file_path: 5 }), 400, 'TAGSONIC_ERR_HTTP_INVALID');
    expectError(await list({ file_path: lib }, 'none'), 401);
    expectError(await list({ file_path: lib }, { cookieOnly: s }), 403, 'TAGSONIC_ERR_AUTH_CSRF');
  });

  it('a 10,000-entry folder answers in under a second, without an entry cap', async () => {
    const big = path.join(h.media, 'big');
    await mkdir(big);
    for (let i = 0; i < 10_000; i += 500) {
      await Promise.all(Array.from({ length: 500 }, (_, j) => writeFile(path.join(big, `track ${i + j}.mp3`), 'x')));
    }
    // Best of three uncached listings (refresh re-reads the folder): one slow run on a loaded CI machine
    // is noise, three are a regression.
    let coldMs = Infinity;
    let firstRes!: Awaited<ReturnType<typeof list>>;
    for (let attempt = 0; attempt < 3; attempt++) {
      const cold = performance.now();
      firstRes = await list({ file_path: big, refresh: attempt > 0 });
      coldMs = Math.min(coldMs, performance.now() - cold);
    }
    const first = expectOk(firstRes);
    expect(first.data.file_list_data).toHaveLength(10_000);
    expect(first.data.file_list_data[0].name).toBe('track 0.mp3');
    expect(first.data.file_list_data[9].name).toBe('track 9.mp3');
    expect(first.data.file_list_data[10].name).toBe('track 10.mp3');
    const warm = performance.now();
    const warmRes = await list({ file_path: big, sorted_fields: '-name' });
    const warmMs = performance.now() - warm;
    expectOk(warmRes);
    const filtered = performance.now();
    const fRes = await list({ file_path: big, search_word: 'track 99' });
    const filterMs = performance.now() - filtered;
    const f = expectOk(fRes);
    expect(f.data.file_list_data).toHaveLength(111);
    console.log(`file_list 10k entries: cold ${coldMs.toFixed(0)} ms, cached ${warmMs.toFixed(0)} ms, filtered ${filterMs.toFixed(0)} ms`);
    expect(coldMs).toBeLessThan(1000);
    expect(warmMs).toBeLessThan(1000);
    // A new file changes the folder's mtime: the cache notices without refresh.
    await writeFile(path.join(big, 'track 10000.mp3'), 'x');
    expect(expectOk(await list({ file_path: big })).data.total).toBe(10_001);
  }, 120_000);
});

describe('POST /apimt/file_id3_list/', () => {
  const id3 = (body: Record<string, unknown>, auth: Parameters<typeof call>[1] = s) => call(h.app, auth, 'POST', '/apimt/file_id3_list/', body);

  it('reads the checked files and folders, depth 1 or all the way down, up to limit', async () => {
    const dir = path.join(lib, '林语嫣/时光的晚风');
    const shallow = expectOk(await id3({ file_full_path: dir, select_data: [{ name: 'Disc 1', icon: 'icon-folder', title: 'Disc 1' }], mode: 'all', depth: 1 }));
    expect(shallow.data.map((r: any) => r.filename)).toEqual(['01 再见声音.flac', '02 再见记忆.flac']);
    const row = shallow.data[0];
    for (const col of ['album_img', 'filename', 'title', 'artist', 'album', 'albumartist', 'lyrics', 'lyrics_file', 'year', 'genre']) expect(row).toHaveProperty(col);
    expect(row).toMatchObject({ title: '再见声音', icon: 'icon-file', error: null, file_full_path: path.join(dir, 'Disc 1/01 再见声音.flac') });
    expect(row.duration).toBeGreaterThan(1);

    const top = path.join(lib, '林语嫣');
    expect(expectOk(await id3({ file_full_path: top, select_data: [{ name: '时光的晚风', icon: 'icon-folder' }], depth: 1 })).data).toHaveLength(0);
    const deep = expectOk(await id3({ file_full_path: top, select_data: [{ name: '时光的晚风', icon: 'icon-folder' }], depth: -1 }));
    expect(deep.data).toHaveLength(4);
    const limited = expectOk(await id3({ file_full_path: lib, select_data: [{ name: '林语嫣' }, { name: '赵长青' }], depth: -1, limit: 3 }));
    expect(limited.data).toHaveLength(3);
    const sorted = expectOk(await id3({ file_full_path: top, select_data: [{ name: '时光的晚风' }], depth: -1, sorted_fields: '-title' }));
    const titles = sorted.data.map((r: any) => r.title);
    expect(titles).toEqual([...titles].sort(compareNames).reverse());
  });

  it('reports lyrics files, covers, and unreadable files as rows with an error', async () => {
    const dir = path.join(lib, '赵长青/爱情里的青春');
    const rows = expectOk(await id3({ file_full_path: dir, select_data: [{ name: '01 再见远方.mp3' }, { name: '02 致远方.mp3' }] })).data;
    expect(rows.map((r: any) => r.lyrics_file)).toEqual([true, false]);
    const bad = expectOk(await id3({ file_full_path: path.join(lib, 'Unsorted'), select_data: [{ name: 'corrupt.mp3' }, { name: 'notes.txt' }] })).data;
    expect(bad).toHaveLength(1);
    expect(bad[0].error).toMatch(/\S/);
    expect(bad[0].title).toBeNull();
  });

  it('skips webdav folders unless asked', async () => {
    const webdav = h.rt.roots.root('webdav').dir;
    await mkdir(path.join(webdav, 'share'));
    const { copyFile } = await import('node:fs/promises');
    await copyFile(path.join(lib, 'Unsorted/track01.mp3'), path.join(webdav, 'share/t.mp3'));
    expect(expectOk(await id3({ file_full_path: webdav, select_data: [{ name: 'share', icon: 'icon-folder' }] })).data).toHaveLength(0);
    expect(expectOk(await id3({ file_full_path: webdav, select_data: [{ name: 'share', icon: 'icon-folder' }], is_webdav: true })).data).toHaveLength(1);
  });

  it('refuses names that leave the folder, bad payloads, anonymous and CSRF-less calls', async () => {
    expectError(await id3({ file_full_path: lib, select_data: [{ name: '../../../etc' }] }), 400, 'TAGSONIC_ERR_FILES_BAD_NAME');
    expectError(await id3({ file_full_path: lib, select_data: [{ name: '..' }] }), 400, 'TAGSONIC_ERR_FILES_BAD_NAME');
    expectError(await id3({ file_full_path: lib, select_data: [{ name: 'etc-link' }] }), 403, 'TAGSONIC_ERR_MEDIA_OUTSIDE_ROOTS');
    expectError(await id3({ file_full_path: '/etc', select_data: [{ name: 'passwd' }] }), 403);
    expectError(await id3({ file_full_path: lib, select_data: [] }), 400, 'TAGSONIC_ERR_HTTP_INVALID');
    expectError(await id3({ file_full_path: lib, select_data: [{ name: 'x' }], depth: 2 }), 400, 'TAGSONIC_ERR_HTTP_INVALID');
    expectError(await id3({ file_full_path: lib, select_data: [{ name: 'x' }], what: 1 }), 400, 'TAGSONIC_ERR_HTTP_INVALID');
    expectError(await id3({ file_full_path: lib, select_data: [{ name: 'Unsorted' }] }, 'none'), 401);
    expectError(await id3({ file_full_path: lib, select_data: [{ name: 'Unsorted' }] }, { cookieOnly: s }), 403);
  });
});

describe('POST /apimt/music_id3/ and the binary GETs', () => {
  const dir = () => path.join(lib, '赵长青/爱情里的青春');

  it('returns every editable and read-only field, lyrics_file, cover and play URLs', async () => {
    const info = expectOk(await call(h.app, s, 'POST', '/apimt/music_id3/', { file_path: dir(), file_name: '01 再见远方.mp3' })).data;
    for (const f of ['title', 'artist', 'album', 'albumartist', 'genre', 'language', 'year', 'lyrics', 'comment', 'description', 'discnumber', 'tracknumber', 'totaltracks', 'totaldiscs', 'composer', 'lyricist', 'album_type', 'replaygain_album_gain', 'replaygain_album_peak', 'replaygain_track_gain', 'replaygain_track_peak']) {
      expect(info).toHaveProperty(f);
    }
    expect(info).toMatchObject({ filename: '01 再见远方.mp3', lyrics_file: true, title: '再见远方', channels: expect.any(Number), format: 'mp3', path: path.join(dir(), '01 再见远方.mp3') });
    expect(info.sample_rate).toBeGreaterThan(8);
    expect(info.sample_rate).toBeLessThan(200);
    expect(info.size).toBeGreaterThan(0);
    expect(info.play_url).toBe(`/apimt/file_stream/?path=${encodeURIComponent(info.path)}`);
    expect(info.last_write_id).toBeNull();
    const same = expectOk(await call(h.app, s, 'POST', '/apimt/music_id3/', { file_path: info.path })).data;
    expect(same.title).toBe(info.title);
    expectError(await call(h.app, s, 'POST', '/apimt/music_id3/', { file_path: dir(), file_name: '../../../../etc/passwd' }), 400, 'TAGSONIC_ERR_FILES_BAD_NAME');
    expectError(await call(h.app, s, 'POST', '/apimt/music_id3/', { file_path: '/etc/passwd' }), 403);
    expectError(await call(h.app, s, 'POST', '/apimt/music_id3/', { file_path: path.join(lib, 'Unsorted/corrupt.mp3') }), 415, 'TAGSONIC_ERR_TAGS_UNSUPPORTED_FORMAT');
    expectError(await call(h.app, s, 'POST', '/apimt/music_id3/', {}), 400, 'TAGSONIC_ERR_HTTP_INVALID');
    expectError(await call(h.app, 'none', 'POST', '/apimt/music_id3/', { file_path: info.path }), 401);
  });

  it('streams audio with HTTP Range (200, 206, 416) and serves covers', async () => {
    const file = path.join(dir(), '01 再见远方.mp3');
    const url = `/apimt/file_stream/?path=${encodeURIComponent(file)}`;
    const whole = await call(h.app, s, 'GET', url);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('audio/mpeg');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    const size = whole.rawPayload.length;
    const part = await call(h.app, s, 'GET', url, undefined, { range: 'bytes=10-19' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 10-19/${size}`);
    expect(part.rawPayload).toEqual(whole.rawPayload.subarray(10, 20));
    const tail = await call(h.app, s, 'GET', url, undefined, { range: 'bytes=-5' });
    expect(tail.rawPayload).toEqual(whole.rawPayload.subarray(size - 5));
    const beyond = await call(h.app, s, 'GET', url, undefined, { range: `bytes=${size}-` });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${size}`);
    expect((await call(h.app, 'none', 'GET', url)).statusCode).toBe(401);
    expectError(await call(h.app, s, 'GET', `/apimt/file_stream/?path=${encodeURIComponent('/etc/hostname')}`), 403);
    expectError(await call(h.app, s, 'GET', `/apimt/file_stream/?path=${encodeURIComponent(path.join(lib, 'hostname-link.mp3'))}`), 403);
    expectError(await call(h.app, s, 'GET', `/apimt/file_stream/?path=${encodeURIComponent(path.join(dir(), 'cover.jpg'))}`), 400, 'TAGSONIC_ERR_FILES_NOT_AUDIO');

    const img = await call(h.app, s, 'GET', `/apimt/file_cover/?path=${encodeURIComponent(path.join(dir(), 'cover.jpg'))}`);
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/jpeg');
  });
});
