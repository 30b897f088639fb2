/** The Chinese labels (i18n keys) of the fields and options the batch forms offer. */

export const FIELD_LABELS: Record<string, string> = {
  title: '标题',
  artist: '艺术家|字段',
  album: '专辑|字段',
  albumartist: '专辑艺术家',
  album_artist: '专辑艺术家',
  album_img: '封面',
  year: '年份',
  lyrics: '歌词',
  is_save_lyrics_file: '保存歌词文件',
  discnumber: '碟号',
  disc_number: '碟号',
  tracknumber: '音轨号',
  track_number: '音轨号',
  composer: '作曲',
  lyricist: '作词',
  language: '语言',
  genre: '流派|字段',
  comment: '备注',
  album_type: '专辑类型',
  filename: '文件名',
  custom: '自定义',
  is_import_lyrics_file: '导入歌词文件',
  is_translate_lyrics: '翻译歌词',
  is_save_album_cover: '保存封面文件',
  is_import_album_cover: '导入封面文件',
};

export const MODE_LABELS: Record<string, string> = { simple: '简单', normal: '普通', hard: '严格' };
export const RULE_LABELS: Record<string, string> = { larger: '保留较大', smaller: '保留较小', none: '不限' };
export const DELETE_MODE_LABELS: Record<string, string> = {
  null: '只删除空文件夹',
  null_music: '删除没有音乐的文件夹',
  all: '删除空文件夹和没有音乐的文件夹',
};

export const label = (key: string): string => FIELD_LABELS[key] ?? key;
