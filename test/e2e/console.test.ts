import { afterAll, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { makeAudio } from '../support/audio.ts';
import { runTagsonic, startTagsonic } from './tagsonic-process.ts';

const homes: string[] = [];
afterAll(async () => {
  for (const h of homes) await rm(h, { recursive: true, force: true });
});

const SUBSONIC = 'subsonic-console-pass';

async function ping(base: string, password = SUBSONIC): Promise<{ status: string; serverVersion: string }> {
  const r = (await (await fetch(`${base}/rest/ping.view?u=admin&p=${password}&c=test&v=1.16.1&f=json`)).json()) as any;
  return r['subsonic-response'];
}

/** A home with one song and one file named .mp3 that is not audio. */
async function libraryHome(): Promise<{ home: string; junk: string }> {
  const home = await mkdtemp(path.join(tmpdir(), 'tagsonic-console-'));
  homes.push(home);
  await mkdir(path.join(home, 'media/Artist'), { recursive: true });
  await makeAudio(path.join(home, 'media/Artist/01 Song.mp3'), { tags: { title: 'Song', artist: 'Artist' } });
  const junk = path.join(home, 'media/Artist/02 junk.mp3');
  await writeFile(junk, Buffer.alloc(4096, 0x5a));
  return { home, junk };
}

describe('the server console', () => {
  it('writes JSON lines when stdout is not a terminal: listening once, a scan summary, no request lines at info', async () => {
    const { home, junk } = await libraryHome();
    const t = await startTagsonic(home, { TAGSONIC_LOG_LEVEL: 'info', TAGSONIC_SUBSONIC_PASSWORD: SUBSONIC });
    const records = () =>
      t
        .stdout()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { level: number; msg: string; time: string; scan?: any });
    await expect.poll(() => records().some((r) => r.msg.startsWith('library scan finished')), { timeout: 30_000 }).toBe(true);
    for (let i = 0; i < 20; i++) expect((await ping(t.base)).status).toBe('ok');
    await ping(t.base, 'wrong-password');
    expect(await t.stop()).toBe(0);

    const all = records(); // every stdout line parsed as JSON
    expect(all.every((r) => typeof r.time === 'string' && r.level >= 30)).toBe(true);
    expect(all.filter((r) => /listening/i.test(r.msg))).toHaveLength(1);
    expect(all.filter((r) => /ping|incoming request|request completed/.test(r.msg))).toEqual([]);
    expect(all.filter((r) => r.msg.startsWith('library scan started'))).toHaveLength(1);
    const finished = all.find((r) => r.msg.startsWith('library scan finished'))!;
    expect(finished.msg).toMatch(/^library scan finished in \d+\.\d+ s: 2 files \(1 added, 0 updated, 0 moved, 0 removed, 0 unchanged\), 1 unreadable: /);
    expect(finished.msg).toContain(junk);
    expect(finished.scan).toMatchObject({ kind: 'incremental', files: { found: 2, added: 1 }, unreadable: 1 });
    expect(finished.scan.durationMs).toBeGreaterThan(0);
    expect(finished.scan.unreadableFiles).toEqual([expect.objectContaining({ path: junk })]);
    expect(t.stdout()).not.toContain(SUBSONIC);
  }, 90_000);

  it('writes one readable line per event with TAGSONIC_LOG_FORMAT=text, and request lines only at debug, credentials masked', async () => {
    const { home } = await libraryHome();
    const t = await startTagsonic(home, { TAGSONIC_LOG_LEVEL: 'debug', TAGSONIC_LOG_FORMAT: 'text', TAGSONIC_SUBSONIC_PASSWORD: SUBSONIC });
    await expect.poll(() => t.stdout().includes('library scan finished'), { timeout: 30_000 }).toBe(true);
    const version = (await ping(t.base)).serverVersion;
    expect(await t.stop()).toBe(0);

    const lines = t.stdout().split('\n').filter(Boolean);
    for (const line of lines) expect(line).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d (TRACE|DEBUG|INFO |WARN |ERROR|FATAL) \S/);
    expect(lines.filter((l) => l.includes('listening on http://127.0.0.1:'))).toHaveLength(1);
    const requests = lines.filter((l) => l.includes('/rest/ping.view'));
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatch(/DEBUG GET \/rest\/ping\.view\?u=admin&p=\[redacted\]&c=test&v=1\.16\.1&f=json 200 \d+\.\d ms$/);
    expect(t.stdout()).not.toContain(SUBSONIC);
    expect(lines.find((l) => l.includes('listening'))).toContain(version.replace(/^\S+ \((.*)\)$/, '$1'));

    // Same build, next start: the same serverVersion (it used to change at every start).
    const again = await startTagsonic(home, { TAGSONIC_SUBSONIC_PASSWORD: SUBSONIC });
    expect((await ping(again.base)).serverVersion).toBe(version);
    expect(await again.stop()).toBe(0);
  }, 90_000);

  it('refuses an unknown TAGSONIC_LOG_FORMAT or level before starting', async () => {
    const { home } = await libraryHome();
    const format = await runTagsonic(['start'], { TAGSONIC_HOME: home, TAGSONIC_PORT: '0', TAGSONIC_LOG_FORMAT: 'yaml' });
    expect(format.code).toBe(2);
    expect(format.stderr).toMatch(/TAGSONIC_LOG_FORMAT must be json or text, not "yaml"/);
    const level = await runTagsonic(['start'], { TAGSONIC_HOME: home, TAGSONIC_PORT: '0', TAGSONIC_LOG_LEVEL: 'verbose' });
    expect(level.code).toBe(2);
    expect(level.stderr).toMatch(/TAGSONIC_LOG_LEVEL must be one of/);
  }, 60_000);
});
