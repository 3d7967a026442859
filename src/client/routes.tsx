// Signed-in screens, each loaded on demand so the signed-out landing page stays small.
// A feature adds its screen here; the nav items live in components/nav-items.ts.
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export interface AppRoute {
  path: string;
  component: LazyExoticComponent<ComponentType>;
}

export const signedInRoutes: AppRoute[] = [
  { path: '/hashtag-generator', component: lazy(() => import('./pages/hashtag-generator-page')) },
  { path: '/content-tools', component: lazy(() => import('./pages/content-tools-page')) },
  { path: '/', component: lazy(() => import('./pages/downloader-page')) },
  { path: '/subscription', component: lazy(() => import('./pages/subscription-page')) },
  { path: '/blog', component: lazy(() => import('./pages/blog-page')) },
  { path: '/trending-videos', component: lazy(() => import('./pages/trending-videos-page')) },
  { path: '/trends', component: lazy(() => import('./pages/trends-page')) },
  { path: '/audio-extractor', component: lazy(() => import('./pages/audio-extractor-page')) },
  { path: '/auto-captions', component: lazy(() => import('./pages/auto-captions-page')) },
  { path: '/batch', component: lazy(() => import('./pages/batch-page')) },
];

// The footer's pages: one screen, the text by path.
const sitePage = lazy(() => import('./pages/site-page'));

/** Screens anyone may open, signed in or out (e.g. published blog posts). */
export const publicRoutes: AppRoute[] = [
  { path: '/sign-in', component: lazy(() => import('./pages/sign-in-page')) },
  { path: '/blog/:slug', component: lazy(() => import('./pages/blog-post-page')) },
  ...['/faq', '/contact', '/privacy', '/terms'].map((path) => ({ path, component: sitePage })),
];
