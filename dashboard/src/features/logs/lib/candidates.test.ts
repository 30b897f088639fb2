import { describe, expect, it } from 'vitest';
import { candidatesOf, lookupOf } from './candidates.ts';

describe('report candidates', () => {
  it('takes auto-scrape\'s kept candidates as the candidate table\'s songs, leaving out entries it cannot show', () => {
    const kept = {
      id: 'B8B4', name: '晴天', year: '2003-07-31', album: '叶惠美', artist: '周杰伦', album_img: 'http://127.0.0.1/c.jpg', tracknumber: null, discnumber: null,
      totaltracks: null, totaldiscs: null, resource: 'kugou', duration: 269, title_score: 2, artist_score: 0, album_score: 1,
    };
    const songs = candidatesOf({ candidate_list: [kept, { id: 'x', name: 'no source' }, null, 'text', { name: 'no id', resource: 'kugou' }] });
    expect(songs).toEqual([{ ...kept }]);
    expect(candidatesOf({ candidate_list: undefined })).toEqual([]);
    // Numbers as ids and missing scores: shown, the score colouring nothing.
    const [n] = candidatesOf({ candidate_list: [{ id: 42, name: 'Song', resource: 'itunes' }] });
    expect(n).toMatchObject({ id: '42', artist: '', album: '', year: null, duration: null });
    expect(n.title_score).toBeNaN();
  });

  it('looks a row up by the title the report kept, else the raw one, else the file name', () => {
    expect(lookupOf({ path: '/m/a/01 x.mp3', title: ' 晴天 ', artist: '周杰伦', album: null, extra: null })).toEqual({ title: '晴天', artist: '周杰伦', full_path: '/m/a/01 x.mp3' });
    expect(lookupOf({ path: '/m/a/01 x.mp3', title: null, extra: { raw_title: 'Raw', raw_album: 'Alb' } })).toEqual({ title: 'Raw', album: 'Alb', full_path: '/m/a/01 x.mp3' });
    expect(lookupOf({ path: '/m/a/Song Name.flac', title: '', extra: null })).toEqual({ title: 'Song Name', full_path: '/m/a/Song Name.flac' });
    expect(lookupOf({ path: null, title: null, extra: null })).toBeNull();
  });
});
