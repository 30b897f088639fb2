/**
 * Batch edits over tracks with large embedded covers through the routes and a worker at the shipped command
 * concurrency (4), whose tags plugins now run 16 items at once (workers/src/action-lanes.ts). Sixteen items at once
 * each holding a 4 MB cover inside the plugin's one sandbox (64 MB) made isolated-vm abort the whole process;
 * now a large capability result waits while the sandbox's invocations already hold a quarter of its memory
 * (plugin-host/crossing-budget.ts). replace-text reads no cover at all; an uploaded tags-only plugin reads every
 * track's cover and writes it back with a new title, 16 items at once (without the budget this aborts the test's
 * process); 手动修改 with 导入封面 (granted llm too: the command concurrency) reads each track's cover and its
 * folder's 4 MB cover.png and writes the latter into every track. Every task ends with every item done and every
 * cover in place. Real store, bus, worker, sandbox and files.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
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
/** A plugin as a user would upload it: granted tags only (so in the tags lanes), reading each track's cover. */
const COVER_STAMP = {
  id: 'cover-stamp', name: 'Cover stamp', version: '1.0.0', description: 'Reads each track with its cover and writes both back with a stamped title.',
  kind: 'batch-action', entry: 'index.js',
  permissions: { tags: { access: 'write', reason: 'Reads each track with its cover and writes it back.' } },
} as Manifest;
const COVER_STAMP_CODE = `exports.runItem = async ({ item }, caps) => {
  const track = await caps.tags.read({ path: item.paths[0], artwork: true });
  if (!track.artwork) return { status: 'fail', reason: 'no cover' };
  await caps.tags.write({ path: track.path, tags: { title: track.title + ' ·c', artwork: track.artwork } });
  return { status: 'success' };
};`;
const TRACKS = 40;
let home: string;
let rt: Runtime;
let worker: Worker;
let app: FastifyInstance;
let admin: Session;
let folder: string;
let coverBytes = 0;
let imports: string;
let folderCover: Buffer;

beforeAll(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'tagsonic-big-covers-'));
  rt = await openRuntime(loadConfig({ TAGSONIC_HOME: home }));
  await rt.users.ensureAdmin(ADMIN_PASSWORD);
  for (const id of ['replace-text', 'batch-update-id3']) {
    const { manifest, code } = await builtinPlugin(id);
    await rt.plugins.syncBuiltins([{ manifest: manifest as Manifest, code }]);
  }
  await rt.plugins.syncBuiltins([{ manifest: COVER_STAMP, code: COVER_STAMP_CODE }]);
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
  // Another folder of the same tracks, with another 4 MB picture as its cover.png for 导入封面.
  imports = path.join(rt.roots.root('media').dir, 'Imports');
  await mkdir(imports, { recursive: true });
  for (let i = 0; i < TRACKS; i++) await copyFile(path.join(folder, `${String(i).padStart(2, '0')}.mp3`), path.join(imports, `${String(i).padStart(2, '0')}.mp3`));
  await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'nullsrc=s=1310x1300,geq=random(1)*255:random(1)*255:random(1)*255', '-frames:v', '1', path.join(imports, 'cover.png')]);
  folderCover = await readFile(path.join(imports, 'cover.png'));
}, 120_000);

afterAll(async () => {
  await app?.close();
  await worker?.close();
  await rt?.close();
  await rm(home, { recursive: true, force: true });
});

describe('batch edits of tracks with 4 MB covers, 16 items at once', () => {
  it('replace-text (no cover read) finishes every item, and the covers stay', async () => {
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

  it('an uploaded tags plugin reading and writing every 4 MB cover finishes every item', async () => {
    const res = expectOk(await call(app, admin, 'POST', '/apimt/run_action/', {
      plugin_id: 'cover-stamp', file_full_path: rt.roots.root('media').dir, select_data: [{ icon: 'icon-folder', name: 'Scans', title: 'Scans' }],
    }));
    expect(await taskFinished(rt.tasks, res.data.task_id, 90_000)).toMatchObject({ status: 'success', counts: { success: TRACKS, fail: 0 } });
    const after = await readTags(path.join(folder, '23.mp3'), { artwork: true });
    expect(after.tags.fields.title).toMatch(/ 23 ·c$/);
    expect(after.artwork?.data.length).toBe(coverBytes);
  }, 120_000);

  it('手动修改 with 导入封面 (each item reads its cover and the folder\'s) finishes every item and imports the cover', async () => {
    expect(folderCover.length).toBeGreaterThan(3_500_000);
    const res = expectOk(await call(app, admin, 'POST', '/apimt/batch_update_id3/', {
      file_full_path: rt.roots.root('media').dir, select_data: [{ icon: 'icon-folder', name: 'Imports', title: 'Imports' }],
      music_info: { is_import_album_cover: true },
    }));
    expect(await taskFinished(rt.tasks, res.data.task_id, 90_000)).toMatchObject({ status: 'success', counts: { success: TRACKS, fail: 0 } });
    for (const n of ['00', '17', '39']) {
      const after = await readTags(path.join(imports, `${n}.mp3`), { artwork: true });
      expect(Buffer.from(after.artwork!.data).equals(folderCover)).toBe(true);
    }
  }, 120_000);
});
