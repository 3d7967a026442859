import { Suspense } from 'react';
import { Route, Switch } from 'wouter';
import { useAuth } from './hooks/use-auth';
import { NavBar } from './components/nav-bar';
import { LandingPage } from './pages/landing-page';
import { NotFoundPage } from './pages/not-found-page';
import { publicRoutes, signedInRoutes } from './routes';
import { Spinner } from './components/ui/spinner';

function PageFallback() {
  return (
    <div className="flex min-h-[50vh] items-center justify-center">
      <Spinner />
    </div>
  );
}

export function App() {
  const { isAuthenticated, isLoading } = useAuth();
  if (isLoading) return <PageFallback />;
  return (
    <div className="min-h-screen">
      <NavBar />
      <Suspense fallback={<PageFallback />}>
        <Switch>
          {publicRoutes.map((r) => (
            <Route key={r.path} path={r.path} component={r.component} />
          ))}
          {isAuthenticated ? (
            signedInRoutes.map((r) => <Route key={r.path} path={r.path} component={r.component} />)
          ) : (
            <Route path="/" component={LandingPage} />
          )}
          <Route component={NotFoundPage} />
        </Switch>
      </Suspense>
    </div>
  );
}
