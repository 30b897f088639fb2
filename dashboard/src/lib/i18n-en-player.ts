/** English texts of the player screens, keyed by their Chinese wording; merged into EN (i18n-en.ts). */
export const EN_PLAYER: Record<string, string> = {
};
