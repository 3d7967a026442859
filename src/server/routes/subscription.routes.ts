import type { ZApp } from '../app.js';
import type { AppContext } from '../context.js';
import { subscriptionStatusResponse } from '../../shared/contracts/index.js';
import { subscriptionStatusOf } from '../services/entitlements.service.js';

export function subscriptionRoutes(app: ZApp, ctx: AppContext) {
  app.get(
    '/api/subscription/status',
    { preHandler: ctx.guards.user, schema: { response: { 200: subscriptionStatusResponse } } },
    async (request) => subscriptionStatusOf(request.user!),
  );
}
