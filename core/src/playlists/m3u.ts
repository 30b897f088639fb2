/**
 * M3U / M3U8 text: parsing what players and other servers write (BOM, CRLF, `#EXTINF`, `file://`
 * URIs, Windows separators) and writing the extended form with absolute paths.
 */

export interface M3uEntry {
  /** The location as written (after decoding a file:// URI); `/`-separated. */
  location: string;
  /** 1-based line number, for reports. */
  line: number;
  /** From `#EXTINF:<seconds>,<artist> - <title>`. */
  duration: number | null;
  display: string | null;
  /** True for http(s) and other non-file URLs: never resolved to a library file. */
  remote: boolean;
}

export interface M3uPlaylist {
  /** `#PLAYLIST:` when present. */
  name: string | null;
  entries: M3uEntry[];
}

const EXTINF = /^#EXTINF:\s*(-?\d+(?:\.\d+)?)?[^,]*,?(.*)$/i;

export function parseM3u(text: string): M3uPlaylist {
  let name: string | null = null;
  const entries: M3uEntry[] = [];
  let pending: { duration: number | null; display: string | null } | null = null;
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    if (line.startsWith('#')) {
      const inf = EXTINF.exec(line);
      if (inf) {
        const d = inf[1] === undefined ? null : Number(inf[1]);
        pending = { duration: d !== null && d >= 0 ? d : null, display: inf[2]?.trim() || null };
      } else if (/^#PLAYLIST:/i.test(line)) name = line.slice('#PLAYLIST:'.length).trim() || null;
      return;
    }
    let location = line;
    let remote = false;
    if (/^file:\/\//i.test(location)) {
      try {
        location = decodeURIComponent(new URL(location).pathname);
      } catch {
        // Leave it as written: resolving will report it unmatched.
      }
    } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(location)) remote = true;
    // Windows players write backslashes and drive letters; keep the path part.
    if (!remote) location = location.replace(/\\/g, '/').replace(/^[a-z]:(?=\/)/i, '');
    const info: { duration: number | null; display: string | null } = pending ?? { duration: null, display: null };
    entries.push({ location, line: i + 1, duration: info.duration, display: info.display, remote });
    pending = null;
  });
  return { name, entries };
}

export interface M3uItem {
  path: string;
  duration: number;
  artist: string;
  title: string;
}

/** Extended M3U8 (UTF-8, LF) with `#PLAYLIST` and one `#EXTINF` per entry. */
export function formatM3u8(name: string, items: readonly M3uItem[]): string {
  const clean = (s: string) => s.replace(/[\r\n]+/g, ' ');
  const out = ['#EXTM3U', `#PLAYLIST:${clean(name)}`];
  for (const it of items) {
    out.push(`#EXTINF:${Math.round(it.duration)},${clean(it.artist)} - ${clean(it.title)}`);
    out.push(clean(it.path));
  }
  return out.join('\n') + '\n';
}
