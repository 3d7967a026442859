// The composition root: builds repositories, adapters and services once, from configuration,
// and hands them to the routes. Tests build the same context with their own database and fakes.
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import { createUsersRepository } from './db/repositories/users.repository.js';
import { createSessionsRepository } from './db/repositories/sessions.repository.js';
import { createAuthService } from './services/auth.service.js';
import { createAdminService } from './services/admin.service.js';
import { createOidcLoginService } from './services/oidc-login.service.js';
import { createRateLimits } from './lib/rate-limits.js';
import { createPostgresStore, MemoryStore } from './lib/rate-limiter.js';
import { createRedisRateStore } from './adapters/redis/redis-rate-store.js';
import { createRateLimitsRepository } from './db/repositories/rate-limits.repository.js';
import { createPreviewService } from './services/preview.service.js';
import { createRemuxService } from './services/remux.service.js';
import { createPhotoPostService } from './services/photo-post.service.js';
import { createGuards } from './plugins/guards.js';
import { createOidcAdapter, type OidcAdapter } from './adapters/oidc/oidc.adapter.js';
import { createMediaResultsRepository } from './db/repositories/media-results.repository.js';
import { createMediaFeature } from './services/media-feature.js';
import type { MediaSource } from './services/media-source.js';
import { createBatchesRepository } from './db/repositories/batches.repository.js';
import { createBatchService } from './services/batch.service.js';
import { createJobQueue } from './adapters/jobs/job-queue.js';
import { createJobs } from './jobs/dispatcher.js';
import type { JobKind } from './jobs/catalogue.js';
import { createScheduleRunsRepository } from './db/repositories/schedule-runs.repository.js';
import { createSchedules } from './services/schedules.service.js';
import { createPlatformMediaSource } from './services/platform-media-source.js';
import type { TranscriptionEngine } from './adapters/asr/types.js';
import { createBillingRepository } from './db/repositories/billing.repository.js';
import { createBillingAdapters, type BillingAdapters } from './adapters/paypal/index.js';
import { createBillingService } from './services/billing.service.js';
import { createHttpClient, type HttpClient } from './adapters/http/index.js';
import { builtInPlatforms, createPlatformRegistry } from './platforms/registry.js';
import type { FetchedVideo, Platform } from './platforms/platform.js';
import { createVideoService } from './services/video.service.js';
import { createDownloadsRepository } from './db/repositories/downloads.repository.js';
import { createQuotaService } from './services/quota.service.js';
import { createDownloadService } from './services/download.service.js';
import { createBlogPostsRepository } from './db/repositories/blog-posts.repository.js';
import { createTrendingVideosRepository } from './db/repositories/trending-videos.repository.js';
import { createBlogService } from './services/blog.service.js';
import { createTrendingVideosService } from './services/trending-videos.service.js';
import { createImageRelay, relaySigner } from './services/image-relay.js';
import { createSitePages } from './services/site-pages.service.js';
import { createTrendsRepository } from './db/repositories/trends.repository.js';
import { trendsHttpFrom } from './adapters/trends/guarded-http.js';
import { createTikTokOneAdapter } from './adapters/trends/tiktok-one.adapter.js';
import { createFeedsAdapter } from './adapters/trends/feeds.adapter.js';
import { createTrendsAnalysisService } from './services/trends-analysis.service.js';
import { createTrendsCollectors, collectorsConfigFrom } from './services/trends-collectors.service.js';
import { createObservationRecorder } from './services/trends-observations.service.js';
import { createHashtagObservationsRepository } from './db/repositories/hashtag-observations.repository.js';
import { createTextToolsFeature } from './services/text-tools.feature.js';
import { createTextWork, defaultTextWorkers } from './text-work/pool.js';
import type { LlmClient } from './adapters/llm/openai-chat.adapter.js';
import { createCaptionProjectsRepository } from './db/repositories/caption-projects.repository.js';
import { openLater, runBackground, type BackgroundTask } from './lib/background.js';
import { withUploads } from './services/caption-studio/upload-media-source.js';
import { createCaptionStudioFeature } from './services/caption-studio/caption-studio.feature.js';

export interface ContextOverrides {
  oidc?: OidcAdapter | null;
  /** Audio/captions: the video platform and the transcription engines (tests). */
  mediaSource?: MediaSource;
  transcriptionEngines?: TranscriptionEngine[];
  /** Billing provider (PayPal client, test checkout) and webhook verifier. */
  billing?: BillingAdapters;
  /** The guarded outbound HTTP client (tests may inject one with a fake DNS resolver). */
  http?: HttpClient;
  /** Hashtags and captions: the language model client (null = built-in engine only). */
  llm?: LlmClient | null;
  /** The platforms instead of the built-in list (a test adds a fake platform this way). */
  platforms?: (http: HttpClient) => Platform[];
  /** Media job kinds declared on top of the catalogue (tests register their handlers after the start). */
  testJobKinds?: Record<string, JobKind>;
}

export function createContext(config: Config, database: Database, logger: Logger, overrides: ContextOverrides = {}) {
  const db = database.db;
  const repos = {
    users: createUsersRepository(db),
    sessions: createSessionsRepository(db),
    downloads: createDownloadsRepository(db),
    mediaResults: createMediaResultsRepository(db),
    billing: createBillingRepository(db),
    blogPosts: createBlogPostsRepository(db),
    trendingVideos: createTrendingVideosRepository(db),
    trends: createTrendsRepository(db),
    hashtagObservations: createHashtagObservationsRepository(db),
    scheduleRuns: createScheduleRunsRepository(db),
    batches: createBatchesRepository(db),
    captionProjects: createCaptionProjectsRepository(db),
  };
  const http = overrides.http ?? createHttpClient({ hostMap: config.UPSTREAM_HOST_MAP });
  const adapters = {
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
    http,
  };
  // Downloader (issue 3): lookups on every registered platform (cached) and media; observers get
  // each freshly fetched video.
  const platforms = createPlatformRegistry(
    overrides.platforms?.(adapters.http) ?? builtInPlatforms({ http: adapters.http }),
  );
  const video = createVideoService({ platforms, observers: () => videoObservers, logger });
  const quota = createQuotaService({ downloads: repos.downloads });
  // The caption studio's uploads (`upload:<id>`) are a source too, so transcription reads them as links.
  const mediaSource = withUploads(overrides.mediaSource ?? createPlatformMediaSource(() => video), {
    repo: () => repos.captionProjects,
    results: () => mediaFeature.results,
  });
  // Jobs (issue 21): one queue on the database for media work, scheduled tasks and batch items.
  // On PGlite it starts after the server answers (decision 0075); what requests send meanwhile waits.
  const queuesUp = openLater();
  const jobs = createJobQueue({
    connection: database.jobs,
    logger,
    maintenanceSeconds: config.JOBS_MAINTENANCE_SECONDS,
    gate: queuesUp.promise,
  });
  // The catalogue's dispatcher for batch items and scheduled turns (media kinds: mediaFeature.jobs).
  const dispatcher = createJobs({
    queue: jobs,
    limits: { media: config.MEDIA_TIMEOUT_SECONDS, batchItem: config.BATCH_ITEM_TIMEOUT_SECONDS },
  });
  const mediaFeature = createMediaFeature(config, {
    repo: repos.mediaResults,
    source: mediaSource,
    queue: jobs,
    logger,
    engines: overrides.transcriptionEngines,
    testKinds: overrides.testJobKinds,
  });
  // Caption studio (issue 29): uploads, projects, burn-in renders.
  const studio = createCaptionStudioFeature(config, {
    repo: repos.captionProjects,
    media: mediaFeature,
    source: mediaSource,
    logger,
  });
  // Trends (issue 7): analysis from stored data; collectors fetch through the guarded client.
  const trendsHttp = trendsHttpFrom(adapters.http);
  const trendsAnalysis = createTrendsAnalysisService({ repo: repos.trends, logger });
  const trendsCollectors = createTrendsCollectors({
    repo: repos.trends,
    tiktokOne: createTikTokOneAdapter(trendsHttp, { timeoutMs: config.TRENDS_FETCH_TIMEOUT_SECONDS * 1000 }),
    feeds: createFeedsAdapter(trendsHttp, { timeoutMs: config.TRENDS_FETCH_TIMEOUT_SECONDS * 1000 }),
    config: collectorsConfigFrom(config),
    logger,
    onData: () => trendsAnalysis.invalidate(),
  });
  const trendsObservations = createObservationRecorder({ repo: repos.trends, logger });
  // Hashtags and content optimiser (issue 6): built-in engine, language model when configured.
  // NLP and Markdown in worker threads with a time budget (issue 34), shared by text tools and blog.
  const textWork = createTextWork({
    threads: config.TEXT_WORKERS ?? defaultTextWorkers(),
    budgetMs: config.TEXT_WORK_BUDGET_MS,
    imageSecret: config.sessionSecret,
  });
  const textTools = createTextToolsFeature(
    config,
    { observations: repos.hashtagObservations, logger, text: textWork },
    { llm: overrides.llm },
  );
  // Redis when configured; else nodes sharing PostgreSQL count in it; one PGlite node in memory.
  const redisLimits = config.REDIS_URL
    ? createRedisRateStore({ url: config.REDIS_URL, prefix: config.REDIS_PREFIX, logger })
    : null;
  const limits = createRateLimits(
    config,
    redisLimits ??
      (database.kind === 'postgres' ? createPostgresStore(createRateLimitsRepository(db)) : new MemoryStore()),
  );
  const auth = createAuthService({
    users: repos.users,
    limits,
  });
  const remux = createRemuxService({
    video,
    media: mediaFeature.media,
    results: mediaFeature.results,
    jobs: mediaFeature.jobs,
  });
  const photos = createPhotoPostService({
    video,
    media: mediaFeature.media,
    results: mediaFeature.results,
    jobs: mediaFeature.jobs,
  });
  const batch = createBatchService({
    repo: repos.batches,
    jobs: dispatcher,
    video,
    remux,
    photos,
    media: mediaFeature.media,
    results: mediaFeature.results,
    secret: config.sessionSecret,
    ttlMs: config.MEDIA_RESULT_TTL_HOURS * 3_600_000,
    concurrency: mediaFeature.media.config.concurrency ?? 1,
    logger,
  });
  const imageRelay = createImageRelay({ secret: config.sessionSecret, http: adapters.http });
  const services = {
    auth,
    oidcLogin: adapters.oidc
      ? createOidcLoginService({ oidc: adapters.oidc, auth, callbackUrl: `${config.publicUrl}/api/callback`, logger })
      : null,
    admin: createAdminService({ users: repos.users, adminEmails: config.ADMIN_EMAILS }),
    video,
    quota,
    downloads: createDownloadService({ video, quota, remux, photos, downloads: repos.downloads, logger }),
    batch,
    mediaResults: mediaFeature.results,
    mediaJobs: mediaFeature.jobs,
    preview: createPreviewService({
      video,
      media: mediaFeature.media,
      results: mediaFeature.results,
      jobs: mediaFeature.jobs,
    }),
    audio: mediaFeature.audio,
    transcription: mediaFeature.transcription,
    captionProjects: studio.projects,
    studioUploads: studio.uploads,
    billing: createBillingService({
      billing: repos.billing,
      users: repos.users,
      ...adapters.billing,
      publicUrl: config.publicUrl,
      logger,
      limiter: limits.billingCallsPerUser,
    }),
    blog: createBlogService({
      posts: repos.blogPosts,
      images: imageRelay,
      text: textWork,
      imageKeyId: relaySigner(config.sessionSecret)('key id').slice(0, 8),
    }),
    trendingVideos: createTrendingVideosService({
      videos: repos.trendingVideos,
      adminEmails: config.ADMIN_EMAILS,
      images: imageRelay,
    }),
    imageRelay,
    sitePages: createSitePages({
      dir: config.SITE_PAGES_DIR,
      contactEmail: config.CONTACT_EMAIL,
      mediaResultHours: config.MEDIA_RESULT_TTL_HOURS,
      imageSrc: imageRelay.link,
    }),
    trendsAnalysis,
    trendsCollectors,
    trendsObservations,
    hashtags: textTools.hashtags,
    content: textTools.content,
  };
  const guards = createGuards({ users: repos.users, adminEmails: config.ADMIN_EMAILS });
  /**
   * Called with every freshly fetched video (downloader lookups); the trends feature records what
   * the video's platform observes of it (Platform.observe). Must not throw or block.
   */
  const videoObservers: Array<(video: FetchedVideo) => void> = [];
  if (adapters.billing.note) logger.warn(adapters.billing.note);
  videoObservers.push((v) => trendsObservations.record(platforms.get(v.ref.platform), v));
  // Scheduled work: once per interval across all nodes, run by nodes that work jobs.
  const schedules = createSchedules({ jobs: dispatcher, queue: jobs, runs: repos.scheduleRuns, logger });
  schedules.add(mediaFeature.cleanupTask);
  schedules.add(services.billing.reconciliationTask);
  schedules.add({ name: 'sessions-prune', intervalMs: 3600_000, run: () => repos.sessions.pruneExpired() });
  for (const task of trendsCollectors.tasks) schedules.add(task);
  schedules.add(batch.expiryTask);
  schedules.add(studio.uploads.cleanupTask);
  /**
   * Started with the server and stopped on close, in this order (stopped in reverse); `deferred`
   * ones start after the server is ready, without holding it (lib/background.ts, decision 0075).
   */
  const background: BackgroundTask[] = [
    { name: 'redis', start: () => redisLimits?.ready(5_000), stop: async () => redisLimits?.close() },
    {
      name: 'jobs',
      // On PostgreSQL other nodes may be starting too: pg-boss creating a queue while another node
      // sends to one can deadlock, so there the queue is up before this node answers, as before.
      deferred: database.kind === 'pglite',
      start: async () => {
        const work = config.PROCESS_ROLE !== 'web';
        try {
          await jobs.start();
          // Every queue declared (and worked here unless web-only); each kind's handler checked first.
          await dispatcher.start(work);
          await mediaFeature.jobs.start(work);
        } catch (err) {
          queuesUp.fail(err);
          throw err;
        }
        // Jobs sent while the queues were being declared go out now; the schedules send through it.
        queuesUp.open();
        await schedules.start();
      },
      stop: () => jobs.stop(),
    },
    { name: 'http-client', start() {}, stop: () => adapters.http.close() },
    { name: 'text-work', start() {}, stop: () => textWork.close() },
    {
      // Posts stored by an older renderer (or before rendering on save) are rendered once, after the
      // start rather than before it (a read of one not done yet renders it then).
      name: 'blog-html',
      deferred: true,
      start() {
        void services.blog.refreshStale().catch((err: unknown) => {
          logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'blog posts not re-rendered');
        });
      },
      stop() {},
    },
  ];
  return {
    config,
    database,
    db,
    logger,
    repos,
    adapters,
    platforms,
    services,
    guards,
    limits,
    videoObservers,
    schedules,
    /** The job queue (tests watch what it reads). */
    jobQueue: jobs,
    background: runBackground(background),
  };
}

export type AppContext = ReturnType<typeof createContext>;
