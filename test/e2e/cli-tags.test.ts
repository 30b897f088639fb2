import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, mkdir, readFile } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { makeAudio, probeTags } from '../support/audio.ts';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
let home: string;
let song: string;
let cover: string;

async function tagsonic(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--no-node-snapshot', path.join(ROOT, 'cli/src/main.ts'), ...args], {
      env: { ...process.env, TAGSONIC_HOME: home },
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

/** The attached picture's bytes as ffmpeg extracts them (independent of our reader). */
async function extractCover(file: string): Promise<Buffer | null> {
  try {
    const { stdout } = await run('ffmpeg', ['-v', 'error', '-i', file, '-map', '0:v', '-c', 'copy', '-f', 'image2pipe', '-'], {
      encoding: 'buffer',
      maxBuffer: 64 << 20,
    });
    return stdout.length ? (stdout as unknown as Buffer) : null;
  } catch {
    return null;
  }
}

beforeAll(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'tagsonic-cli-'));
  await mkdir(path.join(home, 'media'), { recursive: true });
  song = path.join(home, 'media/song.mp3');
  cover = path.join(home, 'cover.jpg');
  await makeAudio(song, { tags: { title: 'Original', artist: 'Someone' } });
  await run('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=300x300:rate=1', '-frames:v', '1', cover]);
});
afterAll(async () => rm(home, { recursive: true, force: true }));

describe('tagsonic tags', () => {
  it('shows, sets (with a cover) and undoes through the journal', async () => {
    const shown = await tagsonic('tags', 'show', '--json', song);
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)[0].tags.fields.title).toBe('Original');

    const set = await tagsonic('tags', 'set', song, '--title', '晴天', '--artist', '周杰伦', '--cover', cover);
    expect(set.code).toBe(0);
    const writeId = /write ([0-9a-f]{24})/.exec(set.stdout)?.[1];
    expect(writeId).toBeDefined();
    expect((await probeTags(song)).title).toBe('晴天');
    const embedded = await extractCover(song);
    expect(embedded && createHash('sha256').update(embedded).digest('hex')).toBe(
      createHash('sha256').update(await readFile(cover)).digest('hex'),
    );

    const undo = await tagsonic('tags', 'undo', writeId!);
    expect(undo.code).toBe(0);
    const after = await probeTags(song);
    expect(after.title).toBe('Original');
    expect(after.artist).toBe('Someone');
    expect(await extractCover(song)).toBeNull();

    const twice = await tagsonic('tags', 'undo', writeId!);
    expect(twice.code).not.toBe(0);
    expect(twice.stderr).toMatch(/already undone|undone/i);
  }, 60_000);

  it('fails clearly on bad input', async () => {
    const missing = await tagsonic('tags', 'show', path.join(home, 'media/nope.mp3'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/nope\.mp3/);
    const usage = await tagsonic('tags', 'set', song);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/nothing to set/);
    const unknown = await tagsonic('tags', 'undo', '000000000000000000000000');
    expect(unknown.code).not.toBe(0);
  }, 60_000);
});
