import type { MissKind } from '../../api/types.ts';

/** Each /progress kind's texts (i18n keys): the section title and the count's label. */
export const KIND_LABELS: Record<MissKind, { missing: string; section: string }> = {
  lyrics: { missing: '缺少歌词', section: '歌词刮削进度' },
  cover: { missing: '缺少封面', section: '封面刮削进度' },
  album: { missing: '缺少专辑', section: '专辑刮削进度' },
  artist: { missing: '缺少艺术家', section: '艺术家刮削进度' },
  genre: { missing: '缺少流派', section: '流派刮削进度' },
  year: { missing: '缺少年份', section: '年份刮削进度' },
};
