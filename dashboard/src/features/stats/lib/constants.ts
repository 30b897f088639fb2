/** The statistics screens' fixed values (spec doc 2 §9). */

/** The home dashboard's listening record shows 8 entries per tab. */
export const LISTENING_RECORD_SIZE = 8;
/** /progress page sizes; the first is the default. */
export const PROGRESS_PAGE_SIZES = [10, 20, 50] as const;
export const DEFAULT_PROGRESS_PAGE_SIZE = 10;
/** The listening clock has one point per hour of the day. */
export const CLOCK_HOURS = 24;
