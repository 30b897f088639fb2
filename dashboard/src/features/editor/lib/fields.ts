/** The editor's fields: the spec's Music info (§3), their labels, and the order settings can change. */

export const TEXT_FIELDS = [
  'title', 'filename', 'artist', 'album', 'albumartist', 'genre', 'language', 'year', 'tracknumber', 'totaltracks', 'discnumber', 'totaldiscs',
  'composer', 'lyricist', 'album_type', 'comment', 'description', 'replaygain_album_gain', 'replaygain_album_peak', 'replaygain_track_gain', 'replaygain_track_peak',
] as const;

/** Every field the settings modal can show or hide: the text fields plus cover and lyrics. */
export const ALL_FIELDS = ['album_img', ...TEXT_FIELDS, 'lyrics'] as const;
export type EditorField = (typeof ALL_FIELDS)[number];
export type TextField = (typeof TEXT_FIELDS)[number];

export const FIELD_LABELS: Record<EditorField, string> = {
  album_img: '封面',
  title: '标题',
  filename: '文件名',
  artist: '艺术家|字段',
  album: '专辑|字段',
  albumartist: '专辑艺术家',
  genre: '流派|字段',
  language: '语言',
  year: '年份',
  tracknumber: '音轨号',
  totaltracks: '总音轨数',
  discnumber: '碟号',
  totaldiscs: '总碟数',
  composer: '作曲',
  lyricist: '作词',
  album_type: '专辑类型',
  comment: '备注',
  description: '描述',
  replaygain_album_gain: '专辑增益',
  replaygain_album_peak: '专辑峰值',
  replaygain_track_gain: '音轨增益',
  replaygain_track_peak: '音轨峰值',
  lyrics: '歌词',
};

export const DEFAULT_SHOWN_FIELDS: EditorField[] = [...ALL_FIELDS];

/** Known field names from a stored list, in its order; unknown names (an older build) are dropped. */
export function sanitizeFieldList(list: readonly string[]): EditorField[] {
  const known = new Set<string>(ALL_FIELDS);
  return [...new Set(list)].filter((f): f is EditorField => known.has(f));
}
