// Signed-in screens, each loaded on demand so the signed-out landing page stays small.
// A feature adds its screen here; the nav items live in components/nav-items.ts.
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export interface AppRoute {
  path: string;
  component: LazyExoticComponent<ComponentType>;
}

export const signedInRoutes: AppRoute[] = [];

/** Screens anyone may open, signed in or out (e.g. published blog posts). */
export const publicRoutes: AppRoute[] = [
  { path: '/sign-in', component: lazy(() => import('./pages/sign-in-page')) },
];
