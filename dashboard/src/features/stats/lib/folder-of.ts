/** The folder holding a file: '/music/a/b.flac' → '/music/a' ('/' for a file at the top; Windows separators too). */
export function folderOf(filePath: string): string {
  const cut = Math.max(filePath.lastIndexOf('/'), filePath.lastIndexOf('\\'));
  if (cut < 0) return '';
  return cut === 0 ? filePath.slice(0, 1) : filePath.slice(0, cut);
}

/** The file's own name. */
export const fileNameOf = (filePath: string): string => filePath.slice(Math.max(filePath.lastIndexOf('/'), filePath.lastIndexOf('\\')) + 1);
