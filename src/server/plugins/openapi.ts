// The API is the product's second interface: its OpenAPI 3 description, generated from the same
// zod contracts the routes validate with, is served at GET /api/docs.
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

export async function registerOpenApi(app: FastifyInstance, opts: { publicUrl: string }): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Social Media Toolkit API',
        version: '1',
        description:
          'Errors are `{ message, code }` with a dotted code (e.g. `video.private`, `quota.exhausted`, `billing.pro_required`). ' +
          'Signed-in calls use the `smt.sid` session cookie; state-changing calls need an Origin of this site.',
      },
      servers: [{ url: opts.publicUrl }],
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'smt.sid' } } },
    },
    transform: jsonSchemaTransform,
  });
  app.get('/api/docs', { schema: { hide: true } }, async () => app.swagger());
}
