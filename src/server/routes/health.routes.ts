import type { ZApp } from '../types.js';
import type { AppContext } from '../context.js';
import { healthResponse } from '../../shared/contracts/index.js';
import { fail } from '../errors.js';

export function healthRoutes(app: ZApp, ctx: AppContext) {
  app.get(
    '/api/health',
    { config: { errors: ['health.database'] }, schema: { response: { 200: healthResponse } } },
    async () => {
      try {
        await ctx.database.ping();
      } catch {
        throw fail('health.database');
      }
      return { status: 'ok' as const };
    },
  );
}
