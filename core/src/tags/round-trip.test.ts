/**
 * Round-trip matrix, format × field: every editable field (CJK text, several artists) and a cover are
 * written through the safe write, then read back three ways — our reader, ffprobe, and music-metadata's
 * raw native tags checked against Picard's mapping table written out independently below.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { readTags } from './read.ts';
import { safeWriteTags } from './safe-write.ts';
import type { TagField, TagValues } from './model.ts';
import type { TagJournal } from './journal.ts';
import {
  SOURCE_KINDS,
  ffmpegCoverSha256,
  ffprobe,
  makeAudio,
  makeCover,
  nativeTags,
  openJournal,
  pcmMd5,
  probeTags,
  sha256,
  tempDir,
  type SourceKind,
} from './test-fixtures.ts';

const VALUES = {
  title: '晴天（Live 版）',
  artist: '周杰伦 / 费玉清',
  album: '叶惠美',
  albumartist: '周杰伦',
  genre: '流行',
  language: 'chi',
  year: '2003',
  lyrics: '故事的小黄花\n从出生那年就飘着',
  comment: '评论 comment',
  description: '描述 description',
  discnumber: '1',
  totaldiscs: '2',
  tracknumber: '3',
  totaltracks: '12',
  composer: '周杰伦',
  lyricist: '方文山',
  album_type: 'album;compilation',
  replaygain_album_gain: '-6.50 dB',
  replaygain_album_peak: '0.988000',
  replaygain_track_gain: '-7.25 dB',
  replaygain_track_peak: '0.954321',
} satisfies Record<TagField, string>;

type Family = 'id3v2' | 'vorbis' | 'mp4';
const FAMILY: Record<SourceKind, Family> = {
  'mp3-id3v23': 'id3v2',
  'mp3-id3v24': 'id3v2',
  flac: 'vorbis',
  'm4a-aac': 'mp4',
  'm4a-alac': 'mp4',
  ogg: 'vorbis',
  opus: 'vorbis',
  wav: 'id3v2',
  aiff: 'id3v2',
};

/** Picard's tag mapping (picard-docs "Picard Tag Mapping"), as raw ids music-metadata reports. */
const I = '----:com.apple.iTunes:';
const PICARD: Record<Family, Record<string, string[]>> = {
  id3v2: {
    TIT2: [VALUES.title],
    TPE1: [VALUES.artist],
    'TXXX:ARTISTS': ['周杰伦', '费玉清'],
    TALB: [VALUES.album],
    TPE2: [VALUES.albumartist],
    TCON: [VALUES.genre],
    TLAN: [VALUES.language],
    TDRC: [VALUES.year],
    USLT: [VALUES.lyrics],
    COMM: [VALUES.comment],
    'TXXX:DESCRIPTION': [VALUES.description],
    TPOS: ['1/2'],
    TRCK: ['3/12'],
    TCOM: [VALUES.composer],
    TEXT: [VALUES.lyricist],
    'TXXX:MUSICBRAINZ ALBUM TYPE': ['album', 'compilation'],
    'TXXX:REPLAYGAIN_ALBUM_GAIN': [VALUES.replaygain_album_gain],
    'TXXX:REPLAYGAIN_ALBUM_PEAK': [VALUES.replaygain_album_peak],
    'TXXX:REPLAYGAIN_TRACK_GAIN': [VALUES.replaygain_track_gain],
    'TXXX:REPLAYGAIN_TRACK_PEAK': [VALUES.replaygain_track_peak],
  },
  vorbis: {
    TITLE: [VALUES.title],
    ARTIST: [VALUES.artist],
    ARTISTS: ['周杰伦', '费玉清'],
    ALBUM: [VALUES.album],
    ALBUMARTIST: [VALUES.albumartist],
    GENRE: [VALUES.genre],
    LANGUAGE: [VALUES.language],
    DATE: [VALUES.year],
    LYRICS: [VALUES.lyrics],
    COMMENT: [VALUES.comment],
    DESCRIPTION: [VALUES.description],
    DISCNUMBER: ['1'],
    DISCTOTAL: ['2'],
    TRACKNUMBER: ['3'],
    TRACKTOTAL: ['12'],
    COMPOSER: [VALUES.composer],
    LYRICIST: [VALUES.lyricist],
    RELEASETYPE: ['album', 'compilation'],
    REPLAYGAIN_ALBUM_GAIN: [VALUES.replaygain_album_gain],
    REPLAYGAIN_ALBUM_PEAK: [VALUES.replaygain_album_peak],
    REPLAYGAIN_TRACK_GAIN: [VALUES.replaygain_track_gain],
    REPLAYGAIN_TRACK_PEAK: [VALUES.replaygain_track_peak],
  },
  mp4: {
    '©NAM': [VALUES.title],
    '©ART': [VALUES.artist],
    [`${I}ARTISTS`]: ['周杰伦', '费玉清'],
    '©ALB': [VALUES.album],
    AART: [VALUES.albumartist],
    '©GEN': [VALUES.genre],
    [`${I}LANGUAGE`]: [VALUES.language],
    '©DAY': [VALUES.year],
    '©LYR': [VALUES.lyrics],
    '©CMT': [VALUES.comment],
    DESC: [VALUES.description],
    DISK: ['1/2'],
    TRKN: ['3/12'],
    '©WRT': [VALUES.composer],
    [`${I}LYRICIST`]: [VALUES.lyricist],
    [`${I}MUSICBRAINZ ALBUM TYPE`]: ['album', 'compilation'],
    [`${I}REPLAYGAIN_ALBUM_GAIN`]: [VALUES.replaygain_album_gain],
    [`${I}REPLAYGAIN_ALBUM_PEAK`]: [VALUES.replaygain_album_peak],
    [`${I}REPLAYGAIN_TRACK_GAIN`]: [VALUES.replaygain_track_gain],
    [`${I}REPLAYGAIN_TRACK_PEAK`]: [VALUES.replaygain_track_peak],
  },
};

/**
 * What ffprobe shows (keys lower-cased). Fields it cannot show are left out and covered by the raw
 * check above: ffmpeg merges Vorbis COMMENT and DESCRIPTION into one "comment"; it shows only the
 * first value of multi-valued ID3/MP4 tags (ARTISTS, album type); for WAV it reads the RIFF INFO
 * chunk, which has no album artist, description, disc, lyrics, release type or ReplayGain.
 */
const FFPROBE: Record<'id3v2' | 'vorbis' | 'mp4' | 'riff', Record<string, string>> = {
  id3v2: {
    title: VALUES.title,
    artist: VALUES.artist,
    album: VALUES.album,
    album_artist: VALUES.albumartist,
    genre: VALUES.genre,
    language: VALUES.language,
    date: VALUES.year,
    'lyrics-lyrics-xxx': VALUES.lyrics,
    comment: VALUES.comment,
    description: VALUES.description,
    disc: '1/2',
    track: '3/12',
    composer: VALUES.composer,
    text: VALUES.lyricist,
    artists: '周杰伦',
    'musicbrainz album type': 'album',
    replaygain_album_gain: VALUES.replaygain_album_gain,
    replaygain_album_peak: VALUES.replaygain_album_peak,
    replaygain_track_gain: VALUES.replaygain_track_gain,
    replaygain_track_peak: VALUES.replaygain_track_peak,
  },
  vorbis: {
    title: VALUES.title,
    artist: VALUES.artist,
    artists: '周杰伦;费玉清',
    album: VALUES.album,
    album_artist: VALUES.albumartist,
    genre: VALUES.genre,
    language: VALUES.language,
    date: VALUES.year,
    lyrics: VALUES.lyrics,
    disc: '1',
    disctotal: '2',
    track: '3',
    tracktotal: '12',
    composer: VALUES.composer,
    lyricist: VALUES.lyricist,
    releasetype: 'album;compilation',
    replaygain_album_gain: VALUES.replaygain_album_gain,
    replaygain_album_peak: VALUES.replaygain_album_peak,
    replaygain_track_gain: VALUES.replaygain_track_gain,
    replaygain_track_peak: VALUES.replaygain_track_peak,
  },
  mp4: {
    title: VALUES.title,
    artist: VALUES.artist,
    artists: '周杰伦',
    album: VALUES.album,
    album_artist: VALUES.albumartist,
    genre: VALUES.genre,
    date: VALUES.year,
    lyrics: VALUES.lyrics,
    comment: VALUES.comment,
    description: VALUES.description,
    disc: '1/2',
    track: '3/12',
    composer: VALUES.composer,
    lyricist: VALUES.lyricist,
    'musicbrainz album type': 'album',
    replaygain_album_gain: VALUES.replaygain_album_gain,
    replaygain_album_peak: VALUES.replaygain_album_peak,
    replaygain_track_gain: VALUES.replaygain_track_gain,
    replaygain_track_peak: VALUES.replaygain_track_peak,
  },
  riff: {
    title: VALUES.title,
    artist: VALUES.artist,
    album: VALUES.album,
    genre: VALUES.genre,
    language: VALUES.language,
    date: VALUES.year,
    comment: VALUES.comment,
    track: '3/12',
    imus: VALUES.composer,
    iwri: VALUES.lyricist,
  },
};

/** Raw native values by upper-cased id, texts only, for the one tag type of the file's family. */
async function raw(file: string, family: Family): Promise<Map<string, string[]>> {
  const natives = await nativeTags(file);
  const type = Object.keys(natives).find((t) => (family === 'id3v2' ? t.startsWith('ID3v2') : family === 'vorbis' ? t === 'vorbis' : t === 'iTunes'));
  const out = new Map<string, string[]>();
  for (const [id, values] of Object.entries(type ? natives[type]! : {})) {
    const texts = values.map((v) => (typeof v === 'string' ? v : typeof v === 'object' && v && 'text' in v ? String((v as { text: unknown }).text) : typeof v === 'number' ? String(v) : null));
    out.set(id.toUpperCase(), texts.filter((t): t is string => t !== null));
  }
  return out;
}

let dir: string;
let remove: () => Promise<void>;
let journal: TagJournal;
let closeJournal: () => Promise<void>;
let cover: Uint8Array;

beforeAll(async () => {
  ({ dir, remove } = await tempDir());
  ({ journal, close: closeJournal } = await openJournal(dir));
  cover = await makeCover(dir, 'cover', 'jpeg', 320, 240);
});

afterAll(async () => {
  await closeJournal();
  await remove();
});

describe.each(SOURCE_KINDS)('%s', (kind) => {
  const family = FAMILY[kind];
  let file: string;
  let pcm: string;

  beforeAll(async () => {
    file = await makeAudio(dir, kind, kind, { seed: SOURCE_KINDS.indexOf(kind) + 1, tags: { title: 'ffmpeg title', copyright: '℗ 2003 JVR' } });
    pcm = await pcmMd5(file);
  });

  it('writes every field and the cover, read back by our reader, ffprobe and the raw tags', async () => {
    const result = await safeWriteTags(file, { fields: VALUES, artwork: { mime: 'image/jpeg', data: cover } }, { journal, actor: 'test' });
    expect(result.changed.sort()).toEqual(Object.keys(VALUES).sort());
    expect(result.artworkChanged).toBe(true);

    const ours = await readTags(file, { artwork: true });
    expect(ours.tags.fields).toEqual(VALUES);
    expect(ours.tags.artists).toEqual(['周杰伦', '费玉清']);
    expect(ours.tags.genres).toEqual(['流行']);
    expect(ours.tags.artwork).toMatchObject({ mime: 'image/jpeg', width: 320, height: 240, size: cover.byteLength, sha256: sha256(cover) });
    expect(sha256(ours.artwork!.data)).toBe(sha256(cover));

    const rawTags = await raw(file, family);
    for (const [id, values] of Object.entries(PICARD[family])) expect(rawTags.get(id.toUpperCase()), `${kind} raw ${id}`).toEqual(values);

    const probed = probeTags(await ffprobe(file));
    const visible = kind === 'wav' ? FFPROBE.riff : FFPROBE[family];
    for (const [key, value] of Object.entries(visible)) expect(probed[key], `${kind} ffprobe ${key}`).toBe(value);
    // Untouched tags survive (ffmpeg wrote a copyright the edit never mentions).
    expect(probed.copyright ?? probed.icop).toBe('℗ 2003 JVR');

    expect(await ffmpegCoverSha256(file)).toBe(sha256(cover));
    if (kind === 'ogg' || kind === 'opus') expect(rawTags.has('METADATA_BLOCK_PICTURE')).toBe(true);
    expect(await pcmMd5(file)).toBe(pcm);
  });

  it('clears fields and removes the cover', async () => {
    const cleared: TagValues = {
      comment: null,
      description: '',
      lyrics: null,
      album_type: null,
      replaygain_album_gain: null,
      replaygain_album_peak: null,
      replaygain_track_gain: null,
      replaygain_track_peak: null,
      totaltracks: null,
      artist: '周杰伦',
    };
    const result = await safeWriteTags(file, { fields: cleared, artwork: null }, { journal, actor: 'test' });
    expect(result.artworkChanged).toBe(true);

    const ours = await readTags(file);
    expect(ours.tags.fields).toEqual({
      ...VALUES,
      comment: null,
      description: null,
      lyrics: null,
      album_type: null,
      replaygain_album_gain: null,
      replaygain_album_peak: null,
      replaygain_track_gain: null,
      replaygain_track_peak: null,
      totaltracks: null,
      artist: '周杰伦',
    });
    expect(ours.tags.artists).toEqual(['周杰伦']);
    expect(ours.tags.artwork).toBeNull();

    const rawTags = await raw(file, family);
    const gone = family === 'id3v2' ? ['COMM', 'TXXX:DESCRIPTION', 'USLT', 'TXXX:ARTISTS'] : family === 'vorbis' ? ['COMMENT', 'DESCRIPTION', 'LYRICS', 'ARTISTS', 'TRACKTOTAL'] : ['©CMT', 'DESC', '©LYR', `${I}ARTISTS`];
    for (const id of gone) expect(rawTags.has(id.toUpperCase()), `${kind} ${id} removed`).toBe(false);
    expect(rawTags.get(family === 'id3v2' ? 'TRCK' : family === 'vorbis' ? 'TRACKNUMBER' : 'TRKN')).toEqual([family === 'mp4' ? '3/0' : '3']);

    const probe = await ffprobe(file);
    expect(probe.streams.some((s) => s.disposition?.attached_pic === 1)).toBe(false);
    expect(await ffmpegCoverSha256(file)).toBeNull();
    expect(await pcmMd5(file)).toBe(pcm);
  });

  if (kind.startsWith('mp3')) {
    it('writes ID3v2.4 and adds no ID3v1 tag to a file that had none', async () => {
      const natives = await nativeTags(file);
      expect(Object.keys(natives)).toEqual(['ID3v2.4']);
    });
  }
});

describe('copies are independent', () => {
  it('leaves a second copy of the same source untouched', async () => {
    const a = await makeAudio(dir, 'copy-a', 'flac', { seed: 42, tags: { title: 'same' } });
    const b = path.join(dir, 'copy-b.flac');
    await copyFile(a, b);
    await safeWriteTags(a, { fields: { title: 'changed' } }, { journal, actor: 'test' });
    expect((await readTags(b)).tags.fields.title).toBe('same');
  });
});
