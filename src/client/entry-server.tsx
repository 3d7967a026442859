// The first screens rendered to HTML (decision 0074): the server calls this once per screen and
// variant with the answers the screen's queries would get, and fills in per request only the
// session's few fields. Built by scripts/build.mjs into dist/ssr/entry-server.js.
import { renderToString } from 'react-dom/server';
import { prerender } from 'react-dom/static';
import { QueryClient } from '@tanstack/react-query';
import { queryOptions } from './lib/query-client';
import { Root } from './root';

/** A query's key and the answer the browser is seeded with, as in the page's JSON script. */
export type Seed = [queryKey: readonly unknown[], data: unknown];

function tree(path: string, seeds: Seed[]) {
  const client = new QueryClient({ defaultOptions: queryOptions });
  for (const [key, data] of seeds) client.setQueryData(key, data);
  return <Root client={client} ssrPath={path} />;
}

/** The HTML inside `#root` for `path` with the queries answered by `seeds`. */
export async function renderScreen(path: string, seeds: Seed[]): Promise<string> {
  // A first pass loads the lazy screens; the second renders with nothing left to wait for. A
  // boundary finished later would need React's inline script, which the CSP (rightly) refuses.
  await prerender(tree(path, seeds));
  const html = renderToString(tree(path, seeds));
  if (/<!--\$[?!]-->/.test(html)) throw new Error(`the first screen of ${path} still waits on something`);
  return html;
}
