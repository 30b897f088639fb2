import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { renameTrack } from './side-files.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tagsonic-side-'));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

describe('renameTrack', () => {
  it('renames the track and its .lrc sidecar', async () => {
    await writeFile(path.join(dir, 'old.mp3'), 'audio');
    await writeFile(path.join(dir, 'old.lrc'), '[00:01.00]la');
    await renameTrack(path.join(dir, 'old.mp3'), path.join(dir, 'new.mp3'));
    expect((await readdir(dir)).sort()).toEqual(['new.lrc', 'new.mp3']);
    expect(await readFile(path.join(dir, 'new.mp3'), 'utf8')).toBe('audio');
  });

  it('never replaces an existing file, and leaves the original in place', async () => {
    await writeFile(path.join(dir, 'a.mp3'), 'A');
    await writeFile(path.join(dir, 'b.mp3'), 'B');
    await expect(renameTrack(path.join(dir, 'a.mp3'), path.join(dir, 'b.mp3'))).rejects.toMatchObject({
      code: 'TAGSONIC_ERR_FILES_NAME_TAKEN',
    });
    expect(await readFile(path.join(dir, 'a.mp3'), 'utf8')).toBe('A');
    expect(await readFile(path.join(dir, 'b.mp3'), 'utf8')).toBe('B');
  });

  it('keeps an existing sidecar at the new name rather than overwriting it', async () => {
    await writeFile(path.join(dir, 'a.mp3'), 'A');
    await writeFile(path.join(dir, 'a.lrc'), 'old lyrics');
    await writeFile(path.join(dir, 'b.lrc'), 'other lyrics');
    await renameTrack(path.join(dir, 'a.mp3'), path.join(dir, 'b.mp3'));
    expect(await readFile(path.join(dir, 'b.lrc'), 'utf8')).toBe('other lyrics');
    expect(await readFile(path.join(dir, 'a.lrc'), 'utf8')).toBe('old lyrics');
  });
});
