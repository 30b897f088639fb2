import { useEffect, useState } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { Spinner } from '../components/ui/display.tsx';
import { NoticeToaster } from '../components/ui/toaster.tsx';
import { ActivationDialog } from '../features/auth/components/activation-dialog.tsx';
import { LoginPage } from '../features/auth/components/login-page.tsx';
import { checkSession, signOut } from '../features/auth/hooks/use-session-actions.ts';
import { AppShell } from '../features/shell/components/app-shell.tsx';
import { configureApiClient } from '../lib/api-client.ts';
import { useSession } from '../stores/session-store.ts';
import { preloadRoute, SignedInRoutes } from './routes.tsx';
import { ThemeSync } from './theme-sync.tsx';

/**
 * The app: the login screen alone on /login, everything else inside the shell once the logged-in check
 * passes (§1, §4). A 401 from any call (an expired session) sends the user back to login.
 */
export function App() {
  const [location, navigate] = useLocation();
  const status = useSession((s) => s.status);
  const [activationOpen, setActivationOpen] = useState(false);
  /** The opening address's page chunk is in (or failed): rendering waits for it, see preloadRoute. */
  const [routeReady, setRouteReady] = useState(location === '/login');

  useEffect(() => {
    configureApiClient({
      onUnauthorized: (path) => {
        if (path !== '/apimt/token/' && useSession.getState().status === 'signed-in') useSession.getState().signOut();
      },
    });
    // Arriving on login ends any session: the server clears its cookies (§4). The page's chunk loads meanwhile.
    if (location !== '/login') {
      void preloadRoute(location).then(() => setRouteReady(true));
      void checkSession();
    }
    else void signOut();
    // The check runs once, on shell load.
  }, []);

  const logout = async () => {
    await signOut();
    navigate('/login', { replace: true });
  };

  return (
    <>
      <ThemeSync />
      <NoticeToaster />
      <Switch>
        <Route path="/login">
          <LoginPage onSignedIn={async () => void (await checkSession())} />
        </Route>
        <Route>
          {status === 'signed-out' ? (
            <Redirect to="/login" replace />
          ) : status === 'signed-in' && routeReady ? (
            <AppShell onOpenActivation={() => setActivationOpen(true)} onLogout={() => void logout()}>
              <SignedInRoutes onOpenActivation={() => setActivationOpen(true)} />
            </AppShell>
          ) : (
            <div className="ts-boot">
              <Spinner />
            </div>
          )}
        </Route>
      </Switch>
      <ActivationDialog isOpen={activationOpen} onClose={() => setActivationOpen(false)} />
    </>
  );
}
