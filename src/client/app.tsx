import { lazy, Suspense } from 'react';
import { lazyScreen } from './lib/lazy-screen';
import { Route, Switch } from 'wouter';
import { useAuth } from './hooks/use-auth';
import { useToast } from './hooks/use-toast';
import { PublicHeader } from './components/public-header';
import { LandingPage } from './pages/landing-page';
import { NotFoundPage } from './pages/not-found-page';
import { publicRoutes, signedInRoutes } from './routes';
import { APP_PATHS } from '@shared/client-paths';
import { PageFallback } from './components/page-fallback';

// Everything a signed-in person needs (nav bar, tooltips, screens) loads on demand, so the
// signed-out landing page ships only React, the router, the query client and itself.
const SignedInShell = lazyScreen(() => import('./signed-in-shell'));
const Toaster = lazy(() => import('./components/ui/toaster'));
const SignInToUsePage = lazy(() => import('./pages/sign-in-to-use-page'));

export function App() {
  const { isAuthenticated, isLoading } = useAuth();
  // The toast UI is loaded with the first toast.
  const hasToasts = useToast().toasts.length > 0;
  return (
    <div className="min-h-screen">
      {isLoading ? (
        <PageFallback />
      ) : isAuthenticated ? (
        <Suspense fallback={<PageFallback />}>
          <SignedInShell />
        </Suspense>
      ) : (
        <>
          <PublicHeader />
          <Suspense fallback={<PageFallback />}>
            <Switch>
              <Route path="/" component={LandingPage} />
              {publicRoutes.map((r) => (
                <Route key={r.path} path={r.path} component={r.component} />
              ))}
              {APP_PATHS.filter((a) => a.path !== '/').map((a) => (
                <Route key={a.path} path={a.path} component={SignInToUsePage} />
              ))}
              <Route component={NotFoundPage} />
            </Switch>
          </Suspense>
        </>
      )}
      {hasToasts && (
        <Suspense fallback={null}>
          <Toaster />
        </Suspense>
      )}
    </div>
  );
}

/** Loads the screens a first screen sent ready shows, so it hydrates in one pass (decision 0074). */
export function loadFirstScreen(path: string, signedIn: boolean): Promise<unknown> {
  const routes = signedIn ? [...publicRoutes, ...signedInRoutes] : publicRoutes;
  return Promise.all([
    ...(signedIn ? [SignedInShell.load()] : []),
    ...routes.filter((r) => r.path === path).map((r) => r.component.load()),
  ]);
}
