import { describe, expect, it } from 'vitest';
import { DISCOVER_RANDOM_COUNT, DISCOVER_SIMILAR_COUNT, emptyDiscover, normalizeDiscover, ratingStars } from './discover.ts';

describe('discover payload', () => {
  it('shows 3 similar artists and 8 random songs however many the server sent (spec §9)', () => {
    const artists = Array.from({ length: 5 }, (_, i) => ({ id: `ar-${i}`, name: `A${i}` }));
    const songs = Array.from({ length: 12 }, (_, i) => ({ id: `tr-${i}`, title: `T${i}` }));
    const d = normalizeDiscover({ similar_artists: artists, random_songs: songs });
    expect(d.similar_artists.map((a) => a.id)).toEqual(['ar-0', 'ar-1', 'ar-2']);
    expect(d.similar_artists).toHaveLength(DISCOVER_SIMILAR_COUNT);
    expect(d.random_songs).toHaveLength(DISCOVER_RANDOM_COUNT);
  });

  it('fills in the lists a partial answer left out, and treats no answer as the empty page (§8)', () => {
    const d = normalizeDiscover({ hot_track: { id: 't', name: 'Song', cover: 't', artist_name: 'A', artist_id: 'a', album: 'B', album_id: 'b', play_count: 3, duration: 10 } });
    expect(d.hot_track?.name).toBe('Song');
    expect(d.hot_artists).toEqual([]);
    expect(d.recent_plays).toEqual([]);
    expect(d.album).toBeNull();
    expect(normalizeDiscover(undefined)).toEqual(emptyDiscover());
    expect(normalizeDiscover({ new_albums: null as never }).new_albums).toEqual([]);
  });

  it('draws a rating as five stars, out-of-range values clamped', () => {
    expect(ratingStars(3)).toEqual(['full', 'full', 'full', 'empty', 'empty']);
    expect(ratingStars(0).every((s) => s === 'empty')).toBe(true);
    expect(ratingStars(9).every((s) => s === 'full')).toBe(true);
    expect(ratingStars(Number.NaN).every((s) => s === 'empty')).toBe(true);
    expect(ratingStars(4.5).filter((s) => s === 'full')).toHaveLength(4);
  });
});
