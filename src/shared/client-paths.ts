// The client's routes as plain data, shared by the server (HTTP 200 for a known client route,
// 404 for anything else) and the client (routes.tsx, the signed-out "Sign in to use …" screens).
// A new screen adds its path here and in src/client/routes.tsx; a unit test keeps the two equal.

export interface AppPath {
  path: string;
  /** What a signed-out visitor is asked to sign in to use. */
  name: string;
}

/** Screens for signed-in people. */
export const APP_PATHS: AppPath[] = [
  { path: '/', name: 'the downloader' },
  { path: '/blog', name: 'the blog' },
  { path: '/trending-videos', name: 'Trending Videos' },
  { path: '/hashtag-generator', name: 'the hashtag generator' },
  { path: '/audio-extractor', name: 'the audio extractor' },
  { path: '/auto-captions', name: 'Auto Captions' },
  { path: '/content-tools', name: 'the content tools' },
  { path: '/trends', name: 'Trends' },
  { path: '/batch', name: 'Batch Download' },
  { path: '/repost-kit', name: 'the repost kit' },
  { path: '/subscription', name: 'your subscription' },
];

/** Screens anyone may open (wouter patterns: `:name` is one path segment). */
export const PUBLIC_PATHS = ['/sign-in', '/blog/:slug', '/faq', '/contact', '/privacy', '/terms'] as const;

function matches(pattern: string, pathname: string): boolean {
  const p = pattern.split('/');
  const s = pathname.split('/');
  return p.length === s.length && p.every((part, i) => (part.startsWith(':') ? s[i] !== '' : part === s[i]));
}

/** True when the client has a screen for this path (query string and trailing slash ignored). */
export function isClientPath(url: string): boolean {
  let pathname = url.split(/[?#]/, 1)[0] || '/';
  if (pathname.length > 1) pathname = pathname.replace(/\/$/, '');
  return [...APP_PATHS.map((a) => a.path), ...PUBLIC_PATHS].some((pattern) => matches(pattern, pathname));
}
