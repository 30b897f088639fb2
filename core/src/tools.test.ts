import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { toJpeg } from './files/images.ts';
import { toolPath, useToolDir } from './tools.ts';

const dir = await mkdtemp(path.join(tmpdir(), 'tagsonic-tools-'));
afterEach(() => useToolDir(null));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('external tools', () => {
  it('runs <data>/bin/ffmpeg when the administrator put one there, else the one on PATH', async () => {
    const bin = path.join(dir, 'bin');
    await mkdir(bin, { recursive: true });
    const marker = path.join(dir, 'ran.txt');
    // A wrapper that notes it ran, then runs the system's ffmpeg with the same arguments (no shell in between for ours).
    await writeFile(path.join(bin, 'ffmpeg'), `#!/bin/sh\necho "$@" >> '${marker}'\nexec /usr/bin/ffmpeg "$@"\n`);
    await chmod(path.join(bin, 'ffmpeg'), 0o755);
    // fpcalc there but not executable: not taken.
    await writeFile(path.join(bin, 'fpcalc'), 'not a program');

    useToolDir(bin);
    expect(toolPath('ffmpeg')).toBe(path.join(bin, 'ffmpeg'));
    expect(toolPath('fpcalc')).toBe('fpcalc');
    expect(toolPath('ffprobe')).toBe('ffprobe');
    expect(process.env.TAGSONIC_TOOL_DIR).toBe(bin);

    // A 1×1 PNG converted to JPEG goes through the wrapper.
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC', 'base64');
    const jpeg = await toJpeg(png);
    expect(Buffer.from(jpeg.subarray(0, 2)).toString('hex')).toBe('ffd8');
    expect(await readFile(marker, 'utf8')).toContain('image2pipe');

    useToolDir(null);
    expect(toolPath('ffmpeg')).toBe('ffmpeg');
    expect(process.env.TAGSONIC_TOOL_DIR).toBeUndefined();
  });
});
