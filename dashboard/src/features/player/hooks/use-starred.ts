/**
 * Whether the current track is a favourite, and its toggle. A queue entry does not carry the mark (it may
 * have changed since it was queued), so it is read from getSong when the track changes. Failures are
 * swallowed like every player error (§8): the star shows its previous state again.
 */
import { useCallback, useEffect, useState } from 'react';
import { getSong } from '../api/get-song.ts';
import { starSong } from '../api/star-song.ts';

export function useStarred(id: string | undefined, isStream = false): { starred: boolean; toggle: () => void } {
  const [starred, setStarred] = useState(false);
  useEffect(() => {
    setStarred(false);
    if (!id || isStream) return;
    const ctrl = new AbortController();
    getSong(id, ctrl.signal)
      .then((song) => setStarred(Boolean(song.starred)))
      .catch(() => undefined);
    return () => ctrl.abort();
  }, [id, isStream]);
  const toggle = useCallback(() => {
    if (!id || isStream) return;
    const next = !starred;
    setStarred(next);
    starSong(id, next).catch(() => setStarred(!next));
  }, [id, isStream, starred]);
  return { starred, toggle };
}
