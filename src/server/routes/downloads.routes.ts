// The signed-in user's download history. Clearing hides it; the quota never comes back.
import type { ZApp } from '../types.js';
import { signedInUser } from '../plugins/guards.js';
import type { RouteContext } from './route-context.js';
import { clearDownloadsResponse, recentDownloadsResponse } from '../../shared/contracts/index.js';

export function downloadsRoutes(app: ZApp, ctx: RouteContext) {
  const { downloads } = ctx.services;
  app.get(
    '/api/downloads/recent',
    { preHandler: ctx.guards.user, config: { errors: [] }, schema: { response: { 200: recentDownloadsResponse } } },
    async (request) => downloads.recent(signedInUser(request).id),
  );
  app.delete(
    '/api/downloads',
    { preHandler: ctx.guards.user, config: { errors: [] }, schema: { response: { 200: clearDownloadsResponse } } },
    async (request) => downloads.clear(signedInUser(request).id),
  );
}
