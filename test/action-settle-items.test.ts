/**
 * Settling a batch action's items after a crash (workers/src/actions actionSettler) when one source makes several
 * items: a CUE image's tracks all name the image, so an item is settled by the journal entries that carry its own
 * item id. The first track's cut was committed before the crash: that item succeeded with its created file; the
 * second made nothing: it is resumed (before, both counted as done, and the second track was never cut).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbeddedStore, type Store } from '@tagsonic/core/store';
import { bytesDigest, createFile, createTagJournal, type TagJournal } from '@tagsonic/core/tags';
import type { TaskDoc, TaskItemDoc } from '@tagsonic/core/tasks';
import { actionSettler } from '@tagsonic/workers/actions';

let dir: string;
let store: Store;
let journal: TagJournal;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tagsonic-settle-items-'));
  store = await openEmbeddedStore({ dir: path.join(dir, 'store') });
  journal = createTagJournal({ store, blobDir: path.join(dir, 'blobs') });
});

afterAll(async () => {
  await store?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('settling items that share a source', () => {
  it('settles only the item whose own entry was committed', async () => {
    const media = path.join(dir, 'media');
    await mkdir(media, { recursive: true });
    const image = path.join(media, 'CD.flac');
    await writeFile(image, 'image');
    const out = path.join(media, '01 - One.flac');
    const bytes = new TextEncoder().encode('track one');
    await createFile(
      { path: out, file: bytesDigest(bytes), trashDir: path.join(media, '.tagsonic-trash', 'task-1'), relative: '01 - One.flac', source: image },
      () => writeFile(out, bytes),
      { journal, actor: 'plugin:split-cue', taskId: 'task-1', itemId: 'item-1' },
    );
    const settle = await actionSettler({ journal })({ _id: 'task-1' } as TaskDoc);
    const item = (id: string, n: number) => ({
      _id: id, taskId: 'task-1', status: 'running', attempts: 1,
      payload: { pluginId: 'split-cue', taskId: 'task-1', itemId: id, actor: 'admin', options: {}, dryRun: false, item: { key: `track-${n}`, paths: [image] } },
    }) as unknown as TaskItemDoc;
    expect(await settle(item('item-1', 1))).toMatchObject({ status: 'success', result: { changes: [{ kind: 'create', path: out, after: image }] } });
    expect(await settle(item('item-2', 2))).toEqual({ status: 'resume' });
  });
});
