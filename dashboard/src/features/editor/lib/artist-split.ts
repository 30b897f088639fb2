/**
 * Album-artist choices from an artist string (§5): its parts split on , / & 、 ， and the whole string.
 */
const SEPARATORS = /[,/&、，]/;

export function albumArtistChoices(artist: string | null | undefined): string[] {
  const whole = (artist ?? '').trim();
  if (whole === '') return [];
  const parts = whole
    .split(SEPARATORS)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  return [...new Set([...parts, whole])];
}
