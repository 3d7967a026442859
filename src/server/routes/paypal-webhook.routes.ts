// POST /api/webhooks/paypal: the signature covers the exact bytes PayPal sent (CRC-32 of the raw
// body), so this scope keeps the body as a Buffer; other routes keep their JSON parser.
import { z } from 'zod';
import type { ZApp } from '../types.js';
import type { RouteContext } from './route-context.js';
import { fail } from '../errors.js';

const webhookHeaders = z
  .object({
    'paypal-transmission-id': z.string().max(200).optional(),
    'paypal-transmission-time': z.string().max(100).optional(),
    'paypal-transmission-sig': z.string().max(4096).optional(),
    'paypal-cert-url': z.string().max(2000).optional(),
    'paypal-auth-algo': z.string().max(100).optional(),
  })
  .loose();

export async function paypalWebhookRoutes(app: ZApp, ctx: RouteContext) {
  await app.register(async (scope: ZApp) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    scope.post(
      '/api/webhooks/paypal',
      {
        config: { errors: ['billing.webhook_invalid', 'billing.webhooks_unavailable'] },
        schema: { headers: webhookHeaders, response: { 200: z.object({ result: z.string() }) } },
      },
      async (request) => {
        const raw = request.body;
        if (!Buffer.isBuffer(raw) || raw.length === 0) throw fail('billing.webhook_invalid', { variant: 'empty' });
        const h = request.headers;
        return ctx.services.billing.handleWebhook(
          {
            transmissionId: h['paypal-transmission-id'],
            transmissionTime: h['paypal-transmission-time'],
            transmissionSig: h['paypal-transmission-sig'],
            certUrl: h['paypal-cert-url'],
            authAlgo: h['paypal-auth-algo'],
          },
          raw,
        );
      },
    );
  });
}
