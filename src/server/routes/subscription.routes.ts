// The Pro plan over HTTP: status, checkout, confirmation after the provider's redirect, cancel,
// and the built-in test checkout's approval page (only when PayPal is not configured).
import { guard } from '../plugins/route-errors.js';
import type { ErrorCode } from '../../shared/error-messages.js';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { signedInUser } from '../plugins/guards.js';
import type { ZApp } from '../types.js';
import type { RouteContext } from './route-context.js';
import {
  subscriptionCancelResponse,
  subscriptionConfirmRequest,
  subscriptionConfirmResponse,
  subscriptionCreateResponse,
  subscriptionStatusResponse,
} from '../../shared/contracts/index.js';
import { renderTestCheckoutPage } from './test-checkout.page.js';
import { acceptFormButtons } from '../plugins/form-posts.js';
import { fail } from '../errors.js';
import { isLoopbackAddress, siteOrigin } from '../lib/site-origin.js';

const checkoutParams = z.object({ id: z.string().regex(/^[A-Za-z0-9-]{1,64}$/, 'Unknown checkout.') });

export async function subscriptionRoutes(app: ZApp, ctx: RouteContext) {
  const billing = ctx.services.billing;
  // The test checkout grants Pro without payment: it answers only requests naming PUBLIC_URL's
  // host, and, when that is this machine, only requests from this machine (issue 31). The Host
  // header alone is the visitor's to choose; the peer address is not.
  const site = siteOrigin(ctx.config.publicUrl);
  const { publicUrl, publicUrlIsLoopback } = ctx.config;
  const testCheckoutHere = guard(['billing.test_checkout_elsewhere'], async (request: FastifyRequest) => {
    if (!billing.testCheckout.enabled) return;
    const fromHere = !publicUrlIsLoopback || isLoopbackAddress(request.socket.remoteAddress);
    if (!site.isOwnHost(request.headers.host) || !fromHere) {
      throw publicUrlIsLoopback
        ? fail('billing.test_checkout_elsewhere', { variant: 'loopback', url: publicUrl })
        : fail('billing.test_checkout_elsewhere', { url: publicUrl });
    }
  });
  const PROVIDER: ErrorCode[] = ['billing.unavailable', 'billing.provider_error', 'billing.rate_limited'];

  app.get(
    '/api/subscription/status',
    { preHandler: ctx.guards.user, config: { errors: [] }, schema: { response: { 200: subscriptionStatusResponse } } },
    async (request) => billing.status(signedInUser(request)),
  );

  app.post(
    '/api/subscription/create',
    {
      preHandler: [ctx.guards.user, testCheckoutHere],
      config: { errors: [...PROVIDER, 'billing.already_subscribed'] },
      schema: { response: { 200: subscriptionCreateResponse } },
    },
    async (request) => billing.create(signedInUser(request)),
  );

  app.post(
    '/api/subscription/confirm',
    {
      preHandler: ctx.guards.user,
      config: {
        errors: [
          ...PROVIDER,
          'billing.subscription_not_found',
          'billing.subscription_mismatch',
          'billing.subscription_inactive',
        ],
      },
      schema: { body: subscriptionConfirmRequest, response: { 200: subscriptionConfirmResponse } },
    },
    async (request) => billing.confirm(signedInUser(request), request.body.subscriptionId),
  );

  app.post(
    '/api/subscription/cancel',
    {
      preHandler: ctx.guards.user,
      config: { errors: [...PROVIDER, 'billing.no_subscription'] },
      schema: { response: { 200: subscriptionCancelResponse } },
    },
    async (request) => billing.cancel(signedInUser(request)),
  );

  // Test checkout: a page of this product standing in for PayPal's approval page. Its buttons are
  // plain forms (CSP allows no inline script) and redirect exactly as PayPal would.
  await app.register(async (scope: ZApp) => {
    acceptFormButtons(scope);
    scope.addHook('onRequest', testCheckoutHere);
    // The hook above answers before these routes run: its code is theirs too.
    const errors: ErrorCode[] = ['billing.checkout_not_found', 'billing.test_checkout_elsewhere'];
    scope.get(
      '/api/billing/test-checkout/:id',
      { config: { errors }, schema: { params: checkoutParams } },
      async (request, reply) => {
        const checkout = billing.testCheckout.view(request.params.id);
        return reply
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .send(renderTestCheckoutPage(checkout));
      },
    );
    scope.post(
      '/api/billing/test-checkout/:id/approve',
      { config: { errors }, schema: { params: checkoutParams } },
      async (request, reply) => reply.redirect(billing.testCheckout.approve(request.params.id), 303),
    );
    scope.post(
      '/api/billing/test-checkout/:id/cancel',
      { config: { errors }, schema: { params: checkoutParams } },
      async (request, reply) => reply.redirect(billing.testCheckout.abandon(request.params.id), 303),
    );
  });
}
