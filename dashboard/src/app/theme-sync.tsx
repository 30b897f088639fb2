import { useEffect } from 'react';
import { DARK_CLASS } from '../components/ui/styles.ts';
import { useLang } from '../lib/i18n.ts';
import { paletteOf, themeVariables } from '../lib/themes.ts';
import { useThemeStore } from '../stores/theme-store.ts';

/** Applies the chosen theme (CSS variables, Blueprint's dark class) and the language to the document. */
export function ThemeSync() {
  const theme = useThemeStore((s) => s.theme);
  const lang = useLang((s) => s.lang);
  useEffect(() => {
    const palette = paletteOf(theme);
    const root = document.documentElement;
    for (const [k, v] of Object.entries(themeVariables(palette))) root.style.setProperty(k, v);
    root.dataset.theme = theme;
    root.style.colorScheme = palette.dark ? 'dark' : 'light';
    document.body.classList.toggle(DARK_CLASS, palette.dark);
  }, [theme]);
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  return null;
}
