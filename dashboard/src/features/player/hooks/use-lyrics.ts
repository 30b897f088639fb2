/** The lyrics of a song, loaded when the song changes; failures read as "no lyrics" (player errors are swallowed, §8). */
import { useEffect, useState } from 'react';
import { getLyrics } from '../api/get-lyrics.ts';
import type { Lyrics } from '../lib/lyrics.ts';

export function useLyrics(song: { id: string; artist?: string; title?: string } | undefined): { lyrics: Lyrics | null; loading: boolean } {
  const [state, setState] = useState<{ id?: string; lyrics: Lyrics | null; loading: boolean }>({ lyrics: null, loading: false });
  const id = song?.id;
  const artist = song?.artist;
  const title = song?.title;
  useEffect(() => {
    if (!id) {
      setState({ lyrics: null, loading: false });
      return;
    }
    const ctrl = new AbortController();
    setState({ id, lyrics: null, loading: true });
    getLyrics({ id, artist, title }, ctrl.signal)
      .then((lyrics) => setState({ id, lyrics, loading: false }))
      .catch(() => {
        if (!ctrl.signal.aborted) setState({ id, lyrics: null, loading: false });
      });
    return () => ctrl.abort();
  }, [id, artist, title]);
  return { lyrics: state.id === id ? state.lyrics : null, loading: state.loading };
}
