import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { queryClient } from './lib/query-client';
import { Root } from './root';
import { loadFirstScreen } from './app';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// A first screen the server sent ready (decision 0074) carries the answers it was rendered with:
// seeded into the query cache, the first render matches the HTML and React hydrates it. Any other
// page (the plain shell, or a shell opened offline at another path) is rendered here.
const boot = document.getElementById('first-screen');
const seeded = boot?.textContent
  ? (JSON.parse(boot.textContent) as { path: string; seeds: [unknown[], unknown][] })
  : null;
if (seeded && seeded.path === window.location.pathname) {
  for (const [key, data] of seeded.seeds) queryClient.setQueryData(key, data);
  const signedIn = !!queryClient.getQueryData(['/api/auth/user']);
  // Its screens' chunks are preloaded by the page: this waits for them to run, not to download.
  // As a transition, hydration yields to the browser every few milliseconds instead of holding the
  // main thread in one long task; input meanwhile makes React hydrate at once (decision 0078).
  void loadFirstScreen(seeded.path, signedIn).then(() =>
    startTransition(() => {
      hydrateRoot(root, <Root client={queryClient} />);
    }),
  );
} else {
  root.textContent = '';
  createRoot(root).render(<Root client={queryClient} />);
}

// Installable app (manifest + share target): the service worker caches the app shell only.
if ('serviceWorker' in navigator && window.isSecureContext) {
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {
      /* not installable here (e.g. blocked by the browser); the site works the same */
    });
  });
}
