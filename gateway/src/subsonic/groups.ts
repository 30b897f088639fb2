/**
 * Every endpoint group served under /rest, one file per group (like Navidrome's server/subsonic).
 * Adding a group = one import and one entry here.
 */
import type { SubsonicGroup } from './registry.ts';
import { systemGroup } from './system.ts';
import { scanGroup } from './scan.ts';

export const GROUPS: readonly SubsonicGroup[] = [systemGroup, scanGroup];
