export * from './model.ts';
export * from './conditions.ts';
export { parseM3u, formatM3u8, type M3uEntry, type M3uPlaylist, type M3uItem } from './m3u.ts';
export { Playlists, RANDOM_PLAYLIST_ID, type Actor, type PlaylistView, type PlaylistDetail, type ImportReport, type SmartInput, type PrivacyLevel } from './playlists.ts';
