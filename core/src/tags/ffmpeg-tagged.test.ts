import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTags } from './read.ts';
import { safeWriteTags } from './safe-write.ts';
import { ffprobe, makeAudio, openJournal, probeTags, tempDir } from './test-fixtures.ts';
import type { TagJournal } from './journal.ts';

/**
 * Files tagged by ffmpeg (and the many tools built on it) hold some fields in frames other editors do not
 * use; editing any other field must still verify and keep them.
 */
let dir: { dir: string; remove: () => Promise<void> };
let journal: { journal: TagJournal; close: () => Promise<void> };
beforeAll(async () => {
  dir = await tempDir();
  journal = await openJournal(dir.dir);
});
afterAll(async () => {
  await journal.close();
  await dir.remove();
});

describe('ffmpeg-tagged MP3 comments (TXXX:comment)', () => {
  for (const kind of ['mp3-id3v23', 'mp3-id3v24'] as const) {
    it(`${kind}: reads the comment and keeps it through an edit of another field`, async () => {
      const file = await makeAudio(dir.dir, `comment-${kind}`, kind, { tags: { title: 'Old', comment: 'ripped with care' } });
      expect((await readTags(file)).tags.fields.comment).toBe('ripped with care');
      const result = await safeWriteTags(file, { fields: { title: 'New' } }, { journal: journal.journal, actor: 'test' });
      expect(result.changed).toEqual(['title']);
      const after = await readTags(file);
      expect(after.tags.fields.title).toBe('New');
      expect(after.tags.fields.comment).toBe('ripped with care');
      expect(probeTags(await ffprobe(file)).comment).toBe('ripped with care');
    });
  }
});
