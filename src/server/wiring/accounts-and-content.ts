// Accounts (sign-in, admin, billing) and the text side of the product (hashtags, the caption
// optimiser, blog, curated list, footer pages, trends), with the rate limits and guards in front.
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { createRateLimits } from '../lib/rate-limits.js';
import { createGuards } from '../plugins/guards.js';
import { createAuthService } from '../services/auth.service.js';
import { createAdminService } from '../services/admin.service.js';
import { createOidcLoginService } from '../services/oidc-login.service.js';
import { createBillingService } from '../services/billing.service.js';
import { createBlogService } from '../services/blog.service.js';
import { createTrendingVideosService } from '../services/trending-videos.service.js';
import { createImageRelay, relaySigner } from '../services/image-relay.js';
import { createSitePages } from '../services/site-pages.service.js';
import { trendsHttpFrom } from '../adapters/trends/guarded-http.js';
import { createTikTokOneAdapter } from '../adapters/trends/tiktok-one.adapter.js';
import { createFeedsAdapter } from '../adapters/trends/feeds.adapter.js';
import type { LlmClient } from '../adapters/llm/openai-chat.adapter.js';
import { createTrendsAnalysisService } from '../services/trends-analysis.service.js';
import { collectorsConfigFrom, createTrendsCollectors } from '../services/trends-collectors.service.js';
import { createObservationRecorder } from '../services/trends-observations.service.js';
import { createTextToolsFeature } from '../services/text-tools.feature.js';
import { createTextWork, defaultTextWorkers } from '../text-work/pool.js';
import type { Adapters } from './adapters.js';
import type { Repositories } from './repositories.js';

export function createAccountServices(
  config: Config,
  deps: { repos: Repositories; adapters: Adapters; logger: Logger },
) {
  const { repos, adapters, logger } = deps;
  const limits = createRateLimits(config, adapters.rateLimitStore);
  const auth = createAuthService({ users: repos.users, limits });
  return {
    limits,
    guards: createGuards({ users: repos.users, adminEmails: config.ADMIN_EMAILS }),
    services: {
      auth,
      oidcLogin: adapters.oidc
        ? createOidcLoginService({ oidc: adapters.oidc, auth, callbackUrl: `${config.publicUrl}/api/callback`, logger })
        : null,
      admin: createAdminService({ users: repos.users, adminEmails: config.ADMIN_EMAILS }),
      billing: createBillingService({
        billing: repos.billing,
        users: repos.users,
        ...adapters.billing,
        publicUrl: config.publicUrl,
        logger,
        limiter: limits.billingCallsPerUser,
      }),
    },
  };
}

export function createContentServices(
  config: Config,
  deps: { repos: Repositories; adapters: Adapters; logger: Logger },
  overrides: { llm?: LlmClient | null } = {},
) {
  const { repos, adapters, logger } = deps;
  // NLP and Markdown in worker threads with a time budget (issue 34), shared by text tools and blog.
  const textWork = createTextWork({
    threads: config.TEXT_WORKERS ?? defaultTextWorkers(),
    budgetMs: config.TEXT_WORK_BUDGET_MS,
    queuePerOwner: config.TEXT_QUEUE_PER_ACCOUNT,
    imageSecret: config.sessionSecret,
  });
  // Hashtags and content optimiser (issue 6): built-in engine, language model when configured.
  const textTools = createTextToolsFeature(
    config,
    { observations: repos.hashtagObservations, logger, text: textWork },
    { llm: overrides.llm },
  );
  // Trends (issue 7): analysis from stored data; collectors fetch through the guarded client.
  const trendsHttp = trendsHttpFrom(adapters.http);
  const fetchTimeout = { timeoutMs: config.TRENDS_FETCH_TIMEOUT_SECONDS * 1000 };
  const trendsAnalysis = createTrendsAnalysisService({ repo: repos.trends, logger });
  const imageRelay = createImageRelay({ secret: config.sessionSecret, http: adapters.http });
  return {
    textWork,
    services: {
      imageRelay,
      blog: createBlogService({
        posts: repos.blogPosts,
        images: imageRelay,
        text: textWork,
        imageKeyId: relaySigner(config.sessionSecret)('key id').slice(0, 8),
        site: config.publicUrl,
      }),
      trendingVideos: createTrendingVideosService({
        videos: repos.trendingVideos,
        adminEmails: config.ADMIN_EMAILS,
        images: imageRelay,
      }),
      sitePages: createSitePages({
        dir: config.SITE_PAGES_DIR,
        contactEmail: config.CONTACT_EMAIL,
        mediaResultHours: config.MEDIA_RESULT_TTL_HOURS,
        imageSrc: imageRelay.link,
      }),
      trendsAnalysis,
      trendsCollectors: createTrendsCollectors({
        repo: repos.trends,
        tiktokOne: createTikTokOneAdapter(trendsHttp, fetchTimeout),
        feeds: createFeedsAdapter(trendsHttp, fetchTimeout),
        config: collectorsConfigFrom(config),
        logger,
        onData: () => trendsAnalysis.invalidate(),
      }),
      trendsObservations: createObservationRecorder({ repo: repos.trends, logger }),
      hashtags: textTools.hashtags,
      content: textTools.content,
    },
  };
}
