/**
 * Which icon the file tree shows for an entry (the spec's `icon` names). The mapping, by extension:
 *
 * | icon               | entries                                                              |
 * |--------------------|----------------------------------------------------------------------|
 * | icon-folder        | folders                                                              |
 * | icon-file          | audio Tagsonic can tag (mp3 flac m4a ogg opus wav aiff ape wv wma …) |
 * | icon-image         | jpg jpeg png webp gif bmp                                            |
 * | icon-script-file   | lyrics and text beside the music: lrc txt nfo                        |
 * | icon-script-files  | playlists and structured text: m3u m3u8 pls json xml yaml yml md log |
 * | icon-cue           | cue sheets                                                           |
 * | icon-strm          | .strm stream links                                                   |
 * | icon-video         | mp4 mkv avi mov webm                                                 |
 * | icon-zip           | zip rar 7z tar gz                                                    |
 * | icon-other         | anything else                                                        |
 */
export type TreeIcon =
  | 'icon-folder'
  | 'icon-file'
  | 'icon-image'
  | 'icon-script-file'
  | 'icon-script-files'
  | 'icon-cue'
  | 'icon-strm'
  | 'icon-video'
  | 'icon-zip'
  | 'icon-other';

export const AUDIO_EXTENSIONS: ReadonlySet<string> = new Set([
  'mp3', 'flac', 'm4a', 'm4b', 'mp4a', 'aac', 'alac', 'ogg', 'oga', 'opus', 'spx', 'wav', 'aif', 'aiff', 'aifc',
  'ape', 'wv', 'wma', 'asf', 'mpc', 'tta', 'dsf', 'dff',
]);
export const IMAGE_EXTENSIONS: ReadonlySet<string> = new Set(['jpg', 'jpeg', 'png', 'webp', 'gif', 'bmp']);

const BY_EXTENSION: Record<string, TreeIcon> = {
  lrc: 'icon-script-file',
  txt: 'icon-script-file',
  nfo: 'icon-script-file',
  m3u: 'icon-script-files',
  m3u8: 'icon-script-files',
  pls: 'icon-script-files',
  json: 'icon-script-files',
  xml: 'icon-script-files',
  yaml: 'icon-script-files',
  yml: 'icon-script-files',
  md: 'icon-script-files',
  log: 'icon-script-files',
  cue: 'icon-cue',
  strm: 'icon-strm',
  mp4: 'icon-video',
  mkv: 'icon-video',
  avi: 'icon-video',
  mov: 'icon-video',
  webm: 'icon-video',
  zip: 'icon-zip',
  rar: 'icon-zip',
  '7z': 'icon-zip',
  tar: 'icon-zip',
  gz: 'icon-zip',
};

export const extensionOf = (name: string): string => {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
};

export const isAudioName = (name: string) => AUDIO_EXTENSIONS.has(extensionOf(name));
export const isImageName = (name: string) => IMAGE_EXTENSIONS.has(extensionOf(name));

export function iconFor(name: string, isDir: boolean): TreeIcon {
  if (isDir) return 'icon-folder';
  const ext = extensionOf(name);
  if (AUDIO_EXTENSIONS.has(ext)) return 'icon-file';
  if (IMAGE_EXTENSIONS.has(ext)) return 'icon-image';
  return BY_EXTENSION[ext] ?? 'icon-other';
}
