import { subsonicGet } from '../../../lib/api-client.ts';

export interface Suggestions {
  artists: { id: string; name: string }[];
  albums: { id: string; name: string; artist?: string }[];
  tracks: { id: string; title: string; artist?: string; albumId?: string; album?: string }[];
}

interface SearchResult3 {
  searchResult3?: {
    artist?: { id: string; name: string }[];
    album?: { id: string; name: string; artist?: string }[];
    song?: { id: string; title: string; artist?: string; albumId?: string; album?: string }[];
  };
}

/** Subsonic search3 for the header's suggestions (V2). */
export async function searchSuggestions(query: string, signal?: AbortSignal): Promise<Suggestions> {
  const answer = await subsonicGet<SearchResult3>('search3', { query, artistCount: 5, albumCount: 5, songCount: 5 }, signal);
  const r = answer.searchResult3 ?? {};
  return { artists: r.artist ?? [], albums: r.album ?? [], tracks: r.song ?? [] };
}
