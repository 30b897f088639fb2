/** Signing in, the logged-in check of the shell, and signing out (§4 "Edition and session"). */
import { COOKIE_DAYS } from '../../../lib/constants.ts';
import { deleteCookie, writeCookie } from '../../../lib/cookies.ts';
import { useSession } from '../../../stores/session-store.ts';
import { getUserInfo } from '../api/get-user-info.ts';
import { logout } from '../api/logout.ts';

/** The cookies the dashboard's own Subsonic calls sign with (u, s, t), kept 7 days (§9). */
const SUBSONIC_COOKIES = ['username', 'salt', 'hash'] as const;

/** GET /user/info/; resolves true when signed in (and stores the user), false otherwise. */
export async function checkSession(): Promise<boolean> {
  const session = useSession.getState();
  session.setChecking();
  try {
    const user = await getUserInfo();
    for (const name of SUBSONIC_COOKIES) {
      if (user[name]) writeCookie(name, user[name], COOKIE_DAYS);
      else deleteCookie(name);
    }
    session.signIn(user);
    return true;
  } catch {
    session.signOut();
    return false;
  }
}

/** POST /logout/ (the server clears its cookies), then forget the user here too. */
export async function signOut(): Promise<void> {
  await logout().catch(() => undefined);
  for (const name of SUBSONIC_COOKIES) deleteCookie(name);
  useSession.getState().signOut();
}
