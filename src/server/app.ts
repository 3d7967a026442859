// Builds the Fastify app: security, sessions, routes, static client. No listening here.
import path from 'node:path';
import fs from 'node:fs';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from './context.js';
import { registerSessions } from './plugins/session.js';
import { clientErrors, registerErrorHandler, routerErrors } from './plugins/error-handler.js';
import { registerOriginGuard } from './plugins/origin-guard.js';
import { registerRequestLog } from './plugins/request-log.js';
import { limitConnectionsPerIp, registerNulGuard } from './plugins/input-guards.js';
import { registerRoutes } from './routes/index.js';
import { registerOpenApi } from './plugins/openapi.js';

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
  registerOriginGuard(app, { publicUrl: ctx.config.publicUrl, exempt: ['/api/webhooks/'] });
  app.decorateRequest('user', null);

  await registerOpenApi(app, { publicUrl: ctx.config.publicUrl });
  const clientDir = opts.clientDir ?? path.resolve('dist/client');
  await registerRoutes(app.withTypeProvider<ZodTypeProvider>(), ctx, { clientDir });

  if (fs.existsSync(path.join(clientDir, 'index.html'))) {
    await app.register(fastifyStatic, {
      root: clientDir,
      wildcard: false,
      index: ['index.html'],
      // scripts/precompress.mjs wrote .br and .gz copies at build time: sent as they are.
      preCompressed: true,
      setHeaders(res, file) {
        res.header('vary', 'accept-encoding');
        // Hashed assets are immutable; index.html must always be revalidated.
        res.header(
          'cache-control',
          file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  } else {
    app.decorateReply('sendFile', function () {
      return this.status(503).type('text/plain').send('The web client is not built. Run `npm run build`.');
    });
  }

  app.addHook('onReady', async () => {
    for (const job of ctx.background) await job.start();
  });
  app.addHook('onClose', async () => {
    for (const job of [...ctx.background].reverse()) await job.stop();
  });
  return app;
}
