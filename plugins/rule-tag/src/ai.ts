/**
 * The AI rule (`useAI`): asks the language model the administrator configured (`caps.llm.chat`) for the genre of
 * one track, from its title, artist and album (and the genres its album's other tracks carry, as a hint). The
 * answer is taken only when it reads as one genre name: a sentence, "unknown" or an empty answer decides nothing.
 */
import type { LlmCapability } from '@tagsonic/sdk';

/** The spec's preset genres (doc 2 "Preset genres"): the model is asked to prefer them, so the library's genres stay few. */
export const PRESET_GENRES = ['流行', '摇滚', '说唱', '民谣', '电子', '爵士', '纯音乐', '金属', '世界音乐', '新世纪', '古典', '独立', '氛围音乐'];

const SYSTEM = [
  'You label songs with their music genre.',
  `Answer with one genre name and nothing else. Prefer one of: ${PRESET_GENRES.join(', ')}.`,
  'If you do not know the song or the artist, answer: unknown',
].join(' ');

/** A genre name is short; longer is an explanation, not a name. */
const MAX_GENRE = 30;
const UNKNOWN = /^(unknown|none|n\/a|不知道|未知|无法确定|不确定)$/i;

export interface AskedTrack {
  title: string | null;
  artist: string | null;
  album: string | null;
  albumGenres: ReadonlyArray<[string, number]> | null | undefined;
}

/** The model's genre for the track, or why its answer decides nothing (`answer` is what it said, for the report). */
export async function askGenre(llm: LlmCapability, track: AskedTrack): Promise<{ genre: string } | { none: string }> {
  const lines = [`Title: ${track.title ?? '(none)'}`, `Artist: ${track.artist ?? '(none)'}`, `Album: ${track.album ?? '(none)'}`];
  if (track.albumGenres?.length) lines.push(`Other tracks of the album: ${track.albumGenres.map(([g, n]) => `${g} (${n})`).join(', ')}`);
  const answer = await llm.chat({ messages: [{ role: 'system', content: SYSTEM }, { role: 'user', content: lines.join('\n') }], maxTokens: 20 });
  const genre = cleanAnswer(answer);
  if (!genre) return { none: `the AI named no genre (it answered "${answer.trim().slice(0, 80)}")` };
  return { genre };
}

/** "Genre: Rock." / "**摇滚**" / "「流行」" → the name; null when the answer is not one short name. */
export function cleanAnswer(answer: string): string | null {
  const line = answer.trim().split(/\r?\n/)[0] ?? '';
  const name = line
    .replace(/^(genre|流派|风格)\s*[:：]\s*/i, '')
    .replace(/^[\s"'“”‘’「」『』*`《》]+|[\s"'“”‘’「」『』*`《》.。!！]+$/g, '')
    .trim();
  if (!name || name.length > MAX_GENRE || UNKNOWN.test(name)) return null;
  return name;
}
