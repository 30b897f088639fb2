/**
 * THE field mapping table, used by both the reader and the writer, after MusicBrainz Picard's tag
 * mapping (https://picard-docs.musicbrainz.org/en/appendices/tag_mapping.html).
 *
 * Reading goes through music-metadata's native tags (ids below, matched case-insensitively since
 * TXXX descriptions, MP4 freeform names, Vorbis and APE keys are all case-insensitive in practice).
 * Writing goes through TagLib's PropertyMap (`property`), which TagLib turns into exactly those
 * native frames/atoms/comments; the round-trip tests check every cell with an independent reader.
 * A family missing from `native` means the format cannot hold the field: we refuse such writes.
 */
import type { TagField } from './model.ts';
import type { TagFamily, WriteFamily } from './formats.ts';

export type MappedKey = TagField | 'artists' | 'albumartists';

export interface FieldMapping {
  /** TagLib PropertyMap key written for the field; per-family overrides where TagLib differs. */
  property: string;
  propertyFor?: Partial<Record<WriteFamily, string>>;
  /** PropertyMap keys cleared whenever the field is written, so a stale alias cannot shadow it. */
  aliases?: Partial<Record<WriteFamily, readonly string[]>>;
  /** music-metadata native ids per family; the first id holding a value wins. */
  native: Partial<Record<TagFamily, readonly string[]>>;
}

const ITUNES = '----:com.apple.iTunes:';

export const TAG_MAPPING: Readonly<Record<MappedKey, FieldMapping>> = {
  title: {
    property: 'TITLE',
    native: { id3v2: ['TIT2', 'TT2'], vorbis: ['TITLE'], mp4: ['©nam'], ape: ['Title'], asf: ['Title'], riff: ['INAM'], id3v1: ['title'] },
  },
  artist: {
    property: 'ARTIST',
    native: { id3v2: ['TPE1', 'TP1'], vorbis: ['ARTIST'], mp4: ['©ART'], ape: ['Artist'], asf: ['Author'], riff: ['IART'], id3v1: ['artist'] },
  },
  artists: {
    property: 'ARTISTS',
    native: { id3v2: ['TXXX:ARTISTS'], vorbis: ['ARTISTS'], mp4: [`${ITUNES}ARTISTS`], ape: ['Artists'], asf: ['WM/ARTISTS'] },
  },
  album: {
    property: 'ALBUM',
    native: { id3v2: ['TALB', 'TAL'], vorbis: ['ALBUM'], mp4: ['©alb'], ape: ['Album'], asf: ['WM/AlbumTitle'], riff: ['IPRD'], id3v1: ['album'] },
  },
  albumartist: {
    property: 'ALBUMARTIST',
    aliases: { vorbis: ['ALBUM ARTIST'] },
    native: { id3v2: ['TPE2', 'TP2'], vorbis: ['ALBUMARTIST', 'ALBUM ARTIST'], mp4: ['aART'], ape: ['Album Artist', 'ALBUMARTIST'], asf: ['WM/AlbumArtist'] },
  },
  albumartists: {
    property: 'ALBUMARTISTS',
    native: { id3v2: ['TXXX:ALBUMARTISTS'], vorbis: ['ALBUMARTISTS'], mp4: [`${ITUNES}ALBUMARTISTS`], ape: ['ALBUMARTISTS'], asf: ['WM/ALBUMARTISTS'] },
  },
  genre: {
    property: 'GENRE',
    native: { id3v2: ['TCON', 'TCO'], vorbis: ['GENRE'], mp4: ['©gen', 'gnre'], ape: ['Genre'], asf: ['WM/Genre'], riff: ['IGNR'], id3v1: ['genre'] },
  },
  language: {
    property: 'LANGUAGE',
    native: { id3v2: ['TLAN', 'TLA'], vorbis: ['LANGUAGE'], mp4: [`${ITUNES}LANGUAGE`], ape: ['Language'], asf: ['WM/Language'], riff: ['ILNG'] },
  },
  year: {
    property: 'DATE',
    aliases: { vorbis: ['YEAR'] },
    native: { id3v2: ['TDRC', 'TYER', 'TYE'], vorbis: ['DATE', 'YEAR'], mp4: ['©day'], ape: ['Year'], asf: ['WM/Year'], riff: ['ICRD'], id3v1: ['year'] },
  },
  lyrics: {
    property: 'LYRICS',
    aliases: { vorbis: ['UNSYNCEDLYRICS'] },
    native: { id3v2: ['USLT', 'ULT'], vorbis: ['LYRICS', 'UNSYNCEDLYRICS'], mp4: ['©lyr'], ape: ['Lyrics'], asf: ['WM/Lyrics'] },
  },
  comment: {
    property: 'COMMENT',
    // ffmpeg (and tools built on it) store an MP3 comment as TXXX:comment; TagLib reads that as the COMMENT
    // property and saves it as COMM, so reading it the same way keeps a write's verification exact.
    native: { id3v2: ['COMM', 'COM', 'TXXX:COMMENT'], vorbis: ['COMMENT'], mp4: ['©cmt'], ape: ['Comment'], asf: ['Description'], riff: ['ICMT'], id3v1: ['comment'] },
  },
  description: {
    // TagLib names the MP4 `desc` atom PODCASTDESC; its DESCRIPTION would become a freeform atom instead.
    property: 'DESCRIPTION',
    propertyFor: { mp4: 'PODCASTDESC' },
    aliases: { mp4: ['DESCRIPTION'] },
    native: { id3v2: ['TXXX:DESCRIPTION'], vorbis: ['DESCRIPTION'], mp4: ['desc', `${ITUNES}DESCRIPTION`], ape: ['Description'] },
  },
  discnumber: {
    property: 'DISCNUMBER',
    native: { id3v2: ['TPOS', 'TPA'], vorbis: ['DISCNUMBER'], mp4: ['disk'], ape: ['Disc'], asf: ['WM/PartOfSet'] },
  },
  totaldiscs: {
    // Vorbis keeps the total in its own comment; every other family stores "n/total" in the number tag.
    property: 'DISCTOTAL',
    aliases: { vorbis: ['TOTALDISCS'] },
    native: { id3v2: ['TPOS', 'TPA'], vorbis: ['DISCTOTAL', 'TOTALDISCS'], mp4: ['disk'], ape: ['Disc'], asf: ['WM/PartOfSet'] },
  },
  tracknumber: {
    property: 'TRACKNUMBER',
    native: { id3v2: ['TRCK', 'TRK'], vorbis: ['TRACKNUMBER'], mp4: ['trkn'], ape: ['Track'], asf: ['WM/TrackNumber'], riff: ['IPRT', 'ITRK'], id3v1: ['track'] },
  },
  totaltracks: {
    property: 'TRACKTOTAL',
    aliases: { vorbis: ['TOTALTRACKS'] },
    native: { id3v2: ['TRCK', 'TRK'], vorbis: ['TRACKTOTAL', 'TOTALTRACKS'], mp4: ['trkn'], ape: ['Track'], asf: ['WM/TrackNumber'], riff: ['IPRT', 'ITRK'] },
  },
  composer: {
    property: 'COMPOSER',
    native: { id3v2: ['TCOM', 'TCM'], vorbis: ['COMPOSER'], mp4: ['©wrt'], ape: ['Composer'], asf: ['WM/Composer'], riff: ['IMUS'] },
  },
  lyricist: {
    property: 'LYRICIST',
    native: { id3v2: ['TEXT', 'TXT'], vorbis: ['LYRICIST'], mp4: [`${ITUNES}LYRICIST`], ape: ['Lyricist'], asf: ['WM/Writer'], riff: ['IWRI'] },
  },
  album_type: {
    // MusicBrainz release type; multi-valued ("album;compilation" in the editor = two values).
    property: 'RELEASETYPE',
    native: {
      id3v2: ['TXXX:MusicBrainz Album Type'],
      vorbis: ['RELEASETYPE', 'MUSICBRAINZ_ALBUMTYPE'],
      mp4: [`${ITUNES}MusicBrainz Album Type`],
      ape: ['MUSICBRAINZ_ALBUMTYPE'],
      asf: ['MusicBrainz/Album Type'],
    },
  },
  replaygain_album_gain: {
    property: 'REPLAYGAIN_ALBUM_GAIN',
    native: { id3v2: ['TXXX:REPLAYGAIN_ALBUM_GAIN'], vorbis: ['REPLAYGAIN_ALBUM_GAIN'], mp4: [`${ITUNES}REPLAYGAIN_ALBUM_GAIN`], ape: ['REPLAYGAIN_ALBUM_GAIN'] },
  },
  replaygain_album_peak: {
    property: 'REPLAYGAIN_ALBUM_PEAK',
    native: { id3v2: ['TXXX:REPLAYGAIN_ALBUM_PEAK'], vorbis: ['REPLAYGAIN_ALBUM_PEAK'], mp4: [`${ITUNES}REPLAYGAIN_ALBUM_PEAK`], ape: ['REPLAYGAIN_ALBUM_PEAK'] },
  },
  replaygain_track_gain: {
    property: 'REPLAYGAIN_TRACK_GAIN',
    native: { id3v2: ['TXXX:REPLAYGAIN_TRACK_GAIN'], vorbis: ['REPLAYGAIN_TRACK_GAIN'], mp4: [`${ITUNES}REPLAYGAIN_TRACK_GAIN`], ape: ['REPLAYGAIN_TRACK_GAIN'] },
  },
  replaygain_track_peak: {
    property: 'REPLAYGAIN_TRACK_PEAK',
    native: { id3v2: ['TXXX:REPLAYGAIN_TRACK_PEAK'], vorbis: ['REPLAYGAIN_TRACK_PEAK'], mp4: [`${ITUNES}REPLAYGAIN_TRACK_PEAK`], ape: ['REPLAYGAIN_TRACK_PEAK'] },
  },
};

/** Numeric fields compare and store as plain decimal integers ("03" reads back as "3"). */
export const NUMERIC_FIELDS: ReadonlySet<TagField> = new Set(['discnumber', 'totaldiscs', 'tracknumber', 'totaltracks']);

/** Families that keep a total inside the number tag ("3/12") rather than in a separate one. */
export const usesNumberPair = (family: TagFamily): boolean => family !== 'vorbis';

export function propertyKey(key: MappedKey, family: WriteFamily): string {
  const m = TAG_MAPPING[key];
  return m.propertyFor?.[family] ?? m.property;
}

export function canStore(key: MappedKey, family: WriteFamily): boolean {
  return TAG_MAPPING[key].native[family] !== undefined;
}

/**
 * Display joiner for tags holding several values (Picard's "; "). The release type keeps the editor's
 * own "album;compilation" shape.
 */
export const MULTI_VALUE_JOINER = '; ';
export const ALBUM_TYPE_JOINER = ';';

/**
 * Individual names in an artist string, split on the separators the spec uses to offer album-artist
 * choices (comma, slash, ampersand, 、 and ，) plus the semicolon of multi-value displays. Names that
 * themselves contain a separator ("AC/DC") are split too; pass `TagEdit.artists` to avoid that.
 */
export function splitMultiValue(display: string): string[] {
  const parts = display
    .split(/[,/&;、，；]/u)
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  return [...new Set(parts)];
}

/** Parse "3", "03", "3/12", " 3 / 12 " into numbers; 0 and junk count as absent. */
export function parseNumberPair(value: string | number | null | undefined): { no: number | null; of: number | null } {
  if (value === null || value === undefined) return { no: null, of: null };
  if (typeof value === 'number') return { no: value > 0 ? Math.trunc(value) : null, of: null };
  const m = /^\s*(\d*)\s*(?:\/\s*(\d*))?/.exec(value);
  const no = m?.[1] ? Number.parseInt(m[1], 10) : 0;
  const of = m?.[2] ? Number.parseInt(m[2], 10) : 0;
  return { no: no > 0 ? no : null, of: of > 0 ? of : null };
}
