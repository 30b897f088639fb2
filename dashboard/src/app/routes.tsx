import type { ReactNode } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { Button } from '../components/ui/button.tsx';
import { NonIdealState } from '../components/ui/display.tsx';
import { AdminPage } from '../features/admin/components/admin-page.tsx';
import { LogDetailPage } from '../features/logs/components/log-detail-page.tsx';
import { LogPage } from '../features/logs/components/log-page.tsx';
import { PluginsPage } from '../features/plugins/components/plugins-page.tsx';
import { ComingLater } from '../features/shell/components/coming-later.tsx';
import { useT } from '../lib/i18n.ts';
import { useSession } from '../stores/session-store.ts';
import { HomePage } from './home-page.tsx';

/** Pages of the spec's route table that later versions build; V2-only ones say so to V1 (§2, §6). */
const LATER: { path: string; title: string; v2?: boolean }[] = [
  { path: '/index', title: '首页', v2: true },
  { path: '/system', title: '系统设置', v2: true },
  { path: '/progress', title: '刮削进度' },
  { path: '/record', title: '听歌记录' },
  { path: '/hello', title: '欢迎' },
  { path: '/test', title: '测试' },
  { path: '/albums/:sort', title: '专辑', v2: true },
  { path: '/album/id/:id', title: '专辑', v2: true },
  { path: '/tracks/:sort', title: '歌曲', v2: true },
  { path: '/artists/:sort', title: '艺术家', v2: true },
  { path: '/artist/id/:id', title: '艺术家', v2: true },
  { path: '/artist/tracks/:id', title: '艺术家的歌曲', v2: true },
  { path: '/genres/:sort', title: '流派', v2: true },
  { path: '/genre/id/:id', title: '流派', v2: true },
  { path: '/favourites/:sort', title: '收藏', v2: true },
  { path: '/discover', title: '发现', v2: true },
  { path: '/playing/id/:id', title: '正在播放', v2: true },
  { path: '/playing', title: '正在播放', v2: true },
  { path: '/xiaoMiQueue', title: '小爱播放队列', v2: true },
  { path: '/playlists/:sort', title: '歌单', v2: true },
  { path: '/playlist/:id', title: '歌单', v2: true },
];

function V2Only({ children, onOpenActivation }: { children: ReactNode; onOpenActivation: () => void }) {
  const t = useT();
  const role = useSession((s) => s.user?.role);
  if (role === 'V2') return <>{children}</>;
  return (
    <NonIdealState
      icon="lock"
      title={t('需要 V2 版本')}
      description={t('此功能仅对 V2 版本开放。')}
      action={<Button intent="primary" icon="key" text={t('激活 V2')} onClick={onOpenActivation} />}
    />
  );
}

function NotFound() {
  const t = useT();
  return <NonIdealState icon="search" title={t('页面不存在')} action={<Button icon="home" text={t('返回首页')} onClick={() => history.replaceState(null, '', '/')} />} />;
}

/** The signed-in routes, exactly the spec's route table. */
export function SignedInRoutes({ onOpenActivation }: { onOpenActivation: () => void }) {
  return (
    <Switch>
      <Route path="/">
        <HomePage detail={false} />
      </Route>
      <Route path="/detail">
        <HomePage detail />
      </Route>
      <Route path="/admin/*?">
        <AdminPage />
      </Route>
      <Route path="/mod">
        <V2Only onOpenActivation={onOpenActivation}>
          <PluginsPage kind="tag-source" />
        </V2Only>
      </Route>
      <Route path="/actionMod">
        <V2Only onOpenActivation={onOpenActivation}>
          <PluginsPage kind="batch-action" />
        </V2Only>
      </Route>
      <Route path="/log">
        <LogPage />
      </Route>
      <Route path="/log_detail/:id/">{(params) => <LogDetailPage key={params.id} id={params.id} />}</Route>
      <Route path="/library">
        <Redirect to="/albums/recently-added/" replace />
      </Route>
      {LATER.map((r) => (
        <Route key={r.path} path={r.path}>
          {r.v2 ? (
            <V2Only onOpenActivation={onOpenActivation}>
              <ComingLater title={r.title} />
            </V2Only>
          ) : (
            <ComingLater title={r.title} />
          )}
        </Route>
      ))}
      <Route>
        <NotFound />
      </Route>
    </Switch>
  );
}
