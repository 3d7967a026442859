// The API is the product's second interface: its OpenAPI 3 description, generated from the same
// zod contracts the routes validate with, is served at GET /api/docs.
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { errorResponses } from './openapi-errors.js';

export async function registerOpenApi(app: FastifyInstance, opts: { publicUrl: string }): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Social Media Toolkit API',
        version: '1',
        description:
          'Errors are `{ message, code, params? }` with a dotted code; each operation lists its error statuses and codes ' +
          '(e.g. `video.private`, `quota.exhausted`, `billing.pro_required`). ' +
          'Signed-in calls use the `smt.sid` session cookie; state-changing calls need an Origin of this site.',
      },
      servers: [{ url: opts.publicUrl }],
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'smt.sid' } } },
    },
    // The zod contracts, plus each route's error answers (openapi-errors.ts).
    transform: (args) => {
      const out = jsonSchemaTransform(args);
      const schema = (out.schema ?? {}) as { hide?: boolean; response?: Record<string, unknown> };
      if (schema.hide) return out;
      const errors = errorResponses(args.route);
      return { ...out, schema: { ...schema, response: { ...schema.response, ...errors } } };
    },
  });
  // A route says what it may answer where it is defined (plugins/route-errors.ts): one that does not
  // stops the start, so the description cannot fall behind the routes.
  app.addHook('onRoute', (route) => {
    const hidden = (route.schema as { hide?: boolean } | undefined)?.hide;
    if (route.url.startsWith('/api') && !hidden && !route.config?.errors)
      throw new Error(
        `${route.method} ${route.url} declares no error answers (config.errors, plugins/route-errors.ts)`,
      );
  });
  app.get('/api/docs', { schema: { hide: true } }, async () => app.swagger());
}
