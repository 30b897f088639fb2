/** The file tree's wire shapes (gateway/README.md, "Files and tags"). */

export type ScrapeState = 'success' | 'failed' | null;

export interface TreeNode {
  /** The entry's full path. */
  id: string;
  name: string;
  title: string;
  icon: string;
  state: ScrapeState;
  children: TreeNode[];
  selected: boolean;
  is_dir: boolean;
  full_path: string;
  size: number;
  update_time: string;
  /** Only on a file the library scan left out (not audio, unreadable): why, by error code. */
  scan_problem?: { code: string; message: string };
}

export interface FileListData {
  file_list_data: TreeNode[];
  file_name: string;
  file_path: string;
  parent_path: string | null;
  total: number;
}

export interface Id3Row {
  id: string;
  filename: string;
  file_full_path: string;
  icon: string;
  state: ScrapeState;
  album_img: string;
  title: string | null;
  artist: string | null;
  album: string | null;
  albumartist: string | null;
  lyrics: string | null;
  lyrics_file: boolean;
  year: string | null;
  genre: string | null;
  tracknumber: string | null;
  totaltracks: string | null;
  discnumber: string | null;
  totaldiscs: string | null;
  composer: string | null;
  lyricist: string | null;
  comment: string | null;
  language: string | null;
  album_type: string | null;
  duration: number;
  bit_rate: number;
  sample_rate: number;
  size: number;
  error: string | null;
}

/** A checked entry as the batch calls send it (§3 "Checked item"). */
export interface SelectItem {
  name: string;
  icon: string;
  title: string;
}
