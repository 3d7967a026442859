import type { ZApp } from '../types.js';
import type { RouteContext } from './route-context.js';
import { healthResponse } from '../../shared/contracts/index.js';
import { fail } from '../errors.js';

export function healthRoutes(app: ZApp, ctx: RouteContext) {
  app.get(
    '/api/health',
    { config: { errors: ['health.database'] }, schema: { response: { 200: healthResponse } } },
    async () => {
      try {
        await ctx.services.health.ping();
      } catch {
        throw fail('health.database');
      }
      return { status: 'ok' as const };
    },
  );
}
