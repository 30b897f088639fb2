/** Open/closed state of the shell's panels, and the counter the title bumps to refresh the page view. */
import { create } from 'zustand';

interface ShellState {
  sideNavOpen: boolean;
  searchOpen: boolean;
  themeOpen: boolean;
  /** Changing it remounts the routed page: the title's "refresh the current view" (§1). */
  viewKey: number;
  setSideNav: (open: boolean) => void;
  toggleSearch: () => void;
  setThemeOpen: (open: boolean) => void;
  refreshView: () => void;
}

export const useShell = create<ShellState>((set) => ({
  sideNavOpen: false,
  searchOpen: false,
  themeOpen: false,
  viewKey: 0,
  setSideNav: (open) => set({ sideNavOpen: open }),
  toggleSearch: () => set((s) => ({ searchOpen: !s.searchOpen })),
  setThemeOpen: (open) => set({ themeOpen: open }),
  refreshView: () => set((s) => ({ viewKey: s.viewKey + 1 })),
}));
