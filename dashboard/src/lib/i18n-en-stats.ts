/** English texts of the stats screens, keyed by their Chinese wording; merged into EN (i18n-en.ts). */
export const EN_STATS: Record<string, string> = {
};
