/** English texts of the library screens, keyed by their Chinese wording; merged into EN (i18n-en.ts). */
export const EN_LIBRARY: Record<string, string> = {
};
