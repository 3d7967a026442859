// Sign-in: built-in email + password, or OpenID Connect when configured.
import { z } from 'zod';
import type { ZApp } from '../types.js';
import type { RouteContext } from './route-context.js';
import { authProviders, authSession, authUser, loginRequest, registerRequest } from '../../shared/contracts/index.js';
import { fail } from '../errors.js';
import { acceptFormButtons } from '../plugins/form-posts.js';
import { knownDevice, rememberDevice } from '../plugins/device-cookie.js';
import { toAuthUser } from '../services/entitlements.service.js';
import type { OidcLoginState } from '../services/oidc-login.service.js';

export function authRoutes(app: ZApp, ctx: RouteContext) {
  const { auth, oidcLogin } = ctx.services;
  // With an OpenID Connect provider, it alone signs people in.
  const oidc = oidcLogin !== null;

  app.get(
    '/api/auth/user',
    { config: { errors: ['auth.required'] }, schema: { response: { 200: authUser } } },
    async (request) => {
      const user = await ctx.guards.currentUser(request);
      if (!user) throw fail('auth.required', { variant: 'me' });
      return toAuthUser(user, ctx.config.ADMIN_EMAILS);
    },
  );

  // The client's "who am I": signed out is an answer (200, user null), not an error, so a visitor's
  // console shows no failed request (decision 0904). /api/auth/user keeps its founding 401 (decision 0092 'Calls').
  app.get(
    '/api/auth/session',
    { config: { errors: [] }, schema: { response: { 200: authSession } } },
    async (request, reply) => {
      const user = await ctx.guards.currentUser(request);
      reply.header('cache-control', 'no-store');
      return { user: user ? toAuthUser(user, ctx.config.ADMIN_EMAILS) : null };
    },
  );

  app.get(
    '/api/auth/providers',
    { config: { errors: [] }, schema: { response: { 200: authProviders } } },
    async () => ({
      local: !oidc,
      oidc: !!oidc,
    }),
  );

  app.post(
    '/api/auth/register',
    {
      config: { errors: ['auth.email_taken', 'auth.weak_password', 'auth.rate_limited', 'auth.local_disabled'] },
      schema: { body: registerRequest, response: { 201: authUser } },
    },
    async (request, reply) => {
      if (oidc) throw fail('auth.local_disabled');
      const user = await auth.register(request.body, request.ip);
      await request.session.regenerate({ userId: user.id });
      rememberDevice(request, reply, request.body.email, ctx.config.secureTransport);
      return reply.status(201).send(toAuthUser(user, ctx.config.ADMIN_EMAILS));
    },
  );

  app.post(
    '/api/auth/login',
    {
      config: { errors: ['auth.invalid_credentials', 'auth.rate_limited', 'auth.local_disabled'] },
      schema: { body: loginRequest, response: { 200: authUser } },
    },
    async (request, reply) => {
      // A device that signed in to this account before has a failure budget of its own (decision 0048).
      const user = await auth.login(request.body, request.ip, knownDevice(request, request.body.email));
      await request.session.regenerate({ userId: user.id });
      rememberDevice(request, reply, request.body.email, ctx.config.secureTransport);
      return toAuthUser(user, ctx.config.ADMIN_EMAILS);
    },
  );

  // Redirects (to the provider, or back to /sign-in with the reason): no error answers of their own.
  app.get('/api/login', { config: { errors: [] } }, async (request, reply) => {
    if (!oidcLogin) return reply.redirect('/sign-in');
    const started = await oidcLogin.start();
    if (!started) return reply.redirect('/sign-in?error=provider_unavailable');
    request.session.data.oidc = started.login;
    await request.session.save();
    return reply.redirect(started.url);
  });

  app.get(
    '/api/callback',
    { config: { errors: [] }, schema: { querystring: z.object({ error: z.string().optional() }).loose() } },
    async (request, reply) => {
      if (!oidcLogin) return reply.redirect('/sign-in');
      const login = request.session.data.oidc as OidcLoginState | undefined;
      delete request.session.data.oidc;
      const outcome = await oidcLogin.finish(new URL(request.url, ctx.config.publicUrl), login, request.query.error);
      if ('user' in outcome) {
        await request.session.regenerate({ userId: outcome.user.id });
        return reply.redirect('/');
      }
      if (request.session.id) await request.session.save();
      return reply.redirect(`/sign-in?error=${outcome.failed}`);
    },
  );

  // Signing out changes state, so it is a POST behind the Origin check; a GET (an old link, or a
  // cross-site image) only shows a page asking to confirm.
  app.register(async (scope: ZApp) => {
    acceptFormButtons(scope);
    scope.post('/api/logout', { config: { errors: [] } }, async (request, reply) => {
      await request.session.destroy();
      return reply.redirect('/', 303);
    });
  });
  app.get('/api/logout', { config: { errors: [] } }, async (_request, reply) =>
    reply.type('text/html').send(logoutConfirmPage),
  );
}

const logoutConfirmPage = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>Sign out - Social Media Toolkit</title></head>
<body style="font-family:system-ui,sans-serif;display:grid;place-items:center;min-height:90vh">
<form method="post" action="/api/logout" style="text-align:center"><h1 style="font-size:1.25rem">Sign out of Social Media Toolkit?</h1>
<button type="submit"
 style="font:inherit;padding:.5rem 1.25rem;border-radius:.375rem;border:1px solid #cbd5e1;background:#0f172a;color:#fff">
Sign out</button>
<p><a href="/">Stay signed in</a></p></form></body></html>`;
