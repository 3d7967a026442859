// The footer's pages (FAQ, Contact Us, Privacy Policy, Terms): public, the operator's texts or the defaults.
import type { ZApp } from '../types.js';
import type { RouteContext } from './route-context.js';
import { isSitePage, sitePage, sitePageParams } from '../../shared/contracts/index.js';
import { fail } from '../errors.js';

export function sitePagesRoutes(app: ZApp, ctx: RouteContext) {
  app.get(
    '/api/pages/:name',
    { config: { errors: ['not_found'] }, schema: { params: sitePageParams, response: { 200: sitePage } } },
    async (request) => {
      const { name } = request.params;
      if (!isSitePage(name)) throw fail('not_found');
      return ctx.services.sitePages.get(name);
    },
  );
}
