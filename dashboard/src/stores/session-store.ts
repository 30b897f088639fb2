/**
 * Who is signed in: the user info of GET /user/info/ (role, edition, admin flag, Subsonic salt/hash).
 * Shared by every feature (role-filtered tabs, V2 gates), so it lives below the features.
 */
import { create } from 'zustand';

export type Role = 'V1' | 'V2';

export interface UserInfo {
  username: string;
  role: Role;
  is_forever: boolean;
  active_until: string | null;
  is_admin: boolean;
  salt: string;
  hash: string;
  sys_dict: { mi_play_in_pl: number; background_url: string | null };
  version: { display: string; project: string };
}

export type SessionStatus = 'unknown' | 'checking' | 'signed-in' | 'signed-out';

interface SessionState {
  status: SessionStatus;
  user: UserInfo | null;
  setChecking: () => void;
  signIn: (user: UserInfo) => void;
  signOut: () => void;
  patchUser: (patch: Partial<UserInfo>) => void;
}

export const useSession = create<SessionState>((set) => ({
  status: 'unknown',
  user: null,
  setChecking: () => set({ status: 'checking' }),
  signIn: (user) => set({ status: 'signed-in', user }),
  signOut: () => set({ status: 'signed-out', user: null }),
  patchUser: (patch) => set((s) => (s.user ? { user: { ...s.user, ...patch } } : s)),
}));

export const isV2 = (user: UserInfo | null): boolean => user?.role === 'V2';
