import { describe, expect, it } from 'vitest';
import { isSystemFile } from './system-files.ts';

describe('isSystemFile', () => {
  it("knows the files Windows, macOS and KDE leave in folders, whatever their case", () => {
    for (const n of ['desktop.ini', 'Desktop.ini', 'Thumbs.db', 'ehthumbs.db', '.DS_Store', '._01 Song.mp3', '.directory']) expect(isSystemFile(n), n).toBe(true);
  });
  it('leaves the user\'s files alone', () => {
    for (const n of ['01 Song.mp3', 'cover.jpg', 'folder.ini', 'thumbs.db.mp3', 'album.cue', '.hidden-song.flac']) expect(isSystemFile(n), n).toBe(false);
  });
});
