/**
 * Turns logical tags into what each writer can store: ffmpeg `-metadata` arguments (small libraries) or a
 * taglib-wasm property map (big ones), reporting exactly which values landed where.
 */
import type { AudioFile, PropertyMap } from 'taglib-wasm';
import { invalid } from '@tagsonic/core/errors';
import type { AudioFormat, TagField, TrackTags } from './library-types.ts';

export interface WrittenTags {
  /** What the file holds; undefined when nothing was written. */
  tags: TrackTags | undefined;
  nonStandard: Partial<Record<TagField, string>> | undefined;
}

export interface FfmpegTagPlan extends WrittenTags {
  args: string[];
}

const numberPair = (value: number | undefined, total: number | undefined): string | undefined =>
  value === undefined ? undefined : total === undefined ? String(value) : `${value}/${total}`;

const singleGenre = (genre: TrackTags['genre']): string | undefined => {
  if (Array.isArray(genre))
    throw invalid('TAGSONIC_ERR_TESTLIB_GENRE_LIST', 'ffmpeg can only write one genre value; join the genres into one string first.');
  return genre;
};

/**
 * Keys chosen per muxer from ffmpeg 5.1's metadata conversion tables, checked by reading files back:
 * the mp3 muxer only writes text frames (so COMM/USLT end up as TXXX), ffmpeg turns any vorbis
 * "comment" into DESCRIPTION, and the mp4 and wav muxers drop keys they have no atom/chunk for.
 */
export const ffmpegTagArgs = (format: AudioFormat, tags: TrackTags | undefined, id3v2Version: 3 | 4 = 4): FfmpegTagPlan => {
  if (tags === undefined) return { args: [], tags: undefined, nonStandard: undefined };
  const written: TrackTags = {};
  const nonStandard: Partial<Record<TagField, string>> = {};
  const args: string[] = [];
  const put = (key: string, value: string | number | undefined, ...fields: TagField[]) => {
    if (value === undefined) return;
    args.push('-metadata', `${key}=${value}`);
    for (const field of fields) (written as Record<string, unknown>)[field] = tags[field];
  };
  const genre = singleGenre(tags.genre);
  const vorbis = format === 'flac' || format === 'ogg' || format === 'opus';
  /** The keys ffmpeg's MP3 and MP4 muxers share (mapped to ID3 frames and iTunes atoms respectively). */
  const putLowerCaseCommon = () => {
    put('title', tags.title, 'title');
    put('artist', tags.artist, 'artist');
    put('album', tags.album, 'album');
    put('album_artist', tags.albumartist, 'albumartist');
    put('genre', genre, 'genre');
    put('date', tags.year, 'year');
    put('track', numberPair(tags.track, tags.trackTotal), 'track', ...(tags.track !== undefined && tags.trackTotal !== undefined ? (['trackTotal'] as const) : []));
    put('disc', numberPair(tags.disc, tags.discTotal), 'disc', ...(tags.disc !== undefined && tags.discTotal !== undefined ? (['discTotal'] as const) : []));
    put('composer', tags.composer, 'composer');
  };

  if (format === 'mp3') {
    putLowerCaseCommon();
    // A four-letter frame id as key makes ffmpeg write that frame itself; "lyricist" would become TXXX.
    put('TEXT', tags.lyricist, 'lyricist');
    put('language', tags.language, 'language');
    put('comment', tags.comment, 'comment');
    if (tags.comment !== undefined) nonStandard.comment = 'TXXX:comment';
    put('lyrics', tags.lyrics, 'lyrics');
    if (tags.lyrics !== undefined) nonStandard.lyrics = 'TXXX:USLT';
    if (tags.compilation) {
      put('compilation', '1', 'compilation');
      nonStandard.compilation = id3v2Version === 3 ? 'TXXX:compilation' : 'TXXX:TCMP';
    }
  } else if (vorbis) {
    put('TITLE', tags.title, 'title');
    put('ARTIST', tags.artist, 'artist');
    put('ALBUM', tags.album, 'album');
    put('ALBUMARTIST', tags.albumartist, 'albumartist');
    put('GENRE', genre, 'genre');
    put('DATE', tags.year, 'year');
    put('TRACKNUMBER', tags.track, 'track');
    put('TRACKTOTAL', tags.trackTotal, 'trackTotal');
    put('DISCNUMBER', tags.disc, 'disc');
    put('DISCTOTAL', tags.discTotal, 'discTotal');
    put('COMPOSER', tags.composer, 'composer');
    put('LYRICIST', tags.lyricist, 'lyricist');
    put('LANGUAGE', tags.language, 'language');
    put('LYRICS', tags.lyrics, 'lyrics');
    put('COMMENT', tags.comment, 'comment');
    if (tags.comment !== undefined) nonStandard.comment = 'DESCRIPTION';
    if (tags.compilation) put('COMPILATION', '1', 'compilation');
  } else if (format === 'm4a-aac' || format === 'm4a-alac') {
    putLowerCaseCommon();
    put('comment', tags.comment, 'comment');
    put('lyrics', tags.lyrics, 'lyrics');
    if (tags.compilation) put('compilation', '1', 'compilation');
    // lyricist and language would need freeform ----:com.apple.iTunes atoms, which ffmpeg cannot write.
  } else {
    // wav: ffmpeg 5.1 writes RIFF INFO only (no id3 chunk, no pictures).
    put('title', tags.title, 'title');
    put('artist', tags.artist, 'artist');
    put('album', tags.album, 'album');
    put('genre', genre, 'genre');
    put('date', tags.year, 'year');
    put('track', tags.track, 'track');
    put('comment', tags.comment, 'comment');
    put('language', tags.language, 'language');
  }
  const hasTags = Object.keys(written).length > 0;
  return {
    args,
    tags: hasTags ? written : undefined,
    nonStandard: Object.keys(nonStandard).length > 0 ? nonStandard : undefined,
  };
};

/**
 * Applies tags with taglib-wasm's property map; returns what was stored. taglib-wasm 1.5.1 drops the track
 * total on MP3 (patched here with a raw TRCK frame) and MP4 (left out of the manifest).
 */
export const applyTaglibTags = (file: AudioFile, format: AudioFormat, tags: TrackTags): WrittenTags => {
  const written: TrackTags = { ...tags };
  const map: PropertyMap = {};
  const set = (key: string, value: string | number | undefined) => {
    if (value !== undefined) map[key] = [String(value)];
  };
  set('title', tags.title);
  set('artist', tags.artist);
  set('album', tags.album);
  set('albumArtist', tags.albumartist);
  if (tags.genre !== undefined) map.genre = Array.isArray(tags.genre) ? [...tags.genre] : [tags.genre];
  set('date', tags.year);
  set('trackNumber', tags.track);
  set('totalTracks', tags.trackTotal);
  set('discNumber', tags.disc);
  set('totalDiscs', tags.discTotal);
  set('composer', tags.composer);
  set('lyricist', tags.lyricist);
  set('comment', tags.comment);
  set('lyrics', tags.lyrics);
  set('language', tags.language);
  if (tags.compilation) map.compilation = ['1'];
  file.setProperties(map);
  if (format === 'mp3' && tags.track !== undefined && tags.trackTotal !== undefined) {
    // taglib-wasm 1.5.1 writes TRCK without the total; write the frame ourselves (UTF-8 text frame).
    const text = new TextEncoder().encode(`${tags.track}/${tags.trackTotal}`);
    const frame = new Uint8Array(text.length + 1);
    frame[0] = 3;
    frame.set(text, 1);
    file.setId3v2Frames('TRCK', [frame]);
  }
  if ((format === 'm4a-aac' || format === 'm4a-alac') && tags.trackTotal !== undefined) delete written.trackTotal;
  // In WAV's id3 chunk taglib-wasm keeps the totals as TXXX frames, and its raw-frame API is MP3-only.
  const nonStandard: Partial<Record<TagField, string>> = {};
  if (format === 'wav' && tags.trackTotal !== undefined) nonStandard.trackTotal = 'TXXX:TRACKTOTAL';
  if (format === 'wav' && tags.discTotal !== undefined) nonStandard.discTotal = 'TXXX:DISCTOTAL';
  return { tags: written, nonStandard: Object.keys(nonStandard).length > 0 ? nonStandard : undefined };
};
