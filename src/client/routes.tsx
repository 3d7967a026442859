// Signed-in screens, each loaded on demand so the signed-out landing page stays small.
// A feature adds its screen here; the nav items live in components/nav-items.ts.
import { lazyScreen, type LazyScreen } from './lib/lazy-screen';

export interface AppRoute {
  path: string;
  component: LazyScreen;
}

export const signedInRoutes: AppRoute[] = [
  { path: '/hashtag-generator', component: lazyScreen(() => import('./pages/hashtag-generator-page')) },
  { path: '/content-tools', component: lazyScreen(() => import('./pages/content-tools-page')) },
  { path: '/', component: lazyScreen(() => import('./pages/downloader-page')) },
  { path: '/subscription', component: lazyScreen(() => import('./pages/subscription-page')) },
  { path: '/blog', component: lazyScreen(() => import('./pages/blog-page')) },
  { path: '/trending-videos', component: lazyScreen(() => import('./pages/trending-videos-page')) },
  { path: '/trends', component: lazyScreen(() => import('./pages/trends-page')) },
  { path: '/audio-extractor', component: lazyScreen(() => import('./pages/audio-extractor-page')) },
  { path: '/auto-captions', component: lazyScreen(() => import('./pages/auto-captions-page')) },
  { path: '/batch', component: lazyScreen(() => import('./pages/batch-page')) },
  // Issue 47: from one link or caption project to a post ready for each target.
  { path: '/repost-kit', component: lazyScreen(() => import('./pages/repost-kit-page')) },
];

// The footer's pages: one screen, the text by path.
const sitePage = lazyScreen(() => import('./pages/site-page'));

/** Screens anyone may open, signed in or out (e.g. published blog posts). */
export const publicRoutes: AppRoute[] = [
  { path: '/sign-in', component: lazyScreen(() => import('./pages/sign-in-page')) },
  { path: '/blog/:slug', component: lazyScreen(() => import('./pages/blog-post-page')) },
  ...['/faq', '/contact', '/privacy', '/terms'].map((path) => ({ path, component: sitePage })),
];
