import { coverUrl } from '../lib/cover-url.ts';

/**
 * A cover of our own /rest as a file, to upload like a picture the user chose. A genre's cover suggestions are
 * its albums' covers, which the server cannot download by URL (it refuses private addresses, and the URL carries
 * the user's Subsonic token).
 */
export async function getCoverFile(coverArt: string, size = 600, signal?: AbortSignal): Promise<File> {
  const res = await fetch(coverUrl(coverArt, size), { credentials: 'same-origin', signal });
  if (!res.ok) throw new Error(`getCoverArt answered ${res.status}`);
  const blob = await res.blob();
  const ext = blob.type === 'image/png' ? 'png' : blob.type === 'image/webp' ? 'webp' : 'jpg';
  return new File([blob], `${coverArt}.${ext}`, { type: blob.type || 'image/jpeg' });
}
