/**
 * What a library list does when its /rest call fails (spec §8). The dashboard signs /rest with the
 * user's Subsonic password; without one (no cookies, or /rest says wrong credentials, code 40):
 * - the album LIST says '查询失败！' / '请在后台管理创建一个subsonic密码，刷新页面试试吧' with a link to the
 *   admin area, then sends the user to /login;
 * - the album SEARCH says the same without the redirect;
 * - the artist search stays silent.
 * Any other failure: a list says '创建失败！' with the message (or 创建失败); a search '查询失败！' for 5 s.
 */
import { DashboardError } from '../../../lib/errors.ts';
import { translate } from '../../../lib/i18n.ts';
import { notify } from '../../../lib/notify.ts';
import { SECONDS } from '../../../lib/constants.ts';

export type SubsonicFailureContext = 'album-list' | 'album-search' | 'artist-search' | 'list' | 'search';

export const NO_PASSWORD_TITLE = '查询失败！';
export const NO_PASSWORD_TEXT = '请在后台管理创建一个subsonic密码，刷新页面试试吧';
/** Where the user creates a Subsonic password (the admin area's user profile). */
export const ADMIN_PATH = '/admin';
const SUBSONIC_WRONG_CREDENTIALS = 40;

/** True when the call failed because this user has no (valid) Subsonic password. */
export function isNoSubsonicPassword(error: unknown): boolean {
  if (!(error instanceof DashboardError)) return false;
  if (error.code === 'TAGSONIC_ERR_DASHBOARD_NO_SUBSONIC') return true;
  return error.code === 'TAGSONIC_ERR_DASHBOARD_SUBSONIC' && error.details?.subsonicCode === SUBSONIC_WRONG_CREDENTIALS;
}

export interface FailureReaction {
  notice: { title: string; content: string; timeout: number; linkToAdmin: boolean } | null;
  redirectToLogin: boolean;
}

/** The §8 rule for one failure, without side effects (unit-tested). */
export function reactionTo(error: unknown, context: SubsonicFailureContext): FailureReaction {
  const message = error instanceof Error && error.message ? error.message : '';
  if (isNoSubsonicPassword(error)) {
    if (context === 'artist-search') return { notice: null, redirectToLogin: false };
    return {
      notice: { title: NO_PASSWORD_TITLE, content: NO_PASSWORD_TEXT, timeout: SECONDS.five, linkToAdmin: true },
      redirectToLogin: context === 'album-list',
    };
  }
  if (context === 'artist-search') return { notice: null, redirectToLogin: false };
  if (context === 'album-search' || context === 'search') return { notice: { title: '查询失败！', content: message || '创建失败', timeout: SECONDS.five, linkToAdmin: false }, redirectToLogin: false };
  return { notice: { title: '创建失败！', content: message || '创建失败', timeout: SECONDS.five, linkToAdmin: false }, redirectToLogin: false };
}

/** Raises the notice and redirects as reactionTo says; `navigate` is wouter's. */
export function reportSubsonicFailure(error: unknown, context: SubsonicFailureContext, navigate: (path: string) => void): void {
  if (error instanceof DOMException && error.name === 'AbortError') return;
  const { notice, redirectToLogin } = reactionTo(error, context);
  if (notice) {
    notify({
      intent: 'danger',
      title: translate(notice.title),
      // The no-password text is a catalogue key; other messages already are in the interface language.
      content: notice.linkToAdmin || notice.content === '创建失败' ? translate(notice.content) : notice.content,
      timeout: notice.timeout,
      action: notice.linkToAdmin ? { text: translate('前往后台管理'), onClick: () => navigate(ADMIN_PATH) } : undefined,
    });
  }
  if (redirectToLogin) navigate('/login');
}
