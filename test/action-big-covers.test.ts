/**
 * A batch edit over tracks with large embedded covers through the routes and a worker at the shipped command
 * concurrency (4): every item of a tags plugin holds its track's cover inside the plugin's one sandbox (64 MB)
 * while it runs, and sixteen items of replace-text at once on 4 MB covers made isolated-vm abort the whole
 * process (workers/src/action-lanes.ts keeps tags plugins to the command concurrency). The task ends, every title
 * is replaced, every cover is still there. Real store, bus, worker, sandbox and files.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '@tagsonic/core/config';
import { readTags, safeWriteTags } from '@tagsonic/core/tags';
import { buildApp } from '@tagsonic/gateway';
import { startWorker, type Worker } from '@tagsonic/workers';
import { builtinPlugin } from '@tagsonic/workers/plugin-runtime';
import { gatewayDeps, openRuntime, type Runtime } from '@tagsonic/cli';
import type { Manifest } from '@tagsonic/sdk';
import { call, expectOk, login, ADMIN_PASSWORD, type Session } from './api-harness.ts';
import { makeAudio } from './support/audio.ts';
import { taskFinished } from './support/task-wait.ts';

const run = promisify(execFile);
const TRACKS = 20;
let home: string;
let rt: Runtime;
let worker: Worker;
let app: FastifyInstance;
let admin: Session;
let folder: string;
let coverBytes = 0;

beforeAll(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'tagsonic-big-covers-'));
  rt = await openRuntime(loadConfig({ TAGSONIC_HOME: home }));
  await rt.users.ensureAdmin(ADMIN_PASSWORD);
  const { manifest, code } = await builtinPlugin('replace-text');
  await rt.plugins.syncBuiltins([{ manifest: manifest as Manifest, code }]);
  worker = await startWorker({ bus: rt.bus, tasks: rt.tasks, roots: rt.roots, journal: rt.journal, concurrency: 4, plugins: { registry: rt.plugins, store: rt.store } });
  app = await buildApp(gatewayDeps(rt, { buildId: 'test', dashboardDir: path.join(home, 'no-dashboard') }));
  await app.ready();
  admin = await login(app);
  folder = path.join(rt.roots.root('media').dir, 'Scans');
  await mkdir(folder, { recursive: true });
  // A 4 MB PNG of noise (incompressible), as a high-resolution scan embedded in every track.
  const png = path.join(home, 'cover.png');
  await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'nullsrc=s=1300x1300,geq=random(1)*255:random(1)*255:random(1)*255', '-frames:v', '1', png]);
  const cover = await readFile(png);
  coverBytes = cover.length;
  for (let i = 0; i < TRACKS; i++) {
    const file = path.join(folder, `${String(i).padStart(2, '0')}.mp3`);
    await makeAudio(file, { tags: { title: `Track ${i}` } });
    await safeWriteTags(file, { fields: {}, artwork: { mime: 'image/png', data: cover } }, { journal: rt.journal, actor: 'test' });
  }
}, 120_000);

afterAll(async () => {
  await app?.close();
  await worker?.close();
  await rt?.close();
  await rm(home, { recursive: true, force: true });
});

describe('a batch edit of tracks with 4 MB covers', () => {
  it('finishes every item, and the covers stay', async () => {
    expect(coverBytes).toBeGreaterThan(3_500_000);
    const res = expectOk(await call(app, admin, 'POST', '/apimt/replace_text/', {
      file_full_path: rt.roots.root('media').dir, select_data: [{ icon: 'icon-folder', name: 'Scans', title: 'Scans' }],
      replace_text_list: [{ before: 'Track ', after: 'Scan ' }], modify_list: ['title'], replace_mode: 'text',
    }));
    expect(await taskFinished(rt.tasks, res.data.task_id, 90_000)).toMatchObject({ status: 'success', counts: { success: TRACKS, fail: 0 } });
    const after = await readTags(path.join(folder, '07.mp3'), { artwork: true });
    expect(after.tags.fields.title).toBe('Scan 7');
    expect(after.artwork?.data.length).toBe(coverBytes);
  }, 120_000);
});
