import { describe, expect, it } from 'vitest';
import { DashboardError } from '../../../lib/errors.ts';
import { isNoSubsonicPassword, reactionTo } from './subsonic-error.ts';

const noCookies = new DashboardError('unauthorized', 'TAGSONIC_ERR_DASHBOARD_NO_SUBSONIC', '请在后台管理创建一个subsonic密码，刷新页面试试吧');
const wrongPassword = new DashboardError('unavailable', 'TAGSONIC_ERR_DASHBOARD_SUBSONIC', 'Wrong username or password', { status: 200, subsonicCode: 40 });
const notFound = new DashboardError('unavailable', 'TAGSONIC_ERR_DASHBOARD_SUBSONIC', 'Album not found', { status: 200, subsonicCode: 70 });

describe('library /rest failures (spec §8)', () => {
  it('knows the no-streaming-password case: no cookies, or /rest code 40', () => {
    expect(isNoSubsonicPassword(noCookies)).toBe(true);
    expect(isNoSubsonicPassword(wrongPassword)).toBe(true);
    expect(isNoSubsonicPassword(notFound)).toBe(false);
    expect(isNoSubsonicPassword(new Error('x'))).toBe(false);
  });

  it('album list: notice with the admin link, then to /login', () => {
    for (const error of [noCookies, wrongPassword]) {
      const r = reactionTo(error, 'album-list');
      expect(r.redirectToLogin).toBe(true);
      expect(r.notice).toMatchObject({ title: '查询失败！', content: '请在后台管理创建一个subsonic密码，刷新页面试试吧', linkToAdmin: true });
    }
  });

  it('album search: the same notice, no redirect; artist search: nothing at all', () => {
    expect(reactionTo(noCookies, 'album-search')).toMatchObject({ redirectToLogin: false, notice: { title: '查询失败！', linkToAdmin: true } });
    expect(reactionTo(noCookies, 'artist-search')).toEqual({ notice: null, redirectToLogin: false });
    expect(reactionTo(notFound, 'artist-search')).toEqual({ notice: null, redirectToLogin: false });
  });

  it('other failures: 创建失败！ on a list, 查询失败！ on a search, with the message or 创建失败', () => {
    expect(reactionTo(notFound, 'album-list')).toEqual({ redirectToLogin: false, notice: { title: '创建失败！', content: 'Album not found', timeout: 5000, linkToAdmin: false } });
    expect(reactionTo(new Error(''), 'list').notice?.content).toBe('创建失败');
    expect(reactionTo(notFound, 'album-search').notice).toMatchObject({ title: '查询失败！', content: 'Album not found' });
  });
});
