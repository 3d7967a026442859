// Every repository, over one database: the only code that runs Drizzle (db/repositories/).
import type { Db } from '../db/client.js';
import { createUsersRepository } from '../db/repositories/users.repository.js';
import { createSessionsRepository } from '../db/repositories/sessions.repository.js';
import { createDownloadsRepository } from '../db/repositories/downloads.repository.js';
import { createMediaResultsRepository } from '../db/repositories/media-results.repository.js';
import { createBillingRepository } from '../db/repositories/billing.repository.js';
import { createBlogPostsRepository } from '../db/repositories/blog-posts.repository.js';
import { createTrendingVideosRepository } from '../db/repositories/trending-videos.repository.js';
import { createTrendsRepository } from '../db/repositories/trends.repository.js';
import { createHashtagObservationsRepository } from '../db/repositories/hashtag-observations.repository.js';
import { createScheduleRunsRepository } from '../db/repositories/schedule-runs.repository.js';
import { createBatchesRepository } from '../db/repositories/batches.repository.js';
import { createCaptionProjectsRepository } from '../db/repositories/caption-projects.repository.js';
import { createRateLimitsRepository } from '../db/repositories/rate-limits.repository.js';

export function createRepositories(db: Db) {
  return {
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
    rateLimits: createRateLimitsRepository(db),
  };
}
export type Repositories = ReturnType<typeof createRepositories>;
