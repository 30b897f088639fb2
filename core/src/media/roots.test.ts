import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, rm, symlink, writeFile, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MediaRoots, isInside } from './roots.ts';
import { TagsonicError } from '../errors/errors.ts';

let home: string;
let roots: MediaRoots;

beforeAll(async () => {
  home = await realpath(await mkdtemp(path.join(tmpdir(), 'tagsonic-roots-')));
  await mkdir(path.join(home, 'media/Artist/Album'), { recursive: true });
  await mkdir(path.join(home, 'media2'), { recursive: true });
  await mkdir(path.join(home, 'download'), { recursive: true });
  await mkdir(path.join(home, 'secret'), { recursive: true });
  await writeFile(path.join(home, 'media/Artist/Album/01 song.mp3'), 'x');
  await writeFile(path.join(home, 'media2/other.mp3'), 'x');
  await writeFile(path.join(home, 'secret/passwd'), 'x');
  await writeFile(path.join(home, 'download/dl.mp3'), 'x');
  await symlink(path.join(home, 'secret'), path.join(home, 'media/escape'));
  await symlink(path.join(home, 'secret/passwd'), path.join(home, 'media/escape-file.mp3'));
  await symlink(path.join(home, 'media/Artist'), path.join(home, 'media/inside-link'));
  await symlink(path.join(home, 'download'), path.join(home, 'media/dl-link'));
  roots = await MediaRoots.open({ media: path.join(home, 'media'), download: path.join(home, 'download') });
});
afterAll(async () => rm(home, { recursive: true, force: true }));

async function refusal(input: unknown, options?: { mustExist?: boolean }): Promise<TagsonicError> {
  try {
    await roots.resolve(input, options);
  } catch (e) {
    expect(e).toBeInstanceOf(TagsonicError);
    return e as TagsonicError;
  }
  throw new Error(`expected ${JSON.stringify(input)} to be refused`);
}

describe('MediaRoots.resolve', () => {
  it('accepts paths inside a root, absolute or relative to media', async () => {
    const abs = await roots.resolve(path.join(home, 'media/Artist/Album/01 song.mp3'));
    expect(abs.path).toBe(path.join(home, 'media/Artist/Album/01 song.mp3'));
    expect(abs.root.name).toBe('media');
    const rel = await roots.resolve('Artist/Album');
    expect(rel.path).toBe(path.join(home, 'media/Artist/Album'));
    expect((await roots.resolve(path.join(home, 'media'))).path).toBe(path.join(home, 'media'));
    expect((await roots.resolve(path.join(home, 'download/dl.mp3'))).root.name).toBe('download');
  });

  it('refuses parent traversal in every spelling', async () => {
    for (const p of [
      path.join(home, 'media/../secret/passwd'),
      '../secret/passwd',
      'Artist/../../secret',
      `${home}/media/Artist/../../secret/passwd`,
    ]) {
      expect((await refusal(p)).code).toBe('TAGSONIC_ERR_MEDIA_OUTSIDE_ROOTS');
    }
  });

  it('refuses absolute paths outside the roots and sibling-prefix folders', async () => {
    expect((await refusal('/etc/passwd')).kind).toBe('forbidden');
    expect((await refusal(path.join(home, 'media2/other.mp3'))).code).toBe('TAGSONIC_ERR_MEDIA_OUTSIDE_ROOTS');
    expect((await refusal(path.join(home, 'media2'))).code).toBe('TAGSONIC_ERR_MEDIA_OUTSIDE_ROOTS');
    expect((await refusal(home)).code).toBe('TAGSONIC_ERR_MEDIA_OUTSIDE_ROOTS');
  });

  it('refuses URL-encoded dots and separators, backslashes and NUL', async () => {
    for (const p of ['%2e%2e/%2e%2e/secret', '..%2fsecret', '%252e%252e/secret', 'Artist%5c..%5c..']) {
      expect((await refusal(p)).code).toBe('TAGSONIC_ERR_MEDIA_BAD_PATH');
    }
    expect((await refusal('..\\..\\secret')).code).toBe('TAGSONIC_ERR_MEDIA_BAD_PATH');
    expect((await refusal('Artist\0/../../secret')).code).toBe('TAGSONIC_ERR_MEDIA_BAD_PATH');
  });

  it('refuses Unicode look-alikes of dots and slashes', async () => {
    for (const p of ['\uFF0E\uFF0E/secret', 'Artist/\u2025', '\uFF0E\uFF0E\uFF0Fsecret', '\u2024\u2024/secret']) {
      const e = await refusal(p, { mustExist: false });
      expect(e.code).toBe('TAGSONIC_ERR_MEDIA_BAD_PATH');
    }
  });

  it('refuses symlinks that point out of the roots, follows those that stay inside', async () => {
    expect((await refusal(path.join(home, 'media/escape/passwd'))).code).toBe('TAGSONIC_ERR_MEDIA_OUTSIDE_ROOTS');
    expect((await refusal(path.join(home, 'media/escape-file.mp3'))).code).toBe('TAGSONIC_ERR_MEDIA_OUTSIDE_ROOTS');
    expect((await refusal(path.join(home, 'media/escape/new-file.mp3'), { mustExist: false })).code).toBe(
      'TAGSONIC_ERR_MEDIA_OUTSIDE_ROOTS',
    );
    const inside = await roots.resolve(path.join(home, 'media/inside-link/Album'));
    expect(inside.path).toBe(path.join(home, 'media/Artist/Album'));
    const other = await roots.resolve(path.join(home, 'media/dl-link/dl.mp3'));
    expect(other.root.name).toBe('download');
  });

  it('reports missing paths clearly, or resolves them when allowed', async () => {
    expect((await refusal(path.join(home, 'media/nope.mp3'))).kind).toBe('not_found');
    const r = await roots.resolve(path.join(home, 'media/Artist/New Album/x.mp3'), { mustExist: false });
    expect(r.exists).toBe(false);
    expect(r.path).toBe(path.join(home, 'media/Artist/New Album/x.mp3'));
  });

  it('refuses non-strings and empty paths', async () => {
    for (const p of [undefined, null, 42, {}, '']) expect((await refusal(p)).kind).toBe('invalid');
    expect((await refusal('a/'.repeat(3000))).kind).toBe('invalid');
  });

  it('isInside never matches a sibling sharing a prefix', () => {
    expect(isInside('/app/media', '/app/media')).toBe(true);
    expect(isInside('/app/media', '/app/media/a')).toBe(true);
    expect(isInside('/app/media', '/app/media2')).toBe(false);
    expect(isInside('/app/media', '/app')).toBe(false);
  });
});
