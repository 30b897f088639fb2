/** Music info as music_id3 answers it (gateway/README.md). */
export interface MusicInfo {
  title: string | null;
  artist: string | null;
  album: string | null;
  albumartist: string | null;
  genre: string | null;
  language: string | null;
  year: string | null;
  lyrics: string | null;
  comment: string | null;
  description: string | null;
  discnumber: string | null;
  totaldiscs: string | null;
  tracknumber: string | null;
  totaltracks: string | null;
  composer: string | null;
  lyricist: string | null;
  album_type: string | null;
  replaygain_album_gain: string | null;
  replaygain_album_peak: string | null;
  replaygain_track_gain: string | null;
  replaygain_track_peak: string | null;
  filename: string;
  lyrics_file: boolean;
  album_img: string;
  artist_img: string;
  duration: number;
  bit_rate: number;
  sample_rate: number;
  bit_depth: number | null;
  channels: number;
  size: number;
  artwork_w: number;
  artwork_h: number;
  artwork_size: number;
  artwork_mime: string | null;
  format: string;
  codec: string;
  path: string;
  id: string;
  state: 'success' | 'failed' | null;
  play_url: string;
  last_write_id: string | null;
}

export interface SaveReport {
  task_id: string;
  status: string;
  items: { path: string | null; status: string; error: string | null; write_id: string | null; renamed_from: string | null; lyrics_file: string | null; cover_file: string | null }[];
}
