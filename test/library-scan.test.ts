/**
 * The scanner against the generated small library (ffmpeg-tagged, with a manifest of what each file
 * holds): the model after a full scan, incremental scans (add, change, move, delete, side files),
 * scans as tasks, the scan lock, and the watcher.
 */
import { copyFile, cp, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  VARIOUS_ARTISTS,
  albumIdFor,
  artistIdFor,
  fold,
  type TrackDoc,
} from '@tagsonic/core/library';
import { SUBJECTS, type TaskProgress } from '@tagsonic/core/tasks';
import { createTagJournal, safeWriteTags } from '@tagsonic/core/tags';
import { isTagsonicError } from '@tagsonic/core/errors';
import { startWorker } from '@tagsonic/workers';
import { LibraryWatcher, SCAN_ERRORS, Scanner, type ScanProgress } from '@tagsonic/workers/scanner';
import type { LibraryFile } from '@tagsonic/test/library';
import { audioFiles, expectedTitle, libraryEnv, type LibraryEnv } from './library-env.ts';

const trackAt = (env: LibraryEnv, relative: string): TrackDoc => {
  const abs = env.abs(relative);
  const t = [...env.library.catalog.tracks.values()].find((x) => x.path === abs);
  if (!t) throw new Error(`no track for ${relative}`);
  return t;
};

const genresOf = (f: LibraryFile): string[] => f.genres ?? (typeof f.tags?.genre === 'string' ? [f.tags.genre] : (f.tags?.genre ?? []));

describe('a full scan of the small library', () => {
  let env: LibraryEnv;
  let result: Awaited<ReturnType<Scanner['scan']>>;

  beforeAll(async () => {
    env = await libraryEnv();
    result = await env.scanner.scan();
  });
  afterAll(() => env?.close());

  it('indexes every audio file, reports the unreadable ones and carries on', () => {
    const audio = audioFiles(env.manifest);
    const corrupt = env.manifest.files.filter((f) => f.kind === 'corrupt');
    expect(result.found).toBe(audio.length + corrupt.length);
    // random bytes and an empty file cannot be parsed; a truncated FLAC keeps a valid header and tags,
    // which is all a tag scan reads, so it is indexed (playback will find the short stream).
    const failed = result.failed.map((f) => path.relative(env.media, f.path)).sort();
    expect(failed).toEqual(['Unsorted/corrupt.mp3', 'Unsorted/empty.m4a']);
    expect(result.failed.find((f) => f.path.endsWith('empty.m4a'))!.code).toBe('TAGSONIC_ERR_TAGS_EMPTY_FILE');
    expect(result.added).toBe(audio.length + 1);
    expect(env.library.catalog.tracks.size).toBe(audio.length + 1);
    expect(trackAt(env, 'Unsorted/truncated.flac').title).toBe('Truncated');
    // Non-audio files (cue, images, lrc, strm, nfo, txt) are not tracks.
    for (const f of env.manifest.files.filter((x) => x.kind !== 'audio' && x.kind !== 'corrupt')) {
      expect([...env.library.catalog.tracks.values()].some((t) => t.path === env.abs(f.path))).toBe(false);
    }
  });

  it('holds each file’s tags and audio properties', async () => {
    for (const f of audioFiles(env.manifest)) {
      const t = trackAt(env, f.path);
      expect(t.title, f.path).toBe(expectedTitle(f));
      expect(t.artist, f.path).toBe(f.tags?.artist ?? '[Unknown Artist]');
      expect(t.album, f.path).toBe(f.tags?.album ?? '[Unknown Album]');
      expect(t.year, f.path).toBe(f.tags?.year ?? null);
      expect(t.track, f.path).toBe(f.tags?.track ?? null);
      if (f.format !== 'wav') expect(t.disc, f.path).toBe(f.tags?.disc ?? null);
      expect(t.genres, f.path).toEqual(genresOf(f));
      expect(t.suffix).toBe(path.extname(f.path).slice(1));
      expect(t.size).toBe((await stat(env.abs(f.path))).size);
      expect(t.duration, f.path).toBeCloseTo(f.durationSec!, 0);
      expect(t.sampleRate, f.path).toBe(f.sampleRate);
      expect(t.channels, f.path).toBe(f.channels);
      expect(t.relPath).toBe(f.path);
      expect(t.root).toBe('media');
      expect(t.createdAt).toBeInstanceOf(Date);
      if (f.tags?.composer && f.format !== 'wav') expect(t.composer, f.path).toBe(f.tags.composer);
    }
    const mp3 = trackAt(env, audioFiles(env.manifest).find((f) => f.format === 'mp3')!.path);
    expect(mp3.contentType).toBe('audio/mpeg');
    expect(mp3.bitRate).toBeGreaterThan(0);
    const flac = trackAt(env, audioFiles(env.manifest).find((f) => f.format === 'flac')!.path);
    expect(flac.lossless).toBe(true);
    expect([16, 24]).toContain(flac.bitDepth);
  });

  it('splits artists on every separator and keeps the display string', () => {
    const separated = audioFiles(env.manifest).filter((f) => f.separator !== undefined);
    expect(new Set(separated.map((f) => f.separator))).toEqual(new Set(['/', ' & ', '、', ',', '，', ' feat. ']));
    for (const f of separated) {
      const t = trackAt(env, f.path);
      expect(t.artist).toBe(f.tags!.artist);
      expect(t.artists, f.path).toEqual(f.artists);
      expect(t.artistIds).toEqual(f.artists!.map(artistIdFor));
      for (const name of f.artists!) {
        const artist = env.library.catalog.artists.get(artistIdFor(name));
        expect(artist?.name, name).toBe(name);
        expect(artist!.songCount).toBeGreaterThan(0);
      }
    }
  });

  it('groups albums by album artist and name, compilations under Various Artists', () => {
    const catalog = env.library.catalog;
    for (const f of audioFiles(env.manifest)) {
      if (!f.tags?.album) continue;
      const t = trackAt(env, f.path);
      const albumArtist = f.tags.albumartist ?? f.tags.artist!;
      expect(t.albumId, f.path).toBe(albumIdFor(albumArtist, f.tags.album));
    }
    const compilation = audioFiles(env.manifest).filter((f) => f.tags?.compilation);
    expect(compilation.length).toBe(4);
    const album = catalog.albums.get(albumIdFor(VARIOUS_ARTISTS, compilation[0]!.tags!.album!))!;
    expect(album.artist).toBe(VARIOUS_ARTISTS);
    expect(album.compilation).toBe(true);
    expect(album.songCount).toBe(4);
    expect(album.otherArtists.map((a) => a.name).sort()).toEqual(compilation.map((f) => f.tags!.artist!).sort());
    // Each compilation artist lists the compilation among their albums.
    for (const f of compilation) expect(catalog.view().artistAlbums.get(artistIdFor(f.tags!.artist!))!.map((a) => a._id)).toContain(album._id);
    expect(catalog.artists.get(artistIdFor(VARIOUS_ARTISTS))!.albumCount).toBe(1);
  });

  it('orders a two-disc album by disc then track and finds the cover above the disc folders', () => {
    const discFiles = audioFiles(env.manifest).filter((f) => f.tags?.discTotal === 2);
    expect(discFiles.length).toBe(4);
    const albumId = trackAt(env, discFiles[0]!.path).albumId;
    const album = env.library.catalog.albums.get(albumId)!;
    expect(album.discCount).toBe(2);
    expect(album.songCount).toBe(4);
    const ordered = env.library.catalog.view().albumTracks.get(albumId)!.map((t) => t.relPath);
    expect(ordered).toEqual([...discFiles].sort((a, b) => a.tags!.disc! - b.tags!.disc! || a.tags!.track! - b.tags!.track!).map((f) => f.path));
    const cover = env.manifest.files.find((f) => f.role === 'folder-cover' && discFiles[0]!.path.startsWith(path.posix.dirname(f.path) + '/'))!;
    expect(album.coverPath).toBe(env.abs(cover.path));
  });

  it('knows which tracks embed a cover and which folders have one', async () => {
    for (const f of audioFiles(env.manifest)) expect(trackAt(env, f.path).hasArt, f.path).toBe(f.cover !== undefined);
    const folderCovers = env.manifest.files.filter((f) => f.role === 'folder-cover');
    expect(folderCovers.length).toBe(env.manifest.counts.folderCovers);
    for (const img of folderCovers) {
      const dir = path.posix.dirname(img.path);
      const t = audioFiles(env.manifest).find((f) => f.path.startsWith(`${dir}/`))!;
      const art = await env.library.queries.coverArt(trackAt(env, t.path).albumId);
      expect(art).toEqual({ kind: 'file', path: env.abs(img.path) });
    }
    // An album with embedded covers and no folder image: the first track's picture.
    const embeddedOnly = audioFiles(env.manifest).find(
      (f) => f.cover && !folderCovers.some((img) => f.path.startsWith(path.posix.dirname(img.path) + '/')),
    )!;
    const t = trackAt(env, embeddedOnly.path);
    const art = await env.library.queries.coverArt(t.albumId);
    expect(art?.kind).toBe('embedded');
    expect(env.library.catalog.tracks.get(art!.trackId!)!.albumId).toBe(t.albumId);
    expect(await env.library.queries.coverArt(t._id)).toEqual({ kind: 'embedded', path: t.path, trackId: t._id });
    // The wav album has no picture anywhere.
    const wav = trackAt(env, audioFiles(env.manifest).find((f) => f.format === 'wav' && f.tags?.album && !f.cue)!.path);
    expect(await env.library.queries.coverArt(wav.albumId)).toBeNull();
    expect(wav.missing).toContain('cover');
    // Scans in a folder are not covers.
    const scan = env.manifest.files.find((f) => f.role === 'scan')!;
    expect([...env.library.catalog.albums.values()].some((a) => a.coverPath === env.abs(scan.path))).toBe(false);
  });

  it('links .lrc sidecars and reads their timed lines', async () => {
    const sidecars = env.manifest.files.filter((f) => f.kind === 'lyrics');
    expect(sidecars.length).toBe(env.manifest.counts.lrc);
    for (const lrc of sidecars) {
      const t = trackAt(env, lrc.sidecarOf!);
      expect(t.lrcPath).toBe(env.abs(lrc.path));
      const lyrics = (await env.library.queries.lyrics(t._id))!;
      expect(lyrics.source).toBe('lrc');
      expect(lyrics.synced).toBe(true);
      expect(lyrics.lines.map((l) => l.value)).toEqual(lrc.lrc!.map((l) => l.text));
      lyrics.lines.forEach((l, i) => expect(Math.abs(l.start! - lrc.lrc![i]!.timeSec * 1000)).toBeLessThanOrEqual(10));
    }
    const others = [...env.library.catalog.tracks.values()].filter((t) => !sidecars.some((s) => env.abs(s.sidecarOf!) === t.path));
    for (const t of others) expect(t.lrcPath).toBeNull();
  });

  it('marks embedded lyrics and serves them', async () => {
    // ffmpeg stores mp3 lyrics in a TXXX frame, which Picard's mapping (and so our engine) does not read.
    const withLyrics = audioFiles(env.manifest).filter((f) => f.tags?.lyrics && !f.nonStandard?.lyrics);
    expect(withLyrics.length).toBeGreaterThan(0);
    for (const f of withLyrics) {
      const t = trackAt(env, f.path);
      expect(t.hasLyrics, f.path).toBe(true);
      if (t.lrcPath) continue;
      const lyrics = (await env.library.queries.lyrics(t._id))!;
      expect(lyrics.source).toBe('embedded');
      expect(lyrics.text.replace(/\r/g, '')).toBe(f.tags!.lyrics);
    }
  });

  it('indexes CUE images as single tracks (splitting comes later)', () => {
    expect(env.manifest.cues.length).toBe(2);
    for (const sheet of env.manifest.cues) {
      const t = trackAt(env, sheet.image);
      expect(t.album).toBe(sheet.title);
      expect(t.artist).toBe(sheet.performer);
      expect(t.duration).toBeCloseTo(sheet.tracks.reduce((s, x) => s + x.durationSec, 0), 0);
    }
  });

  it('derives genres with album and song counts', () => {
    const songs = new Map<string, number>();
    for (const t of env.library.catalog.tracks.values()) for (const g of t.genres) songs.set(fold(g), (songs.get(fold(g)) ?? 0) + 1);
    expect(env.library.catalog.genres.size).toBe(songs.size);
    for (const g of env.library.catalog.genres.values()) {
      expect(g.songCount, g.name).toBe(songs.get(fold(g.name)));
      expect(g.albumCount).toBeGreaterThan(0);
    }
  });

  it('records the scan and tells what is missing per track', async () => {
    const state = await env.library.store.readState();
    expect(state.rev).toBe(result.rev);
    expect(state.lastScan?.found).toBe(result.found);
    const untagged = trackAt(env, audioFiles(env.manifest).find((f) => f.tags === undefined)!.path);
    expect(untagged.missing).toEqual(expect.arrayContaining(['title', 'artist', 'album', 'genre', 'year', 'lyrics', 'cover']));
  });
});

describe('incremental scans', () => {
  let env: LibraryEnv;
  const user = 'u1';

  beforeAll(async () => {
    env = await libraryEnv({ copy: true });
    await env.scanner.scan();
  });
  afterAll(() => env?.close());

  it('reads nothing when nothing changed (corrupt files included)', async () => {
    const before = env.library.catalog.revision;
    const r = await env.scanner.scan();
    expect(r.read).toBe(0);
    expect([r.added, r.updated, r.moved, r.removed]).toEqual([0, 0, 0, 0]);
    expect(r.failed.length).toBe(2);
    expect(r.rev).toBe(before);
    expect(r.unchanged).toBe(env.library.catalog.tracks.size);
  });

  it('adds a new file', async () => {
    const src = audioFiles(env.manifest).find((f) => f.format === 'opus' && f.tags?.album)!;
    await copyFile(env.abs(src.path), path.join(env.media, 'Unsorted', 'copy.opus'));
    const r = await env.scanner.scan();
    expect([r.added, r.read, r.updated, r.removed]).toEqual([1, 1, 0, 0]);
    const copy = trackAt(env, 'Unsorted/copy.opus');
    expect(copy._id).not.toBe(trackAt(env, src.path)._id);
    // Same album tags, another folder: it joins the same album.
    expect(copy.albumId).toBe(trackAt(env, src.path).albumId);
    expect(env.library.catalog.albums.get(copy.albumId)!.songCount).toBe(audioFiles(env.manifest).filter((f) => f.tags?.album === src.tags!.album).length + 1);
  });

  it('picks up a retagged file under the same id', async () => {
    const f = audioFiles(env.manifest).find((x) => x.format === 'flac' && x.tags?.album && !x.cue && x.tags.discTotal !== 2)!;
    const before = trackAt(env, f.path);
    const journal = createTagJournal({ store: env.store, blobDir: path.join(env.download, '..', 'blobs') });
    await safeWriteTags(env.abs(f.path), { fields: { title: 'Retitled 新标题', genre: 'Shoegaze' } }, { journal, actor: 'test' });
    const r = await env.scanner.scan();
    expect([r.updated, r.read, r.added, r.removed]).toEqual([1, 1, 0, 0]);
    const after = trackAt(env, f.path);
    expect(after._id).toBe(before._id);
    expect(after.createdAt).toEqual(before.createdAt);
    expect(after.title).toBe('Retitled 新标题');
    expect(after.genres).toEqual(['Shoegaze']);
    expect(env.library.catalog.genres.get('Shoegaze')?.songCount).toBe(1);
    expect((await env.library.queries.search({ query: '新标题', songCount: 5 })).songs.map((s) => s.id)).toEqual([before._id]);
  });

  it('keeps the id, stars, ratings and play counts of a renamed file', async () => {
    const f = audioFiles(env.manifest).find((x) => x.format === 'mp3' && x.tags?.album && x.cover)!;
    const t = trackAt(env, f.path);
    await env.library.annotations.star(user, { id: [t._id] });
    await env.library.annotations.setRating(user, t._id, 4);
    await env.library.annotations.scrobble(user, t._id, { client: 'test' });
    const target = env.abs(f.path).replace(/\.mp3$/, ' (renamed).mp3');
    await rename(env.abs(f.path), target);
    const r = await env.scanner.scan();
    expect([r.moved, r.read, r.added, r.removed]).toEqual([1, 0, 0, 0]);
    const moved = env.library.catalog.tracks.get(t._id)!;
    expect(moved.path).toBe(target);
    const song = await env.library.queries.song(t._id, user);
    expect(song.starred).toBeInstanceOf(Date);
    expect(song.userRating).toBe(4);
    expect(song.playCount).toBe(1);
    expect(song.path).toBe(path.relative(env.media, target));
  });

  it('recognises a file moved to another file system (new inode) by size, mtime and tags', async () => {
    const f = audioFiles(env.manifest).find((x) => x.format === 'ogg')!;
    const t = trackAt(env, f.path);
    const before = await stat(env.abs(f.path));
    const target = path.join(env.media, 'Unsorted', 'moved.ogg');
    await cp(env.abs(f.path), target, { preserveTimestamps: true });
    await unlink(env.abs(f.path));
    expect((await stat(target)).ino).not.toBe(before.ino);
    const r = await env.scanner.scan();
    expect([r.moved, r.read, r.added, r.removed]).toEqual([1, 1, 0, 0]);
    expect(env.library.catalog.tracks.get(t._id)!.path).toBe(target);
  });

  it('links a new .lrc without reading the audio file', async () => {
    const f = audioFiles(env.manifest).find((x) => x.format === 'm4a-alac')!;
    const lrc = env.abs(f.path).replace(/\.m4a$/, '.lrc');
    await writeFile(lrc, '[00:00.50]第一行\n[00:02.00]second line\n');
    const r = await env.scanner.scan();
    expect([r.updated, r.read]).toEqual([1, 0]);
    const t = trackAt(env, f.path);
    expect(t.lrcPath).toBe(lrc);
    expect((await env.library.queries.lyrics(t._id))!.lines).toEqual([
      { start: 500, value: '第一行' },
      { start: 2000, value: 'second line' },
    ]);
  });

  it('removes deleted files, emptied albums and artists, and updates counts', async () => {
    const f = audioFiles(env.manifest).find((x) => x.format === 'wav' && x.tags?.album && !x.cue)!;
    const album = trackAt(env, f.path).albumId;
    const artistId = artistIdFor(f.tags!.artist!);
    const siblings = audioFiles(env.manifest).filter((x) => x.tags?.album === f.tags!.album);
    const genre = env.library.catalog.genres.get(f.tags!.genre as string)!;
    const genreSongs = genre.songCount;
    for (const s of siblings) await rm(env.abs(s.path));
    const r = await env.scanner.scan();
    expect(r.removed).toBe(siblings.length);
    expect(r.read).toBe(0);
    expect(env.library.catalog.albums.has(album)).toBe(false);
    expect(env.library.catalog.artists.has(artistId)).toBe(false);
    const after = env.library.catalog.genres.get(genre._id);
    if (genreSongs === siblings.length) expect(after).toBeUndefined();
    else expect(after!.songCount).toBe(genreSongs - siblings.length);
    await expect(env.library.queries.albumDetail(album)).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('re-reads everything in a full scan and finds nothing new', async () => {
    const tracks = env.library.catalog.tracks.size;
    const r = await env.scanner.scan({ full: true });
    expect(r.read).toBe(r.found);
    expect([r.added, r.updated, r.moved, r.removed]).toEqual([0, 0, 0, 0]);
    expect(env.library.catalog.tracks.size).toBe(tracks);
  });

  it('makes an album of different artists without album artist a Various Artists album', async () => {
    const dir = path.join(env.media, 'Mixed');
    const journal = createTagJournal({ store: env.store, blobDir: path.join(env.download, '..', 'blobs') });
    const sources = audioFiles(env.manifest).filter((x) => x.format === 'flac' && !x.cue && x.tags?.album).slice(0, 2);
    await rm(dir, { recursive: true, force: true });
    const { mkdir } = await import('node:fs/promises');
    await mkdir(dir);
    let i = 0;
    for (const s of sources) {
      const p = path.join(dir, `${++i}.flac`);
      await copyFile(env.abs(s.path), p);
      await safeWriteTags(p, { fields: { album: 'Mixed Bag', albumartist: null, artist: `Artist ${i}` } }, { journal, actor: 'test' });
    }
    await env.scanner.scan();
    const ids = [1, 2].map((n) => trackAt(env, `Mixed/${n}.flac`).albumId);
    expect(ids[0]).toBe(ids[1]);
    expect(ids[0]).toBe(albumIdFor(VARIOUS_ARTISTS, 'Mixed Bag'));
    expect(env.library.catalog.albums.get(ids[0]!)!.compilation).toBe(true);
  });
});

describe('scans as tasks, one at a time', () => {
  let env: LibraryEnv;

  beforeAll(async () => {
    env = await libraryEnv();
  });
  afterAll(() => env?.close());

  it('runs a scan task through the bus with progress events', async () => {
    const worker = await startWorker({ bus: env.bus, tasks: env.tasks, roots: env.roots, journal: createTagJournal({ store: env.store, blobDir: env.download }), concurrency: 2, scanner: env.scanner });
    const progress: Array<TaskProgress & { scan?: ScanProgress }> = [];
    const sub = env.bus.subscribe<TaskProgress & { scan?: ScanProgress }>(SUBJECTS.taskProgressed, (_, p) => void progress.push(p));
    const done = new Promise<void>((resolve) => env.bus.subscribe(SUBJECTS.taskCompleted, () => resolve()));
    const task = await env.library.scans.startScan({ actor: 'admin' });
    // A second request while the first is queued or running returns the same task.
    expect((await env.library.scans.startScan({ actor: 'admin' }))._id).toBe(task._id);
    await done;
    const finished = await env.tasks.get(task._id);
    expect(finished.status).toBe('success');
    expect(finished.kind).toBe('library.scan');
    const [item] = await env.tasks.listItems(task._id);
    expect(item!.status).toBe('success');
    expect(item!.result).toMatchObject({ found: 43, added: 41, failedCount: 2 });
    expect((item!.result!.report as { fail: unknown[] }).fail).toHaveLength(2);
    const phases = progress.filter((p) => p.scan).map((p) => p.scan!.phase);
    expect(phases).toEqual(expect.arrayContaining(['walk', 'read', 'write', 'done']));
    expect(progress.at(-1)!.status).toBe('success');
    const status = await env.library.scans.scanStatus();
    expect(status).toMatchObject({ scanning: false, count: 41, taskId: null });
    expect(status.lastScan).toBeInstanceOf(Date);
    sub.close();
    await worker.close();
  });

  it('reports a running scan with its count so far (getScanStatus)', async () => {
    const seen: Array<{ scanning: boolean; count: number }> = [];
    await env.scanner.scan({
      full: true,
      progressEveryMs: 0,
      onProgress: async (p) => {
        if (p.phase === 'write') seen.push(await env.library.scans.scanStatus());
      },
    });
    expect(seen[0]!.scanning).toBe(true);
    expect(seen[0]!.count).toBeGreaterThan(0);
    expect((await env.library.scans.scanStatus()).scanning).toBe(false);
  });

  it('never runs two scans at once, across scanner instances (processes)', async () => {
    const other = new Scanner({ roots: env.roots, library: env.library.store, catalog: env.library.catalog, readerThreads: 1 });
    const results = await Promise.allSettled([env.scanner.scan({ full: true }), other.scan({ full: true })]);
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(ok).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(isTagsonicError(refused[0]!.reason) && refused[0]!.reason.code).toBe(SCAN_ERRORS.running);
    // The lock is released afterwards: the next scan runs.
    expect((await other.scan()).read).toBe(0);
  });

  it('ends a queued scan that finds the lock taken as skipped', async () => {
    const worker = await startWorker({ bus: env.bus, tasks: env.tasks, roots: env.roots, journal: createTagJournal({ store: env.store, blobDir: env.download }), concurrency: 1, scanner: env.scanner });
    expect(await env.library.store.acquireScanLock('someone-else', null, 30_000)).toBe(true);
    const done = new Promise<void>((resolve) => env.bus.subscribe(SUBJECTS.taskCompleted, () => resolve()));
    const task = await env.tasks.create({ kind: 'library.scan', action: 'scan', actor: 'admin', subject: SUBJECTS.libraryScan, items: [{ path: null, payload: { full: false, actor: 'admin' } }] });
    await done;
    const [item] = await env.tasks.listItems(task._id);
    expect(item!.status).toBe('skip');
    expect(item!.error).toMatch(/already running/);
    expect((await env.library.scans.scanStatus()).scanning).toBe(true);
    await env.library.store.releaseScanLock('someone-else');
    await worker.close();
  });

  it('leaves a redelivered command alone while its own scan still runs elsewhere', async () => {
    const worker = await startWorker({ bus: env.bus, tasks: env.tasks, roots: env.roots, journal: createTagJournal({ store: env.store, blobDir: env.download }), concurrency: 1, scanner: env.scanner });
    const task = await env.tasks.create({ kind: 'library.scan', action: 'scan', actor: 'admin', subject: 'tagsonic.cmd.library.scan.hold', items: [{ path: null, payload: { full: false, actor: 'admin' } }] });
    const [item] = await env.tasks.listItems(task._id);
    // Another process runs this very task's scan; the command arrives (again) here.
    expect(await env.library.store.acquireScanLock('other-process', task._id, 30_000)).toBe(true);
    await env.bus.send(SUBJECTS.libraryScan, { taskId: task._id, itemId: item!._id, full: false, actor: 'admin' }, { msgId: `${item!._id}-again` });
    for (let i = 0; i < 100 && (await env.tasks.listItems(task._id))[0]!.attempts === 0; i++) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 100));
    const [after] = await env.tasks.listItems(task._id);
    expect(after!.attempts).toBe(1);
    expect(after!.status).toBe('running');
    await env.library.store.releaseScanLock('other-process');
    await worker.close();
  });

  it('takes over a lock whose holder died (expired)', async () => {
    expect(await env.library.store.acquireScanLock('dead-process', null, 1)).toBe(true);
    await new Promise((r) => setTimeout(r, 10));
    expect((await env.library.scans.scanStatus()).scanning).toBe(false);
    const r = await env.scanner.scan();
    expect(r.read).toBe(0);
  });
});

describe('the background watcher', () => {
  let env: LibraryEnv;

  beforeAll(async () => {
    env = await libraryEnv({ copy: true });
    await env.scanner.scan();
  });
  afterAll(() => env?.close());

  it('is cheap when nothing changed: no file read, no task', async () => {
    const watcher = new LibraryWatcher({ scanner: env.scanner, scans: env.library.scans });
    const tick = await watcher.tick();
    expect(tick.changes).toMatchObject({ changed: false, found: 43, newFiles: 0, changedFiles: 0, missingFiles: 0 });
    expect(tick.taskId).toBeUndefined();
    expect(tick.durationMs).toBeLessThan(1000);
    // An explicit incremental scan of the unchanged library reads no file either.
    expect((await env.scanner.scan()).read).toBe(0);
  });

  it('queues an incremental scan when a file appears', async () => {
    const watcher = new LibraryWatcher({ scanner: env.scanner, scans: env.library.scans });
    const src = audioFiles(env.manifest).find((f) => f.format === 'mp3')!;
    await copyFile(env.abs(src.path), path.join(env.media, 'Unsorted', 'new.mp3'));
    const tick = await watcher.tick();
    expect(tick.changes).toMatchObject({ changed: true, newFiles: 1 });
    expect(tick.taskId).toBeDefined();
    const task = await env.tasks.get(tick.taskId!);
    expect(task.actor).toBe('watcher');
  });
});
