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

/**
 * A candidate from an online source, scored against the file by the server (fetch_id3_by_title).
 * Scores: 2 exact, 1 contained, 0 no match, −2 the file's artist disagrees (core/matching).
 */
export interface ScoredSong {
  id: string;
  name: string;
  artist: string;
  album: string;
  /** Full-resolution cover URL on the source's host, '' when it has none. */
  album_img: string;
  year: string | number | null;
  tracknumber: string | number | null;
  totaltracks: string | number | null;
  discnumber: string | number | null;
  totaldiscs: string | number | null;
  duration: number | null;
  resource: string;
  title_score: number;
  artist_score: number;
  album_score: number;
}

/** An installed, enabled tag source (get_sources), for the 刮削配置 select. */
export interface SourceInfo {
  id: string;
  name: string;
  enabled: boolean;
}

/** Composer and lyricist found in a lyric's header lines (extract_lyric); '' when absent. */
export interface LyricCredits {
  composer: string;
  lyricist: string;
}
