/**
 * Every endpoint group served under /rest, one file per group (like Navidrome's server/subsonic).
 * Adding a group = one import and one entry here.
 */
import type { SubsonicGroup } from './registry.ts';
import { systemGroup } from './system.ts';
import { browsingGroup } from './browsing.ts';
import { albumListsGroup } from './album-lists.ts';
import { searchingGroup } from './searching.ts';
import { annotationGroup } from './annotation.ts';
import { bookmarksGroup } from './bookmarks.ts';
import { usersGroup } from './users.ts';
import { sharesGroup } from './shares.ts';
import { radioGroup } from './radio.ts';
import { scanGroup } from './scan.ts';
import { discoverGroup } from './discover.ts';
import { mediaGroup } from './media.ts';
import { playlistsGroup } from './playlists.ts';

export const GROUPS: readonly SubsonicGroup[] = [
  systemGroup,
  browsingGroup,
  albumListsGroup,
  searchingGroup,
  annotationGroup,
  bookmarksGroup,
  usersGroup,
  sharesGroup,
  radioGroup,
  scanGroup,
  discoverGroup,
  mediaGroup,
  playlistsGroup,
];
