import { describe, expect, it } from 'vitest';
import type { ScoredSong } from '../api/types.ts';
import { scoreTone } from './score.ts';
import { cellValues, ofTotal, rowValues, yearOf } from './scrape-copy.ts';

const song = (over: Partial<ScoredSong> = {}): ScoredSong => ({
  id: '1',
  name: ' Viva la Vida ',
  artist: 'Coldplay',
  album: 'Viva la Vida or Death and All His Friends',
  album_img: 'https://example.com/a.jpg',
  year: '2008-06-12T07:00:00Z',
  tracknumber: 7,
  totaltracks: 10,
  discnumber: 1,
  totaldiscs: null,
  duration: 242,
  resource: 'itunes',
  title_score: 2,
  artist_score: 1,
  album_score: 0,
  ...over,
});

describe('copying a candidate into the editor', () => {
  it('a cell fills its fields as text, trimmed; track and disc carry their totals', () => {
    expect(cellValues(song(), 'title')).toEqual({ title: 'Viva la Vida' });
    expect(cellValues(song(), 'year')).toEqual({ year: '2008' });
    expect(cellValues(song(), 'track')).toEqual({ tracknumber: '7', totaltracks: '10' });
    expect(cellValues(song(), 'disc')).toEqual({ discnumber: '1', totaldiscs: '' });
  });

  it('the row copies every field the candidate has and never blanks the others', () => {
    expect(rowValues(song({ album: '', totaldiscs: 0 }))).toEqual({
      title: 'Viva la Vida',
      artist: 'Coldplay',
      year: '2008',
      tracknumber: '7',
      totaltracks: '10',
      discnumber: '1',
    });
  });

  it('years and totals read the way sources send them', () => {
    expect(yearOf(2012)).toBe('2012');
    expect(yearOf('1999')).toBe('1999');
    expect(yearOf(null)).toBe('');
    expect(ofTotal('3', 12)).toBe('3/12');
    expect(ofTotal(3, null)).toBe('3');
    expect(ofTotal(null, 12)).toBe('');
  });
});

describe('score colouring', () => {
  it('1 yellow (partial), 2 grey (exact), 0 red (miss), anything else plain', () => {
    expect([1, 2, 0, -2, undefined, 3].map(scoreTone)).toEqual(['partial', 'exact', 'miss', 'plain', 'plain', 'plain']);
  });
});
