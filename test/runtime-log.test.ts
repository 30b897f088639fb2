/**
 * The runtime log and feedback routes on a real gateway whose console is the cli's (createConsole): what the
 * server printed comes back per process part (run log and error log), parts this process does not run say where
 * their lines are, and upload_log writes the reason with every part's lines into data/feedback. Real store, bus,
 * worker and files.
 */
import { readdir, readFile, mkdtemp, rm } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { loadConfig } from '@tagsonic/core/config';
import { processLogs } from '@tagsonic/core/logs';
import { buildApp } from '@tagsonic/gateway';
import { startWorker, type Worker } from '@tagsonic/workers';
import { gatewayDeps, openRuntime, type Runtime } from '@tagsonic/cli';
import { createConsole } from '../cli/src/console.ts';
import { call, expectError, expectOk, login, ADMIN_PASSWORD, USER_PASSWORD, type Session } from './api-harness.ts';

let home: string;
let rt: Runtime;
let worker: Worker;
let app: FastifyInstance;
let log: Logger;
let admin: Session;
let alice: Session;
const printed: string[] = [];

beforeAll(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'tagsonic-runtime-log-'));
  rt = await openRuntime(loadConfig({ TAGSONIC_HOME: home }));
  await rt.users.ensureAdmin(ADMIN_PASSWORD);
  await rt.users.create({ username: 'alice', password: USER_PASSWORD });
  worker = await startWorker({ bus: rt.bus, tasks: rt.tasks, roots: rt.roots, journal: rt.journal, concurrency: 1 });
  const out = new Writable({ write(chunk, _enc, done) { printed.push(String(chunk)); done(); } });
  log = createConsole({ level: 'debug', format: 'json', out });
  processLogs.serve('gunicorn', 'nginx'); // as `tagsonic gateway` does: this process runs no worker part
  app = await buildApp(gatewayDeps(rt, { buildId: 'test', dashboardDir: path.join(home, 'no-dashboard') }), { loggerInstance: log });
  await app.ready();
  admin = await login(app);
  alice = await login(app, 'alice', USER_PASSWORD);
}, 60_000);

afterAll(async () => {
  await app?.close();
  await worker?.close();
  await rt?.close();
  await rm(home, { recursive: true, force: true });
});

const runtimeLog = async (type: string, who: Session = admin) => expectOk(await call(app, who, 'POST', '/apimt/runtime_log/', { type })).data;

describe('runtime_log', () => {
  it('answers what the server printed: requests in the access log, warnings also in the error log', async () => {
    await call(app, admin, 'GET', '/apimt/file_list/?file_path=/nowhere-at-all');
    log.info('gateway says hello');
    log.warn('disk almost full');
    const nginx = await runtimeLog('nginx');
    expect(nginx.log).toMatch(/DEBUG GET \/apimt\/file_list\/\?file_path=\/nowhere-at-all 4\d\d /);
    const api = await runtimeLog('gunicorn');
    const lines = api.log.split('\n');
    expect(lines.at(-2)).toMatch(/INFO  gateway says hello$/);
    expect(lines.at(-1)).toMatch(/WARN  disk almost full$/);
    expect(api.fail_log).toMatch(/WARN  disk almost full$/);
    expect(api.fail_log).not.toMatch(/hello/);
    // What was printed is what is kept: the same records went to the console.
    expect(printed.join('')).toContain('"msg":"disk almost full"');
  });

  it('a part this process does not run says where its lines are; lines logged for it appear once there are some', async () => {
    expect((await runtimeLog('worker')).log).toMatch(/does not run the workers.*tagsonic worker/);
    expect((await runtimeLog('redis')).log).toMatch(/bus is embedded/);
    expect((await runtimeLog('xiaoai')).log).toMatch(/smart speaker/);
    log.child({ proc: 'beat' }).error('download folder unreadable');
    const beat = await runtimeLog('beat');
    expect(beat.log).toMatch(/ERROR download folder unreadable$/);
    expect(beat.fail_log).toBe(beat.log);
  });

  it('is for administrators, and takes only the spec’s process names', async () => {
    expectError(await call(app, alice, 'POST', '/apimt/runtime_log/', { type: 'gunicorn' }), 403, 'TAGSONIC_ERR_AUTH_ADMIN_ONLY');
    expectError(await call(app, admin, 'POST', '/apimt/runtime_log/', { type: '../etc' }), 400);
    expectError(await call(app, 'none', 'POST', '/apimt/runtime_log/', { type: 'gunicorn' }), 401);
  });
});

describe('upload_log', () => {
  it('refuses a reason under 20 characters, as the page does', async () => {
    const body = expectError(await call(app, alice, 'POST', '/apimt/upload_log/', { reason: '  播放没有声音  ' }), 400, 'TAGSONIC_ERR_LOG_REASON_SHORT');
    expect(body.message).toBe('反馈理由至少20字');
    await expect(readdir(path.join(rt.config.dataDir, 'feedback'))).rejects.toThrow(/ENOENT/);
  });

  it('writes the reason and every part’s lines into data/feedback, nothing sent anywhere', async () => {
    const reason = '整理文件夹之后有三首歌不见了，报告里也没有失败的条目，请帮忙看看';
    log.warn('a warning worth reporting');
    const res = expectOk(await call(app, alice, 'POST', '/apimt/upload_log/', { reason }));
    expect(res.message).toBe('反馈成功！');
    expect(path.dirname(res.data.file)).toBe(path.join(rt.config.dataDir, 'feedback'));
    const text = await readFile(res.data.file, 'utf8');
    expect(text).toContain(`reason: ${reason}`);
    expect(text).toContain('from alice');
    expect(text).toMatch(/===== gunicorn \(this process\) =====\n-- errors --\n[^]*WARN  a warning worth reporting/);
    expect(text).toContain('===== worker (not run here) =====');
  });
});
