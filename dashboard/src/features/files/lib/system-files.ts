/**
 * Files an operating system leaves in music folders by itself (Windows' desktop.ini and thumbnail
 * caches, macOS's Finder data and AppleDouble twins, KDE's folder settings). They are not the user's
 * files: the checked card does not count or list them, and batch marks skip them.
 */
const NAMES = new Set(['desktop.ini', 'thumbs.db', 'ehthumbs.db', 'ehthumbs_vista.db', '.ds_store', '.directory', '.localized', 'icon\r']);

export function isSystemFile(name: string): boolean {
  const lower = name.toLowerCase();
  return NAMES.has(lower) || lower.startsWith('._');
}
