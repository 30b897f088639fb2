/** Path and text helpers of auto-scrape (the sandbox has no node:path). */

export const dirOf = (path: string): string => {
  const at = path.lastIndexOf('/');
  return at <= 0 ? '/' : path.slice(0, at);
};

/**
 * A title to search with when the file has none: its name without the extension, a leading track number
 * (`01 `, `01. `, `01 - `) and an `Artist - ` prefix.
 */
export function titleFromName(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '');
  const unnumbered = base.replace(/^\d{1,3}\s*[-._)]?\s+/, '');
  const dash = unnumbered.lastIndexOf(' - ');
  return (dash > 0 ? unnumbered.slice(dash + 3) : unnumbered).trim() || base.trim();
}

/** Album names compared as a person would: case, width of spaces and surrounding blanks aside. */
export const sameText = (a: string | null | undefined, b: string | null | undefined): boolean =>
  Boolean(a && b) && a!.trim().replace(/\s+/g, ' ').toLowerCase() === b!.trim().replace(/\s+/g, ' ').toLowerCase();

/** The kv key of a folder's album in a task: a hash keeps it inside the host's 200-character key limit. */
export function folderKey(taskId: string, folder: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < folder.length; i++) {
    hash ^= folder.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `folder:${taskId}:${hash.toString(16)}:${folder.length}`;
}
