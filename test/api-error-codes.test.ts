/**
 * Failed task items carry their error's TAGSONIC_ERR_* code to the dashboard, which words it in the
 * interface language (issue 10 item 8): update_id3's per-file report, its all-failed answer, the bell's
 * records. The English `error` text stays for API users.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Tasks } from '@tagsonic/core/tasks';
import { startWorker } from '@tagsonic/workers';
import { textFrame, txxxFrame, writeMp3WithTag } from './support/oversize-tags.ts';
import { USER_PASSWORD, call, expectError, expectOk, login, startHarness, type Harness, type Session } from './api-harness.ts';

const MiB = 1024 * 1024;
let h: Harness;
let s: Session;
let dir: string;

beforeAll(async () => {
  h = await startHarness();
  s = await login(h.app, 'alice', USER_PASSWORD);
  dir = path.join(h.media, 'codes');
  await mkdir(dir, { recursive: true });
}, 120_000);
afterAll(async () => h?.close());

const save = (infos: Record<string, unknown>[]) => call(h.app, s, 'POST', '/apimt/update_id3/', { music_id3_info: infos });

/** An MP3 whose tag holds a 5 MiB TXXX frame: beyond a frame's bound, so the writer refuses it. */
async function oversize(name: string): Promise<string> {
  const file = path.join(dir, name);
  await writeMp3WithTag(file, [textFrame('TIT2', 'Kept'), txxxFrame('JUNK', 5 * MiB)]);
  return file;
}

async function plain(name: string): Promise<string> {
  const file = path.join(dir, name);
  await writeMp3WithTag(file, [textFrame('TIT2', 'Plain')]);
  return file;
}

describe('error codes of failed task items', () => {
  it('a save onto a file with an oversize tag answers TAGSONIC_ERR_TAGS_TAG_TOO_LARGE, not a generic write failure', async () => {
    const file = await oversize('alone.mp3');
    const res = expectError(await save([{ file_full_path: file, title: 'New' }]), 400, 'TAGSONIC_ERR_TAGS_TAG_TOO_LARGE');
    expect(res.message).toMatch(/TXXX/);
  });

  it('a partly failed save reports error_code per file beside the English error', async () => {
    const ok = await plain('ok.mp3');
    const big = await oversize('big.mp3');
    const res = expectOk(await save([{ file_full_path: ok, title: 'Fine' }, { file_full_path: big, title: 'New' }]));
    expect(res.data.items).toMatchObject([
      { path: ok, status: 'success', error: null, error_code: null },
      { path: big, status: 'fail', error: expect.stringMatching(/TXXX/), error_code: 'TAGSONIC_ERR_TAGS_TAG_TOO_LARGE' },
    ]);
  });

  it('files failing for different reasons answer TAGSONIC_ERR_TAGS_WRITE_FAILED', async () => {
    const big = await oversize('mixed.mp3');
    const noise = path.join(dir, 'noise.mp3');
    await writeFile(noise, Buffer.alloc(4096, 0x5a));
    const res = expectError(await save([{ file_full_path: big, title: 'A' }, { file_full_path: noise, title: 'B' }]), 400, 'TAGSONIC_ERR_TAGS_WRITE_FAILED');
    expect(res.message).toMatch(/TXXX/);
  });

  it("the bell's record carries the action, counts and the first failure's path, error and code as data", async () => {
    const res = expectOk(await call(h.app, s, 'GET', '/apimt/record/?state=failed&page_size=20'));
    const partial = res.data.items.find((r: { total: number; failed_count: number }) => r.total === 2 && r.failed_count === 1);
    expect(partial).toMatchObject({
      title: '手动修改 失败',
      action: '手动修改',
      failed_count: 1,
      total: 2,
      path: path.join(dir, 'big.mp3'),
      error: expect.stringMatching(/TXXX/),
      error_code: 'TAGSONIC_ERR_TAGS_TAG_TOO_LARGE',
    });
    // The spec's Chinese text stays as it was.
    expect(partial.content).toMatch(/^1 个文件失败（共 2 个）：.*big\.mp3: /);
  });

  it('items a crash interrupted and nothing can resume carry the code of their reason (file gone, command incomplete)', async () => {
    // A task of a process that died: its lease is given up, so the next worker start settles it.
    const dead = new Tasks(h.rt.store, h.rt.bus);
    const gone = path.join(dir, 'gone.mp3');
    const task = await dead.create({
      kind: 'tags.write',
      action: '手动修改',
      actor: 'alice',
      subject: 'tagsonic.cmd.test.nobody-reads-this',
      items: [
        { path: gone, payload: { path: gone, actor: 'alice', fields: { title: 'x' } } },
        { path: null, payload: {} },
      ],
    });
    await dead.close();
    const worker = await startWorker({ bus: h.rt.bus, tasks: h.rt.tasks, roots: h.rt.roots, journal: h.rt.journal, concurrency: 1 });
    await worker.close();
    const items = await h.rt.tasks.listItems(task._id);
    expect(items.map((it) => [it.status, it.errorCode])).toEqual([
      ['fail', 'TAGSONIC_ERR_MEDIA_NOT_FOUND'],
      ['fail', 'TAGSONIC_ERR_TASK_NOT_RESUMABLE'],
    ]);
    const res = expectOk(await call(h.app, s, 'GET', '/apimt/record/?state=failed&page_size=20'));
    expect(res.data.items.find((r: { task_id: string }) => r.task_id === task._id)).toMatchObject({ failed_count: 2, total: 2, path: gone, error_code: 'TAGSONIC_ERR_MEDIA_NOT_FOUND' });
  });
});
