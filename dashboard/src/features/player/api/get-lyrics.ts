/**
 * A song's lyrics: OpenSubsonic structured lyrics (getLyricsBySongId) first; when it has none, the classic
 * getLyrics by artist and title (plain text, LRC stamps possible). null when neither has any.
 */
import { subsonicGet } from '../../../lib/api-client.ts';
import { fromPlain, fromStructured, type Lyrics, type StructuredLyrics } from '../lib/lyrics.ts';

export async function getLyrics(song: { id: string; artist?: string; title?: string }, signal?: AbortSignal): Promise<Lyrics | null> {
  const structured = await subsonicGet<{ lyricsList?: { structuredLyrics?: StructuredLyrics[] } }>('getLyricsBySongId', { id: song.id }, signal);
  const found = fromStructured(structured.lyricsList?.structuredLyrics);
  if (found) return found;
  if (!song.title) return null;
  const plain = await subsonicGet<{ lyrics?: { value?: string } }>('getLyrics', { artist: song.artist ?? '', title: song.title }, signal);
  return fromPlain(plain.lyrics?.value);
}
