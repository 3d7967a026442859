// Builds the Fastify app: security, sessions, routes, static client. No listening here.
import path from 'node:path';
import fs from 'node:fs';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from './context.js';
import { registerSessions } from './plugins/session.js';
import { clientErrors, registerErrorHandler, routerErrors } from './plugins/error-handler.js';
import { registerOriginGuard } from './plugins/origin-guard.js';
import { registerRequestLog } from './plugins/request-log.js';
import { limitConnectionsPerIp, registerNulGuard } from './plugins/input-guards.js';
import { registerRoutes } from './routes/index.js';
import { registerClientFiles } from './plugins/client-files.js';
import { registerOpenApi } from './plugins/openapi.js';
import { toAuthUser } from './services/entitlements.service.js';

const REQUEST_TIMEOUT_MS = 20_000;

export async function buildApp(ctx: AppContext, opts: { clientDir?: string } = {}): Promise<FastifyInstance> {
  const app: FastifyInstance = Fastify({
    loggerInstance: ctx.logger as FastifyBaseLogger,
    // One line per request comes from plugins/request-log.ts instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: ctx.config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    // A request (headers and body) must arrive within this; Node checks every 30 s, so a body
    // trickled a byte at a time is cut off within a minute.
    requestTimeout: REQUEST_TIMEOUT_MS,
    genReqId: () => crypto.randomUUID(),
    // Refusals made before any route runs answer in the error envelope too (issue 31).
    frameworkErrors: routerErrors,
    clientErrorHandler: clientErrors,
  });
  // Node applies the larger of the two limits to a request still arriving: lower both.
  app.server.headersTimeout = REQUEST_TIMEOUT_MS;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerRequestLog(app);
  registerErrorHandler(app);
  registerNulGuard(app);
  if (!ctx.config.TRUST_PROXY && ctx.config.CONNECTIONS_PER_IP > 0)
    limitConnectionsPerIp(app.server, ctx.config.CONNECTIONS_PER_IP);

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // The caption studio's preview runs libass as WebAssembly (JASSUB): compiling it needs this.
        scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        // Images from elsewhere come through the product (services/image-relay.ts): a page view
        // tells no third party who looked.
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: ctx.config.secureTransport ? [] : null,
      },
    },
    // The inline preview plays media served by this product; keep cross-origin isolation off.
    crossOriginEmbedderPolicy: false,
    // Forms post to this site (sign out, the test checkout); with no-referrer they carry
    // `Origin: null` and the Origin check refuses them. Other sites still get no referrer.
    referrerPolicy: { policy: 'same-origin' },
    hsts: ctx.config.secureTransport,
  });
  await app.register(cookie, { secret: ctx.config.sessionSecret });
  registerSessions(app, { repo: ctx.repos.sessions, secure: ctx.config.secureTransport });
  registerOriginGuard(app, {
    publicUrl: ctx.config.publicUrl,
    exempt: ['/api/webhooks/'],
    loopbackPeersOnly: ctx.config.publicUrlIsLoopback,
  });
  app.decorateRequest('user', null);

  await registerOpenApi(app, { publicUrl: ctx.config.publicUrl });
  const clientDir = opts.clientDir ?? path.resolve('dist/client');
  await registerRoutes(app.withTypeProvider<ZodTypeProvider>(), ctx, { clientDir });

  if (fs.existsSync(path.join(clientDir, 'index.html'))) {
    // The signed-in first screen shows the user's plan and downloads (decision 0074).
    registerClientFiles(app, clientDir, {
      readSession: async (request) => {
        const user = await ctx.guards.currentUser(request);
        if (!user) return null;
        return { user: toAuthUser(user, ctx.config.ADMIN_EMAILS), status: await ctx.services.billing.status(user) };
      },
    });
  } else {
    app.decorateReply('sendFile', function () {
      return this.status(503).type('text/plain').send('The web client is not built. Run `npm run build`.');
    });
  }

  // The job queue and what else is deferred start just after this, while the server answers
  // (decision 0075); main.ts watches ctx.background.started().
  app.addHook('onReady', () => ctx.background.start());
  app.addHook('onClose', () => ctx.background.stop());
  return app;
}
