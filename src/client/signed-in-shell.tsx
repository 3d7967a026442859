// The signed-in app: sticky nav bar and every screen, with tooltips available to all of them.
import { Suspense } from 'react';
import { Route, Switch } from 'wouter';
import { NavBar } from './components/nav-bar';
import { TooltipProvider } from './components/ui/tooltip';
import { NotFoundPage } from './pages/not-found-page';
import { publicRoutes, signedInRoutes } from './routes';
import { PageFallback } from './components/page-fallback';

export default function SignedInShell() {
  return (
    <TooltipProvider>
      <NavBar />
      <Suspense fallback={<PageFallback />}>
        <Switch>
          {publicRoutes.map((r) => (
            <Route key={r.path} path={r.path} component={r.component} />
          ))}
          {signedInRoutes.map((r) => (
            <Route key={r.path} path={r.path} component={r.component} />
          ))}
          <Route component={NotFoundPage} />
        </Switch>
      </Suspense>
    </TooltipProvider>
  );
}
