/**
 * The host capabilities a plugin gets from its grants (files, tags, ffmpeg, fingerprint, text, kv, progress,
 * match, sources), through the real loadPlugin and sandbox, on real files, the real tag engine and journal,
 * the real embedded store, ffmpeg and fpcalc. The plugin below is a tiny generic one: `call` runs
 * `caps.<path>(...args)` and returns its result or the error's code and message, `shape` describes `caps`.
 * Security cases: `..`, absolute paths outside, symlinks out of the roots, ungranted capabilities, a read
 * grant asked to write.
 */
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MediaRoots } from '@tagsonic/core/media';
import { openEmbeddedStore, type Store } from '@tagsonic/core/store';
import { createTagJournal, readTags, TAG_JOURNAL_COLLECTION, type TagJournal } from '@tagsonic/core/tags';
import type { Permissions } from '@tagsonic/sdk';
import { loadPlugin, type LoadedPlugin, type PluginHostServices } from '@tagsonic/workers/plugin-runtime';
import { makeAudio, probeTags } from './support/audio.ts';

const run = promisify(execFile);

const CODE = `
const at = (caps, p) => p.split('.').reduce((o, k) => (o == null ? undefined : o[k]), caps);
exports.call = async ({ path, args }, caps) => {
  const fn = at(caps, path);
  if (typeof fn !== 'function') return { absent: true };
  try { return { value: await fn(...args) }; } catch (e) { return { code: e.code ?? null, message: e.message }; }
};
exports.shape = async (_, caps) => {
  const describe = (o) => Object.fromEntries(Object.keys(o).sort().map((k) => [k, typeof o[k] === 'object' && o[k] !== null ? describe(o[k]) : typeof o[k]]));
  return describe(caps);
};
`;

let dir: string;
let media: string;
let outside: string;
let store: Store;
let roots: MediaRoots;
let journal: TagJournal;
const loaded: LoadedPlugin[] = [];
const progress: Array<{ done: number; total: number; message?: string }> = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tagsonic-caps-'));
  media = path.join(dir, 'media');
  outside = path.join(dir, 'outside');
  await mkdir(path.join(media, 'Album'), { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(outside, 'secret.txt'), 'secret');
  await symlink(path.join(outside, 'secret.txt'), path.join(media, 'link-out.txt'));
  await symlink(outside, path.join(media, 'dir-out'));
  await makeAudio(path.join(media, 'Album', '01 Tone.flac'), { seconds: 3, tags: { title: 'Tone', artist: 'Tester', track: '1' } });
  roots = await MediaRoots.open({ media });
  store = await openEmbeddedStore({ dir: path.join(dir, 'store') });
  journal = createTagJournal({ store, blobDir: path.join(dir, 'blobs') });
}, 30_000);

afterEach(() => {
  for (const plugin of loaded.splice(0)) plugin.close();
});

afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

function load(permissions: Permissions, options: { id?: string; host?: Partial<PluginHostServices> | null } = {}) {
  const host = options.host === null ? undefined : { roots, journal, store, progress: (p: (typeof progress)[number]) => progress.push(p), ...options.host };
  const manifest = { id: options.id ?? 'capsprobe', name: 'Caps probe', version: '1.0.0', description: 'Calls capabilities.', kind: 'batch-action', entry: 'index.js', permissions };
  const plugin = loadPlugin({ manifest, code: CODE, env: {}, host, sandbox: { timeoutMs: 60_000 } });
  loaded.push(plugin);
  return {
    call: (capability: string, ...args: unknown[]) => plugin.invoke('call', { path: capability, args }) as Promise<{ value?: any; code?: string; message?: string; absent?: true }>,
    shape: () => plugin.invoke('shape'),
  };
}

const inMedia = (...parts: string[]) => path.join(media, ...parts);

describe('which capabilities a plugin gets', () => {
  it('without grants: text, match, progress, kv, config and log only', async () => {
    expect(await load({}).shape()).toEqual({
      config: { get: 'function' },
      kv: { delete: 'function', get: 'function', list: 'function', set: 'function' },
      log: { debug: 'function', error: 'function', info: 'function', warn: 'function' },
      match: { rank: 'function' },
      progress: 'function',
      text: { convert: 'function', decode: 'function', match: 'function', replace: 'function' },
    });
  });

  it('a read grant gets the read half only; write gets all of it', async () => {
    const read = await load({ files: { access: 'read', reason: 'r' }, tags: { access: 'read', reason: 'r' } }).shape() as Record<string, unknown>;
    expect(read.files).toEqual({ hash: 'function', hashMany: 'function', list: 'function', readBytes: 'function', stat: 'function', statMany: 'function' });
    expect(read.tags).toEqual({ folderCover: 'function', lyricsFile: 'function', read: 'function', render: 'function' });
    const write = await load({ files: { access: 'write', reason: 'w' }, tags: { access: 'write', reason: 'w' }, ffmpeg: { reason: 'f' }, fingerprint: { reason: 'f' }, sources: { ids: ['itunes'], reason: 's' } }).shape() as Record<string, unknown>;
    expect(write.files).toEqual({ copy: 'function', delete: 'function', hash: 'function', hashMany: 'function', list: 'function', move: 'function', readBytes: 'function', removeDir: 'function', stat: 'function', statMany: 'function', writeStrm: 'function' });
    expect(write.tags).toEqual({ folderCover: 'function', lyricsFile: 'function', read: 'function', render: 'function', write: 'function', writeSideFile: 'function' });
    expect(write).toMatchObject({ ffmpeg: { run: 'function' }, fingerprint: { compute: 'function' }, sources: { search: 'function' } });
  });
});

describe('files', () => {
  it('lists and stats inside the roots, leaving out symlinks that point outside', async () => {
    const plugin = load({ files: { access: 'read', reason: 'r' } });
    const { value } = await plugin.call('files.list', { path: media });
    expect(value.entries.map((e: { name: string; type: string }) => [e.name, e.type])).toEqual([['Album', 'directory']]);
    const relative = await plugin.call('files.list', { path: 'Album' });
    expect(relative.value.entries).toEqual([expect.objectContaining({ name: '01 Tone.flac', path: inMedia('Album', '01 Tone.flac'), type: 'file', size: expect.any(Number) })]);
    expect((await plugin.call('files.stat', { path: inMedia('nothing.txt') })).value).toBeNull();
  });

  it.each([
    ['..', () => '../outside/secret.txt'],
    ['a nested ..', () => 'Album/../../outside/secret.txt'],
    ['an absolute path outside', () => path.join(outside, 'secret.txt')],
    ['/etc/passwd', () => '/etc/passwd'],
    ['a symlink to a file outside', () => inMedia('link-out.txt')],
    ['a symlink to a folder outside', () => inMedia('dir-out', 'secret.txt')],
  ])('refuses %s with TAGSONIC_ERR_PLUGIN_DENIED', async (_name, target) => {
    const plugin = load({ files: { access: 'write', reason: 'w' }, tags: { access: 'write', reason: 'w' }, fingerprint: { reason: 'f' }, ffmpeg: { reason: 'f' } });
    for (const [capability, args] of [
      ['files.stat', { path: target() }],
      ['files.list', { path: target() }],
      ['files.delete', { path: target() }],
      ['files.copy', { from: target(), to: inMedia('stolen.txt') }],
      ['files.copy', { from: inMedia('Album', '01 Tone.flac'), to: target() }],
      ['tags.read', { path: target() }],
      ['fingerprint.compute', { path: target() }],
      ['ffmpeg.run', { preset: 'probe', input: target() }],
    ] as const) {
      expect(await plugin.call(capability, args), `${capability} ${JSON.stringify(args)}`).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_DENIED' });
    }
    expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('secret');
    await expect(stat(inMedia('stolen.txt'))).rejects.toThrow();
  });

  it('copies, moves and deletes with the write grant; an existing target is a conflict unless overwrite', async () => {
    const plugin = load({ files: { access: 'write', reason: 'w' } });
    await writeFile(inMedia('a.txt'), 'A');
    await writeFile(inMedia('b.txt'), 'B');
    expect(await plugin.call('files.copy', { from: 'a.txt', to: 'Copies/a.txt' })).toEqual({ value: { path: inMedia('Copies', 'a.txt') } });
    expect(await plugin.call('files.move', { from: 'b.txt', to: 'Copies/a.txt' })).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_CONFLICT' });
    expect(await readFile(inMedia('b.txt'), 'utf8')).toBe('B');
    expect(await plugin.call('files.move', { from: 'b.txt', to: 'Copies/a.txt', overwrite: true })).toEqual({ value: { path: inMedia('Copies', 'a.txt') } });
    expect(await readFile(inMedia('Copies', 'a.txt'), 'utf8')).toBe('B');
    expect(await plugin.call('files.delete', { path: 'a.txt' })).toEqual({ value: { path: inMedia('a.txt') } });
    expect(await plugin.call('files.delete', { path: 'Copies' })).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID' });
    expect(await plugin.call('files.stat', { path: 'missing.txt' })).toEqual({ value: null });
    expect(await plugin.call('files.delete', { path: 'missing.txt' })).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_NOT_FOUND' });
  });
});

describe('tags', () => {
  it('reads, and writes through the journal (undoable, with the plugin as actor)', async () => {
    const file = inMedia('Album', '01 Tone.flac');
    const reader = load({ tags: { access: 'read', reason: 'r' } });
    const { value } = await reader.call('tags.read', { path: file });
    expect(value).toMatchObject({ title: 'Tone', artist: 'Tester', tracknumber: 1, path: file, format: 'flac', artworkInfo: null });
    expect(value).not.toHaveProperty('artwork');
    expect(value.duration).toBeCloseTo(3, 0);
    expect(await reader.call('tags.write', { path: file, tags: { title: 'X' } })).toEqual({ absent: true });

    const writer = load({ tags: { access: 'write', reason: 'w' } }, { id: 'lyricsbot' });
    expect(await writer.call('tags.write', { path: file, tags: { lyrics: '[00:01.00]你好', tracknumber: 7 } })).toEqual({ value: { path: file } });
    expect(await probeTags(file)).toMatchObject({ title: 'Tone', lyrics: '[00:01.00]你好', track: '7' });
    const entries = await store.collection(TAG_JOURNAL_COLLECTION).find({ path: file });
    expect(entries).toEqual([expect.objectContaining({ actor: 'plugin:lyricsbot', state: 'committed', changed: expect.arrayContaining(['lyrics', 'tracknumber']) })]);
    expect(await writer.call('tags.write', { path: file, tags: { bogus: 1 } })).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID' });
  });
});

describe('ffmpeg and fingerprint', () => {
  it('converts with a preset into the roots; a read grant cannot write an output', async () => {
    const input = inMedia('Album', '01 Tone.flac');
    const readOnly = load({ ffmpeg: { reason: 'f' }, files: { access: 'read', reason: 'r' } });
    expect(await readOnly.call('ffmpeg.run', { preset: 'convert', input, output: inMedia('tone.mp3'), format: 'mp3' })).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_DENIED' });
    const probe = await readOnly.call('ffmpeg.run', { preset: 'probe', input });
    expect(probe.value).toMatchObject({ codec: 'flac', sampleRate: 44100 });

    const plugin = load({ ffmpeg: { reason: 'f' }, files: { access: 'write', reason: 'w' } });
    expect(await plugin.call('ffmpeg.run', { preset: 'convert', input, output: 'Converted/tone.mp3', format: 'mp3', bitrateKbps: 128 })).toEqual({ value: { path: inMedia('Converted', 'tone.mp3') } });
    expect((await readTags(inMedia('Converted', 'tone.mp3'))).audio).toMatchObject({ format: 'mp3', codec: expect.stringMatching(/mp3|MPEG/i) });
    expect(await plugin.call('ffmpeg.run', { preset: 'convert', input, output: 'Converted/tone.mp3', format: 'mp3' })).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_CONFLICT' });
    expect(await plugin.call('ffmpeg.run', { preset: 'convert', input, output: path.join(outside, 'x.mp3'), format: 'mp3' })).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_DENIED' });
    expect(await plugin.call('ffmpeg.run', { preset: 'raw', args: ['-i', '/etc/passwd'] })).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID' });
  }, 60_000);

  it('cuts, measures loudness and extracts covers; refuses inputs not named as audio (playlists name other files)', async () => {
    const input = inMedia('Album', '01 Tone.flac');
    const plugin = load({ ffmpeg: { reason: 'f' }, files: { access: 'write', reason: 'w' }, fingerprint: { reason: 'f' } });
    expect(await plugin.call('ffmpeg.run', { preset: 'cut', input, output: 'Cut/part.wav', start: 0.5, end: 1.5 })).toEqual({ value: { path: inMedia('Cut', 'part.wav') } });
    expect((await readTags(inMedia('Cut', 'part.wav'))).audio.duration).toBeCloseTo(1, 1);
    const loudness = await plugin.call('ffmpeg.run', { preset: 'loudness', input });
    expect(loudness.value).toEqual({ trackGain: expect.stringMatching(/^[+-]\d+\.\d\d dB$/), trackPeak: expect.stringMatching(/^[01]\.\d{6}$/) });
    expect(await plugin.call('ffmpeg.run', { preset: 'extract-cover', input })).toEqual({ value: null });
    await writeFile(inMedia('list.m3u8'), `#EXTM3U\n${path.join(outside, 'secret.txt')}\n`);
    expect(await plugin.call('ffmpeg.run', { preset: 'probe', input: 'list.m3u8' })).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID', message: expect.stringContaining('not an audio file') });
    expect(await plugin.call('fingerprint.compute', { path: 'list.m3u8' })).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID' });
  }, 60_000);

  it('fingerprints with fpcalc', async () => {
    const plugin = load({ fingerprint: { reason: 'f' } });
    const { value } = await plugin.call('fingerprint.compute', { path: inMedia('Album', '01 Tone.flac') });
    expect(value).toEqual({ fingerprint: expect.stringMatching(/^[A-Za-z0-9_-]{10,}$/), duration: expect.any(Number) });
  });
});

describe('text, kv, progress, match, sources', () => {
  it('converts Chinese script with OpenCC', async () => {
    const plugin = load({});
    expect(await plugin.call('text.convert', { text: '張學友 吻別', direction: 't2s' })).toEqual({ value: '张学友 吻别' });
    expect(await plugin.call('text.convert', { text: '张学友', direction: 's2t' })).toEqual({ value: '張學友' });
    expect(await plugin.call('text.convert', { text: 'x', direction: 'x2y' })).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID' });
  });

  it('decodes legacy encodings; fatal gives null for bytes not valid in the encoding', async () => {
    const plugin = load({});
    const bytes = (hex: string) => new Uint8Array(Buffer.from(hex, 'hex'));
    expect(await plugin.call('text.decode', { bytes: bytes('d5c5d1a7d3d1'), encoding: 'gbk' })).toEqual({ value: '张学友' });
    expect(await plugin.call('text.decode', { bytes: bytes('b169bec7a4cd'), encoding: 'big5' })).toEqual({ value: '張學友' });
    expect(await plugin.call('text.decode', { bytes: bytes('82a082a2'), encoding: 'shift_jis' })).toEqual({ value: 'あい' });
    expect(await plugin.call('text.decode', { bytes: bytes('e9'), encoding: 'utf-8', fatal: true })).toEqual({ value: null });
    expect(await plugin.call('text.decode', { bytes: bytes('e9'), encoding: 'utf-8' })).toEqual({ value: '\ufffd' });
    expect(await plugin.call('text.decode', { bytes: bytes('00'), encoding: 'x-mac-klingon' })).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID' });
    expect(await plugin.call('text.decode', { bytes: 'd5c5', encoding: 'gbk' })).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID' });
  });

  it('replaces and matches with linear-time regular expressions (RE2), refusing what RE2 cannot run', async () => {
    const plugin = load({});
    expect(await plugin.call('text.replace', { text: 'a.b.c', rules: [{ before: '.', after: '-' }] })).toEqual({ value: { text: 'a-b-c', count: 2 } });
    expect(await plugin.call('text.replace', { text: 'A  -  B', rules: [{ before: '\\s+', after: ' ' }, { before: '(\\w) - (?<b>\\w)', after: '$<b>/$1' }], mode: 'regex' }))
      .toEqual({ value: { text: 'B/A', count: 3 } });
    const started = Date.now();
    expect(await plugin.call('text.replace', { text: `${'a'.repeat(50_000)}b`, rules: [{ before: '(a|aa)+$', after: '' }], mode: 'regex' })).toEqual({ value: { text: `${'a'.repeat(50_000)}b`, count: 0 } });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await plugin.call('text.replace', { text: 'ab', rules: [{ before: 'a(?=b)', after: '' }], mode: 'regex' }))
      .toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID', message: expect.stringContaining('look-arounds') });
    expect(await plugin.call('text.replace', { text: 'x'.repeat(100_001), rules: [{ before: 'x', after: 'y' }] })).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_LIMIT' });
    expect(await plugin.call('text.match', { text: '周杰伦 - 晴天', patterns: ['^(?<title>\\d+)$', '(?<artist>.+?) - (?<title>.+)'] }))
      .toEqual({ value: { index: 1, groups: { artist: '周杰伦', title: '晴天' }, numbered: ['周杰伦', '晴天'] } });
    expect(await plugin.call('text.match', { text: 'x', patterns: ['y'] })).toEqual({ value: null });
    expect(await plugin.call('text.match', { text: 'x', patterns: ['x', '(?<!a)b'] })).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID' });
  });

  it('keeps kv per plugin, with size caps', async () => {
    const a = load({}, { id: 'kva' });
    const b = load({}, { id: 'kvb' });
    expect(await a.call('kv.set', { key: 'token', value: { access: 'abc', $set: 1, 'a.b': 2 } })).toEqual({ value: null });
    expect(await a.call('kv.get', { key: 'token' })).toEqual({ value: { access: 'abc', $set: 1, 'a.b': 2 } });
    expect(await b.call('kv.get', { key: 'token' })).toEqual({ value: null });
    expect(await a.call('kv.list', {})).toEqual({ value: ['token'] });
    expect(await a.call('kv.set', { key: 'big', value: 'x'.repeat(70_000) })).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_LIMIT' });
    expect(await a.call('kv.delete', { key: 'token' })).toEqual({ value: null });
    expect(await a.call('kv.get', { key: 'token' })).toEqual({ value: null });
  });

  it('forwards progress to the host', async () => {
    progress.length = 0;
    await load({}).call('progress', { done: 2, total: 5, message: 'b.flac' });
    expect(progress).toEqual([{ done: 2, total: 5, message: 'b.flac' }]);
  });

  it('ranks candidates with the host matcher', async () => {
    const song = (name: string, artist: string, album: string) => ({ id: name, name, artist, album, album_img: null, year: null, tracknumber: null, totaltracks: null, discnumber: null, totaldiscs: null, resource: 'x' });
    const { value } = await load({}).call('match.rank', {
      query: { title: '吻别', artist: '张学友', album: '吻别' },
      candidates: [song('吻别 (Live)', '张学友', '演唱会'), song('吻别', '别人', '吻别'), song('吻别', '张学友', '吻别')],
      mode: 'normal',
      limit: 2,
    });
    expect(value.map((s: { name: string; artist: string }) => `${s.name}/${s.artist}`)).toEqual(['吻别/张学友', '吻别 (Live)/张学友']);
    expect(value[0]).toMatchObject({ title_score: 2, artist_score: 2, album_score: 2, accepted: true });
    expect(value[0]).not.toHaveProperty('distance');
  });

  it('searches only the sources the manifest lists', async () => {
    const asked: string[] = [];
    const plugin = load({ sources: { ids: ['itunes'], reason: 's' } }, {
      host: { searchSource: async (id, query) => { asked.push(`${id}:${query.title}`); return []; } },
    });
    expect(await plugin.call('sources.search', { id: 'itunes', query: { title: 'Yesterday' } })).toEqual({ value: [] });
    expect(await plugin.call('sources.search', { id: 'netease', query: { title: 'Yesterday' } })).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_DENIED' });
    expect(asked).toEqual(['itunes:Yesterday']);
  });
});

describe('bytes across the sandbox', () => {
  it('http.fetch with responseType bytes gives the plugin a Uint8Array, and a Uint8Array in a result reaches the host', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 255]);
    const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(png));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/cover.png`;
      const manifest = { id: 'coverbot', name: 'Cover bot', version: '1.0.0', description: 'Fetches a cover.', kind: 'batch-action', entry: 'index.js', permissions: { http: { hosts: [{ host: '127.0.0.1', reason: 'The test server' }] } } };
      const code = `exports.cover = async ({ url }, caps) => {
        const { body } = await caps.http.fetch({ url, responseType: 'bytes' });
        return { isBytes: body instanceof Uint8Array, signature: Array.from(body.subarray(1, 4)), cover: { mime: 'image/png', data: body } };
      };`;
      const plugin = loadPlugin({ manifest, code, env: {} });
      loaded.push(plugin);
      const result = await plugin.invoke('cover', { url }) as { isBytes: boolean; signature: number[]; cover: { data: Uint8Array } };
      expect(result).toMatchObject({ isBytes: true, signature: [0x50, 0x4e, 0x47] });
      expect(result.cover.data).toBeInstanceOf(Uint8Array);
      expect(Buffer.from(result.cover.data).equals(png)).toBe(true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('tags.read hands the embedded cover over as bytes when asked (artwork: true) and tags.write takes them back', async () => {
    const file = inMedia('Album', 'cover.flac');
    await makeAudio(file, { seconds: 1, tags: { title: 'Covered' } });
    await run('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=64x64:duration=1', '-frames:v', '1', path.join(dir, 'cover.png')]);
    const png = await readFile(path.join(dir, 'cover.png'));
    const code = `exports.roundtrip = async ({ path, png }, caps) => {
      await caps.tags.write({ path, tags: { artwork: { mime: 'image/png', data: png } } });
      const { artwork } = await caps.tags.read({ path, artwork: true });
      return { isBytes: artwork.data instanceof Uint8Array, artwork };
    };`;
    const manifest = { id: 'coverwriter', name: 'Cover writer', version: '1.0.0', description: 'Writes a cover.', kind: 'batch-action', entry: 'index.js', permissions: { tags: { access: 'write', reason: 'w' } } };
    const writer = loadPlugin({ manifest, code, env: {}, host: { roots, journal, store } });
    loaded.push(writer);
    const result = await writer.invoke('roundtrip', { path: file, png: new Uint8Array(png) }) as { isBytes: boolean; artwork: { mime: string; data: Uint8Array } };
    expect(result.isBytes).toBe(true);
    expect(result.artwork.mime).toBe('image/png');
    expect(Buffer.from(result.artwork.data).equals(png)).toBe(true);
    // The same picture through ffmpeg's extract-cover preset: JPEG bytes.
    const cover = await load({ ffmpeg: { reason: 'f' } }).call('ffmpeg.run', { preset: 'extract-cover', input: file });
    expect(cover.value.mime).toBe('image/jpeg');
    expect(Array.from((cover.value.data as Uint8Array).subarray(0, 2))).toEqual([0xff, 0xd8]);
  }, 30_000);
});

describe('an aggregator\'s time limit', () => {
  it('a plugin granted sources outlives a source that takes the full default 10 s', async () => {
    const slow: PluginHostServices['searchSource'] = () => new Promise((resolve) => setTimeout(() => resolve([]), 10_500));
    const manifest = { id: 'aggregator', name: 'Aggregator', version: '1.0.0', description: 'Waits on a source.', kind: 'tag-source', entry: 'index.js', permissions: { sources: { ids: ['itunes'], reason: 's' } } };
    const plugin = loadPlugin({ manifest, code: `exports.search = async (o, caps) => caps.sources.search({ id: 'itunes', query: o });`, env: {}, host: { roots, journal, store, searchSource: slow } });
    loaded.push(plugin);
    await expect(plugin.invoke('search', { title: 'x', artist: '', album: '', limit: 5 })).resolves.toEqual([]);
  }, 20_000);
});

describe('conversion presets (ffmpeg-convert.ts) and files.readBytes', () => {
  it('readBytes: a small file\'s bytes inside the roots; a large one, a folder or a link out refused', async () => {
    await writeFile(inMedia('Album', 'sheet.cue'), Buffer.from([0xd6, 0xdc, 0x0a]));
    await writeFile(inMedia('Album', 'big.bin'), Buffer.alloc(1024 * 1024 + 1));
    const plugin = load({ files: { access: 'read', reason: 'r' } });
    const { value } = await plugin.call('files.readBytes', { path: inMedia('Album', 'sheet.cue') });
    expect([...value.bytes]).toEqual([0xd6, 0xdc, 0x0a]);
    expect(await plugin.call('files.readBytes', { path: inMedia('Album', 'big.bin') })).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_LIMIT' });
    expect(await plugin.call('files.readBytes', { path: inMedia('Album') })).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID' });
    expect(await plugin.call('files.readBytes', { path: inMedia('link-out.txt') })).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_DENIED' });
  });

  it('transcode and extract: write grant, no overwrite, audio inputs, known tag keys, and a tag value is only a value', async () => {
    const input = inMedia('Album', '01 Tone.flac');
    const readOnly = load({ ffmpeg: { reason: 'f' }, files: { access: 'read', reason: 'r' } });
    expect(await readOnly.call('ffmpeg.run', { preset: 'transcode', input, output: inMedia('t.ogg'), format: 'ogg' })).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_DENIED' });
    const plugin = load({ ffmpeg: { reason: 'f' }, files: { access: 'write', reason: 'w' } });
    expect(await plugin.call('ffmpeg.run', { preset: 'transcode', input, output: inMedia('t.aiff'), format: 'aiff' })).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID' });
    expect(await plugin.call('ffmpeg.run', { preset: 'transcode', input: inMedia('Album', 'sheet.cue'), output: inMedia('t.ogg'), format: 'ogg' })).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID' });
    expect(await plugin.call('ffmpeg.run', { preset: 'transcode', input, output: input, format: 'flac' })).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_CONFLICT' });
    expect(await plugin.call('ffmpeg.run', { preset: 'extract', input, output: inMedia('t.flac'), format: 'flac', startSample: 10, endSample: 10 })).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID' });
    expect(await plugin.call('ffmpeg.run', { preset: 'extract', input, output: inMedia('t.flac'), format: 'flac', startSample: 0, tags: { encoder: 'x' } })).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID', message: expect.stringContaining('tag encoder is not one of') });
    const out = await plugin.call('ffmpeg.run', { preset: 'extract', input, output: inMedia('t.flac'), format: 'flac', startSample: 44100, endSample: 88200, tags: { title: '-i http://127.0.0.1/x', track: '2' } });
    expect(out.value).toEqual({ path: inMedia('t.flac') });
    expect(await probeTags(inMedia('t.flac'))).toMatchObject({ title: '-i http://127.0.0.1/x', track: '2' });
    const { stdout } = await run('ffprobe', ['-v', 'error', '-select_streams', 'a:0', '-show_entries', 'stream=duration_ts', '-of', 'csv=p=0', inMedia('t.flac')]);
    expect(Number(stdout.trim())).toBe(44100);
    const ogg = await plugin.call('ffmpeg.run', { preset: 'transcode', input, output: inMedia('t.ogg'), format: 'ogg', bitrateKbps: 320, sampleRate: 11025 });
    expect(ogg.value).toEqual({ path: inMedia('t.ogg') });
    expect(await probeTags(inMedia('t.ogg'))).toMatchObject({ title: 'Tone', artist: 'Tester' });
    // MP3 has no 96 kHz: the nearest rate it takes (48 kHz), and 320 kbps at 11025 Hz becomes what MPEG-2.5 allows.
    await plugin.call('ffmpeg.run', { preset: 'transcode', input, output: inMedia('t96.mp3'), format: 'mp3', sampleRate: 96000 });
    await plugin.call('ffmpeg.run', { preset: 'transcode', input, output: inMedia('t11.mp3'), format: 'mp3', bitrateKbps: 320, sampleRate: 11025 });
    const rateOf = async (f: string) => (await run('ffprobe', ['-v', 'error', '-select_streams', 'a:0', '-show_entries', 'stream=sample_rate', '-of', 'csv=p=0', f])).stdout.trim();
    expect(await rateOf(inMedia('t96.mp3'))).toBe('48000');
    expect(await rateOf(inMedia('t11.mp3'))).toBe('11025');
    expect(await readdirNames(media)).not.toContain(expect.stringMatching(/^\.tagsonic-ffmpeg-/));
  }, 60_000);
});

async function readdirNames(folder: string): Promise<string[]> {
  const { readdir } = await import('node:fs/promises');
  return readdir(folder);
}
