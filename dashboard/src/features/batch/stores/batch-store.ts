/**
 * The batch side bar's state: open or folded (the badge toggle), the detail mode (remembered in the
 * browser as `isOpenDetail`, §3), which drawer or modal is open, and the loading flag that disables the
 * action buttons while a request runs (§4).
 */
import { create } from 'zustand';
import { loadSetting, saveSetting } from '../../../lib/local-settings.ts';
import type { ActionId } from '../lib/actions.ts';

interface BatchState {
  /** Shown while entries are ticked (open by default: the edit area then is the batch panel, §2). */
  open: boolean;
  /** Shown with nothing ticked (closed by default: the editor has the edit area then). */
  openEmpty: boolean;
  detail: boolean;
  active: ActionId | null;
  loading: boolean;
  toggleOpen: (ticked: boolean) => void;
  toggleDetail: () => void;
  show: (id: ActionId | null) => void;
  setLoading: (loading: boolean) => void;
}

export const useBatchStore = create<BatchState>((set, get) => ({
  open: true,
  openEmpty: false,
  detail: loadSetting('isOpenDetail', true),
  active: null,
  loading: false,
  toggleOpen: (ticked) => set(ticked ? { open: !get().open } : { openEmpty: !get().openEmpty }),
  toggleDetail: () => {
    const detail = !get().detail;
    saveSetting('isOpenDetail', detail);
    set({ detail });
  },
  show: (active) => set({ active }),
  setLoading: (loading) => set({ loading }),
}));
