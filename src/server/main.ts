// Starts the server: configuration, database (migrations applied), app, admin socket, listen.
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { createContext } from './context.js';
import { buildApp } from './app.js';
import { createLogger } from './logger.js';
import { startAdminSocket } from './admin/admin-socket.js';
import { makeDataDirPrivate } from './lib/private-data-dir.js';
import { reachability } from './lib/reachability.js';

const SHUTDOWN_GRACE_MS = 10_000;

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger(config.LOG_LEVEL);
  makeDataDirPrivate(config.DATA_DIR);
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  const ctx = createContext(config, database, logger);
  const app = await buildApp(ctx);
  const admin = database.kind === 'pglite' ? await startAdminSocket(ctx) : null;

  const shutdown = async (signal: string) => {
    logger.info({ signal }, 'shutting down');
    // In-flight requests get a grace period; a client that stopped reading must not hold the exit.
    setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref();
    await app.close();
    await admin?.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  // The job queue starts once the app is ready, without holding the listen (decision 0075); should
  // it fail to start (a kind without a handler, a database refusing pg-boss), the server stops as
  // it did when that happened before the listen.
  ctx.background.started().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });

  // A worker runs jobs and schedules only: no HTTP port (PROCESS_ROLE, decision 0021).
  if (config.PROCESS_ROLE === 'worker') {
    await app.ready();
    await ctx.background.started();
    logger.info(
      { database: database.kind, role: 'worker' },
      'Social Media Toolkit worker is ready: running jobs, serving no HTTP',
    );
    return;
  }
  await app.listen({ port: config.PORT, host: config.HOST });
  // The start line says which security mode this is and who can reach it, so a misconfiguration is
  // visible at once (decisions 0007 and 0027).
  const mode = config.NODE_ENV;
  const billing = ctx.adapters.billing.testCheckout
    ? `TEST CHECKOUT (Pro without payment, only at ${config.publicUrl}${config.publicUrlIsLoopback ? ' from this machine' : ''})`
    : ctx.adapters.billing.provider
      ? 'PayPal'
      : 'unavailable';
  const transport = config.secureTransport ? 'Secure cookies + HSTS' : 'plain-http cookies, no HSTS';
  const reach = reachability(config);
  logger.info(
    {
      url: config.publicUrl,
      listen: `${config.HOST}:${config.PORT}`,
      reach,
      database: database.kind,
      role: config.PROCESS_ROLE,
      mode,
      secureCookies: config.secureTransport,
      hsts: config.secureTransport,
      billing,
    },
    `Social Media Toolkit is ready: ${mode} mode, ${transport}, billing ` +
      `${billing}${config.PROCESS_ROLE === 'web' ? ', web only (jobs run on workers)' : ''}; ${reach}`,
  );
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
