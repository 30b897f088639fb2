/**
 * Lyrics for /playing: OpenSubsonic structured lyrics (getLyricsBySongId, line starts in ms) or the plain
 * getLyrics value (which may still carry LRC stamps), as one list of lines; and the line to highlight at a
 * play time.
 */

export interface LyricLine {
  /** Milliseconds from the track start; null for an unsynced line. */
  start: number | null;
  value: string;
}

export interface Lyrics {
  synced: boolean;
  lines: LyricLine[];
}

/** The `structuredLyrics` entry shape of OpenSubsonic's songLyrics extension (the fields read here). */
export interface StructuredLyrics {
  synced?: boolean;
  offset?: number;
  line?: { start?: number; value?: string }[];
}

/** The first structured lyrics, synced ones preferred; null when there are none or they have no line. */
export function fromStructured(list: StructuredLyrics[] | undefined): Lyrics | null {
  const chosen = list?.find((l) => l.synced && l.line?.length) ?? list?.find((l) => l.line?.length);
  if (!chosen?.line) return null;
  const offset = Number(chosen.offset) || 0;
  const synced = Boolean(chosen.synced) && chosen.line.some((l) => typeof l.start === 'number');
  return {
    synced,
    // OpenSubsonic: a positive offset means the lyrics come earlier, so it is subtracted from each start.
    lines: chosen.line.map((l) => ({ start: synced && typeof l.start === 'number' ? Math.max(0, l.start - offset) : null, value: l.value ?? '' })),
  };
}

const STAMP = /\[(\d{1,3}):(\d{1,2}(?:[.:]\d{1,3})?)\]/g;
const TAG_LINE = /^\[(ar|ti|al|by|offset|length|re|ve|au|#):.*\]$/i;

/** Plain getLyrics text: LRC stamps when it has them (a line with several stamps repeats), else unsynced lines. */
export function fromPlain(text: string | undefined): Lyrics | null {
  if (!text?.trim()) return null;
  const timed: LyricLine[] = [];
  const untimed: LyricLine[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (TAG_LINE.test(line)) continue;
    const stamps = [...line.matchAll(STAMP)];
    const value = line.replace(STAMP, '').trim();
    if (stamps.length === 0) {
      untimed.push({ start: null, value: line });
      continue;
    }
    for (const m of stamps) timed.push({ start: Math.round((Number(m[1]) * 60 + Number(m[2].replace(':', '.'))) * 1000), value });
  }
  if (timed.length > 0) return { synced: true, lines: timed.sort((a, b) => (a.start ?? 0) - (b.start ?? 0)) };
  return { synced: false, lines: untimed };
}

/** The index of the line sung at `ms` (the last one started), -1 before the first or for unsynced lyrics. */
export function activeLineIndex(lyrics: Lyrics | null, ms: number): number {
  if (!lyrics?.synced) return -1;
  let found = -1;
  for (let i = 0; i < lyrics.lines.length; i++) {
    const start = lyrics.lines[i].start;
    if (start === null) continue;
    if (start <= ms) found = i;
    else break;
  }
  return found;
}
