/**
 * What copying from an online-source candidate puts into the editor (§2): one cell's value, or the whole
 * row (the left arrow). Numbers arrive as numbers or strings depending on the source; the editor keeps
 * strings. A row copy never blanks a field the candidate has no value for.
 */
import type { ScoredSong } from '../api/types.ts';
import type { Values } from './build-update.ts';

/** The candidate cells a click copies, each to the editor fields it fills. */
export type CopyCell = 'title' | 'artist' | 'album' | 'year' | 'track' | 'disc';

/** A source's number or text as the editor's text; null, '', 0 and NaN mean "none". */
export function text(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) && value > 0 ? String(value) : '';
  return value.trim();
}

/** The year part of a source's date ('2012-03-05' → '2012'); the editor wants digits only. */
export function yearOf(value: string | number | null | undefined): string {
  const s = text(value);
  const m = /^(\d{4})/.exec(s);
  return m ? m[1] : s;
}

/** The editor fields one cell fills, with their values (a track cell fills number and total). */
export function cellValues(song: ScoredSong, cell: CopyCell): Values {
  switch (cell) {
    case 'title':
      return { title: text(song.name) };
    case 'artist':
      return { artist: text(song.artist) };
    case 'album':
      return { album: text(song.album) };
    case 'year':
      return { year: yearOf(song.year) };
    case 'track':
      return { tracknumber: text(song.tracknumber), totaltracks: text(song.totaltracks) };
    case 'disc':
      return { discnumber: text(song.discnumber), totaldiscs: text(song.totaldiscs) };
  }
}

/** The whole row: title, artist, album, year, track and disc numbers with totals; empty values left out. */
export function rowValues(song: ScoredSong): Values {
  const all: Values = {};
  for (const cell of ['title', 'artist', 'album', 'year', 'track', 'disc'] as const) Object.assign(all, cellValues(song, cell));
  return Object.fromEntries(Object.entries(all).filter(([, v]) => v !== ''));
}

/** '3/12' style text for a number and its total; '' when there is no number. */
export function ofTotal(n: string | number | null | undefined, total: string | number | null | undefined): string {
  const a = text(n);
  if (a === '') return '';
  const b = text(total);
  return b === '' ? a : `${a}/${b}`;
}
