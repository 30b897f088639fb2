import { createElement, lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { Button } from '../components/ui/button.tsx';
import { NonIdealState, Spinner } from '../components/ui/display.tsx';
import { ComingLater } from '../features/shell/components/coming-later.tsx';
import { useT } from '../lib/i18n.ts';
import { useSession } from '../stores/session-store.ts';

/**
 * Every screen is its own chunk, the file screen too: the first download is the shell. Library, player and
 * statistics pages take no props and read their route parameters with wouter's `useParams()`.
 */
type PreloadablePage<P extends object = object> = ComponentType<P> & { preload: () => Promise<void> };

/**
 * A lazily loaded page that renders at once, without a Suspense fallback, once its chunk is in: React holds the
 * content behind a shown fallback for ~300 ms, which was most of a screen's first render (bench/ui/albums.ts).
 * `preloadRoute` fetches the chunk of the address the app opens on while the session check runs.
 */
function page<P extends object, K extends string>(load: () => Promise<Record<K, ComponentType<P>>>, name: K): PreloadablePage<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<void> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (m) => {
        loaded = m[name];
      },
      (error: unknown) => {
        loading = undefined; // a failed chunk load (a new deployment) may be retried by the next navigation
        throw error;
      },
    ));
  const Lazy = lazy(() => preload().then(() => ({ default: loaded! })));
  const Page = (props: P) => (loaded ? createElement(loaded, props) : createElement(Lazy as unknown as ComponentType<P>, props));
  return Object.assign(Page, { preload });
}

const FilesPage = page(() => import('./home-page.tsx'), 'HomePage');
const Admin = page(() => import('../features/admin/components/admin-page.tsx'), 'AdminPage');
const Plugins = page(() => import('../features/plugins/components/plugins-page.tsx'), 'PluginsPage');
const Log = page(() => import('../features/logs/components/log-page.tsx'), 'LogPage');
const LogDetail = page(() => import('../features/logs/components/log-detail-page.tsx'), 'LogDetailPage');
/** The screens outside LAZY, for preloadRoute. */
const OTHER_SCREENS: { pattern: RegExp; page: { preload: () => Promise<void> } }[] = [
  { pattern: /^\/(detail\/?)?$/, page: FilesPage },
  { pattern: /^\/admin(\/.*)?$/, page: Admin },
  { pattern: /^\/(mod|actionMod)\/?$/, page: Plugins },
  { pattern: /^\/log\/?$/, page: Log },
  { pattern: /^\/log_detail\/[^/]+\/?$/, page: LogDetail },
];

const LAZY: { path: string; page: PreloadablePage; v2?: boolean }[] = [
  { path: '/index', page: page(() => import('../features/stats/pages/index-page.tsx'), 'IndexPage'), v2: true },
  { path: '/progress', page: page(() => import('../features/stats/pages/progress-page.tsx'), 'ProgressPage') },
  { path: '/record', page: page(() => import('../features/stats/pages/record-page.tsx'), 'RecordPage') },
  { path: '/albums/:sort/?', page: page(() => import('../features/library/pages/albums-page.tsx'), 'AlbumsPage'), v2: true },
  { path: '/album/id/:id', page: page(() => import('../features/library/pages/album-page.tsx'), 'AlbumPage'), v2: true },
  { path: '/tracks/:sort/?', page: page(() => import('../features/library/pages/tracks-page.tsx'), 'TracksPage'), v2: true },
  { path: '/artists/:sort/?', page: page(() => import('../features/library/pages/artists-page.tsx'), 'ArtistsPage'), v2: true },
  { path: '/artist/id/:id', page: page(() => import('../features/library/pages/artist-page.tsx'), 'ArtistPage'), v2: true },
  { path: '/artist/tracks/:id', page: page(() => import('../features/library/pages/artist-tracks-page.tsx'), 'ArtistTracksPage'), v2: true },
  { path: '/genres/:sort/?', page: page(() => import('../features/library/pages/genres-page.tsx'), 'GenresPage'), v2: true },
  { path: '/genre/id/:id', page: page(() => import('../features/library/pages/genre-page.tsx'), 'GenrePage'), v2: true },
  { path: '/favourites/:sort/?', page: page(() => import('../features/library/pages/favourites-page.tsx'), 'FavouritesPage'), v2: true },
  { path: '/discover', page: page(() => import('../features/library/pages/discover-page.tsx'), 'DiscoverPage'), v2: true },
  { path: '/playing/id/:id', page: page(() => import('../features/player/pages/playing-page.tsx'), 'PlayingPage'), v2: true },
  { path: '/playing', page: page(() => import('../features/player/pages/playing-page.tsx'), 'PlayingPage'), v2: true },
  { path: '/playlists/:sort/?', page: page(() => import('../features/library/pages/playlists-page.tsx'), 'PlaylistsPage'), v2: true },
  { path: '/playlist/:id', page: page(() => import('../features/library/pages/playlist-page.tsx'), 'PlaylistPage'), v2: true },
];

/** A route pattern of LAZY (`:param`, an optional trailing `/?`) as a regular expression. */
const routeRegex = (pattern: string) => new RegExp(`^${pattern.replace(/\/\?$/, '').replace(/:[^/]+/g, '[^/]+')}/?$`);

/**
 * Starts loading the page chunk for `pathname` (the address the app opens on), then, once the browser is idle, the
 * other screens' chunks, so that moving between screens does not wait for a download either. Resolves (never
 * rejects) when the first chunk is in or failed: the app shows its boot spinner until then rather than a Suspense
 * fallback that React would hold for ~300 ms after the page is ready.
 */
export function preloadRoute(pathname: string): Promise<void> {
  const first = LAZY.find((r) => routeRegex(r.path).test(pathname)) ?? OTHER_SCREENS.find((r) => r.pattern.test(pathname));
  const rest = () => {
    for (const r of [...OTHER_SCREENS, ...LAZY]) void r.page.preload().catch(() => undefined);
  };
  const idle = (fn: () => void) => (typeof requestIdleCallback === 'function' ? requestIdleCallback(fn, { timeout: 5000 }) : setTimeout(fn, 2000));
  const ready = (first?.page.preload() ?? Promise.resolve()).catch(() => undefined);
  void ready.then(() => idle(rest));
  return ready;
}

/** Pages of the spec's route table that later versions build; V2-only ones say so to V1 (§2, §6). */
const LATER: { path: string; title: string; v2?: boolean }[] = [
  { path: '/system', title: '系统设置', v2: true },
  { path: '/hello', title: '欢迎' },
  { path: '/test', title: '测试' },
  { path: '/xiaoMiQueue', title: '小爱播放队列', v2: true },
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

function Loading() {
  return <NonIdealState icon={<Spinner size={40} />} />;
}

function NotFound() {
  const t = useT();
  return <NonIdealState icon="search" title={t('页面不存在')} action={<Button icon="home" text={t('返回首页')} onClick={() => history.replaceState(null, '', '/')} />} />;
}

/** The signed-in routes, exactly the spec's route table. */
export function SignedInRoutes({ onOpenActivation }: { onOpenActivation: () => void }) {
  return (
    <Suspense fallback={<Loading />}>
      <Switch>
        <Route path="/">
          <FilesPage detail={false} />
        </Route>
        <Route path="/detail">
          <FilesPage detail />
        </Route>
        <Route path="/admin/*?">
          <Admin />
        </Route>
        <Route path="/mod">
          <V2Only onOpenActivation={onOpenActivation}>
            <Plugins kind="tag-source" />
          </V2Only>
        </Route>
        <Route path="/actionMod">
          <V2Only onOpenActivation={onOpenActivation}>
            <Plugins kind="batch-action" />
          </V2Only>
        </Route>
        <Route path="/log">
          <Log />
        </Route>
        <Route path="/log_detail/:id/">{(params) => <LogDetail key={params.id} id={params.id} />}</Route>
        <Route path="/library">
          <Redirect to="/albums/recently-added/" replace />
        </Route>
        {LAZY.map((r) => (
          <Route key={r.path} path={r.path}>
            {r.v2 ? (
              <V2Only onOpenActivation={onOpenActivation}>
                <r.page />
              </V2Only>
            ) : (
              <r.page />
            )}
          </Route>
        ))}
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
    </Suspense>
  );
}
