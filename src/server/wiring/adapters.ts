// What talks to the outside world, built once from configuration (tests hand in their own through
// the overrides): the guarded HTTP client, the sign-in provider, PayPal, the video platforms, the
// job queue on the database and the shared rate-limit counters.
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import { createOidcAdapter, type OidcAdapter } from '../adapters/oidc/oidc.adapter.js';
import { createBillingAdapters, type BillingAdapters } from '../adapters/paypal/index.js';
import { createHttpClient, type HttpClient } from '../adapters/http/index.js';
import { createJobQueue } from '../adapters/jobs/job-queue.js';
import { createRedisRateStore } from '../adapters/redis/redis-rate-store.js';
import { builtInPlatforms, createPlatformRegistry } from '../platforms/registry.js';
import type { Platform } from '../platforms/platform.js';
import { createPostgresStore, MemoryStore } from '../lib/rate-limiter.js';
import { openLater } from '../lib/background.js';
import type { Repositories } from './repositories.js';

export interface AdapterOverrides {
  oidc?: OidcAdapter | null;
  /** Billing provider (PayPal client, test checkout) and webhook verifier. */
  billing?: BillingAdapters;
  /** The guarded outbound HTTP client (tests may inject one with a fake DNS resolver). */
  http?: HttpClient;
  /** The platforms instead of the built-in list (a test adds a fake platform this way). */
  platforms?: (http: HttpClient) => Platform[];
}

export function createAdapters(
  config: Config,
  database: Database,
  repos: Repositories,
  logger: Logger,
  overrides: AdapterOverrides = {},
) {
  // Other sites must keep sending: below a floor, or past the deadline, a transfer is cut (0084).
  const http =
    overrides.http ??
    createHttpClient({
      hostMap: config.UPSTREAM_HOST_MAP,
      transferLimits: {
        minBytesPerSecond: config.UPSTREAM_MIN_KBPS * 1024,
        windowMs: config.UPSTREAM_STALL_SECONDS * 1000,
        deadlineMs: config.UPSTREAM_DEADLINE_SECONDS * 1000,
      },
    });
  // Jobs (issue 21): one queue on the database for media work, scheduled tasks and batch items. On
  // PGlite it starts after the server answers (decision 0075); what requests send meanwhile waits
  // until `queuesUp` opens, once every queue is declared.
  const queuesUp = openLater();
  const jobQueue = createJobQueue({
    connection: database.jobs,
    logger,
    maintenanceSeconds: config.JOBS_MAINTENANCE_SECONDS,
    gate: queuesUp.promise,
  });
  // Redis when configured; else nodes sharing PostgreSQL count in it; one PGlite node in memory.
  const redisLimits = config.REDIS_URL
    ? createRedisRateStore({ url: config.REDIS_URL, prefix: config.REDIS_PREFIX, logger })
    : null;
  return {
    http,
    // OIDC requests go through the guarded client too (the issuer's origin, decision 0017).
    oidc:
      overrides.oidc !== undefined
        ? overrides.oidc
        : config.oidc
          ? createOidcAdapter({ ...config.oidc, hostMap: config.UPSTREAM_HOST_MAP })
          : null,
    // PayPal's API gets an operator client of its configured origin (as do transcription and LLM);
    // certificate URLs named by webhook deliveries go through the shared guarded client.
    billing: overrides.billing ?? createBillingAdapters(config, http),
    platforms: createPlatformRegistry(overrides.platforms?.(http) ?? builtInPlatforms({ http, config })),
    jobQueue,
    queuesUp,
    redisLimits,
    rateLimitStore:
      redisLimits ?? (database.kind === 'postgres' ? createPostgresStore(repos.rateLimits) : new MemoryStore()),
  };
}
export type Adapters = ReturnType<typeof createAdapters>;
