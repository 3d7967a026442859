// The app's tree, the same in the browser (main.tsx) and in the first screens' server render
// (entry-server.tsx), so hydration finds what the server wrote (decision 0074).
import { StrictMode, useEffect } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { Router } from 'wouter';
import { App } from './app';

/** Marks the page as answering input (`<html data-ready>`): a first screen is on view before that. */
function Ready() {
  useEffect(() => {
    document.documentElement.dataset.ready = 'true';
  }, []);
  return null;
}

export function Root({ client, ssrPath }: { client: QueryClient; ssrPath?: string }) {
  return (
    <StrictMode>
      <QueryClientProvider client={client}>
        <Router ssrPath={ssrPath}>
          <App />
          <Ready />
        </Router>
      </QueryClientProvider>
    </StrictMode>
  );
}
