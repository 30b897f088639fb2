/** The chosen theme and background options, persisted in localStorage (`theme`, `isHiddenBGP`). */
import { create } from 'zustand';
import { loadSetting, saveSetting } from '../lib/local-settings.ts';
import { DEFAULT_THEME, THEMES } from '../lib/themes.ts';

interface ThemeState {
  theme: string;
  hideBackground: boolean;
  setTheme: (theme: string) => void;
  setHideBackground: (hidden: boolean) => void;
}

const initialTheme = (): string => {
  const saved = loadSetting('theme', DEFAULT_THEME);
  return saved in THEMES ? saved : DEFAULT_THEME;
};

export const useThemeStore = create<ThemeState>((set) => ({
  theme: initialTheme(),
  hideBackground: loadSetting('isHiddenBGP', false),
  setTheme: (theme) => {
    if (!(theme in THEMES)) return;
    saveSetting('theme', theme);
    set({ theme });
  },
  setHideBackground: (hidden) => {
    saveSetting('isHiddenBGP', hidden);
    set({ hideBackground: hidden });
  },
}));
