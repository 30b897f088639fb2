/** Hands library songs to the player (features/player's store), as every library screen's PLAY does. */
import { usePlayer } from '../../player/stores/player-store.ts';
import { toPlayerTrack } from '../../player/lib/track.ts';
import type { SubsonicSong } from '../api/types.ts';

/** Plays the list from `index`; without one the player picks (§4: random with shuffle on, else the first). */
export function playSongs(songs: readonly SubsonicSong[], index?: number): void {
  if (songs.length === 0) return;
  usePlayer.getState().playList(songs.map(toPlayerTrack), index);
}
