/**
 * How the library screens print numbers (spec §9 "Formatting") and the fallbacks for missing names
 * (§4 Player: 未知歌曲 / 未知艺术家 / 未知专辑). The fallbacks are Chinese keys: pass them through useT().
 */

/**
 * 999 → "999", 1 234 → "1.2K", 2 560 000 → "2.5M" (K from 1 000, M from 1 000 000). One decimal, cut rather
 * than rounded, so 999 999 reads "999.9K" and a count is never shown larger than it is.
 */
export function formatCount(n: number | null | undefined): string {
  const v = Number(n ?? 0);
  if (!Number.isFinite(v)) return '0';
  const abs = Math.abs(v);
  const short = (x: number) => String(Math.trunc(Math.round(x * 1000) / 100) / 10);
  if (abs >= 1_000_000) return `${short(v / 1_000_000)}M`;
  if (abs >= 1_000) return `${short(v / 1_000)}K`;
  return String(Math.round(v));
}

/** Bytes → "12.3 MB" (always MB, one decimal, as the track table shows sizes). */
export function formatMB(bytes: number | null | undefined): string {
  const v = Number(bytes ?? 0);
  return `${(Number.isFinite(v) ? v / (1024 * 1024) : 0).toFixed(1)} MB`;
}

/** Subsonic's bitRate (kbit/s) → "320 kps" (the spec's unit spelling). */
export function formatKps(kbps: number | null | undefined): string {
  const v = Number(kbps ?? 0);
  return `${Number.isFinite(v) ? Math.round(v) : 0} kps`;
}

/** Seconds → "m:ss" padded to "mm:ss" ("03:07", "72:05"); "∞" for a live stream (Infinity/NaN). */
export function formatDuration(seconds: number | null | undefined): string {
  const v = Number(seconds);
  if (seconds === null || seconds === undefined || !Number.isFinite(v)) return '∞';
  const whole = Math.max(0, Math.floor(v));
  const mm = String(Math.floor(whole / 60)).padStart(2, '0');
  const ss = String(whole % 60).padStart(2, '0');
  return `${mm}:${ss}`;
}

export const UNKNOWN_TITLE = '未知歌曲';
export const UNKNOWN_ARTIST = '未知艺术家';
export const UNKNOWN_ALBUM = '未知专辑';

const named = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);

/** The song's title, or the 未知歌曲 key. */
export const titleOf = (item: { title?: unknown; name?: unknown } | null | undefined): string => named(item?.title) ?? named(item?.name) ?? UNKNOWN_TITLE;
/** The item's artist, or the 未知艺术家 key. */
export const artistOf = (item: { artist?: unknown } | null | undefined): string => named(item?.artist) ?? UNKNOWN_ARTIST;
/** The song's album (or an album's name), or the 未知专辑 key. */
export const albumOf = (item: { album?: unknown; name?: unknown } | null | undefined): string => named(item?.album) ?? UNKNOWN_ALBUM;
