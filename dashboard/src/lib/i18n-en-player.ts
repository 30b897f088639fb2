/** English texts of the player screens, keyed by their Chinese wording; merged into EN (i18n-en.ts). */
export const EN_PLAYER: Record<string, string> = {
  未知歌曲: 'Unknown title',
  未知艺术家: 'Unknown artist',
  未知专辑: 'Unknown album',
};
