// The one database schema, shared by PGlite and PostgreSQL. Migrations are generated from it
// (`npm run db:generate`) and committed under migrations/.
import { sql } from 'drizzle-orm';
import { DEFAULT_PLATFORM } from '../platforms/default.js';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => ts('created_at').notNull().defaultNow();
const updatedAt = () => ts('updated_at').notNull().defaultNow();

// ---------------------------------------------------------------- accounts
export const users = pgTable('users', {
  id: varchar('id', { length: 36 }).primaryKey().default(sql`gen_random_uuid()::text`),
  email: varchar('email', { length: 320 }).unique(),
  firstName: varchar('first_name', { length: 255 }),
  lastName: varchar('last_name', { length: 255 }),
  profileImageUrl: varchar('profile_image_url', { length: 1000 }),
  // 'free' | 'active' | 'cancelled' | 'suspended' | 'expired' | 'pending' (billing keeps it in sync)
  subscriptionStatus: varchar('subscription_status', { length: 20 }).notNull().default('free'),
  paypalCustomerId: varchar('paypal_customer_id', { length: 255 }),
  paypalSubscriptionId: varchar('paypal_subscription_id', { length: 255 }),
  // Pro granted by an administrator from the command line, independent of billing.
  proGranted: boolean('pro_granted').notNull().default(false),
  // Administrator rights granted from the command line (user:create --admin, user:grant-admin).
  adminGranted: boolean('admin_granted').notNull().default(false),
  // The email was verified by its identity provider (OIDC email_verified); never by a sign-up form.
  emailVerified: boolean('email_verified').notNull().default(false),
  // Pro until this instant from billing (paid-through date plus grace); null = not from billing.
  proUntil: ts('pro_until'),
  // Successful (committed) downloads: the free quota counter. Never decremented.
  downloadCount: integer('download_count').notNull().default(0),
  // Download slots reserved by transfers in flight (see quota.service).
  downloadsReserved: integer('downloads_reserved').notNull().default(0),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const passwordCredentials = pgTable('password_credentials', {
  userId: varchar('user_id', { length: 36 })
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  passwordHash: text('password_hash').notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const userIdentities = pgTable(
  'user_identities',
  {
    issuer: varchar('issuer', { length: 500 }).notNull(),
    subject: varchar('subject', { length: 255 }).notNull(),
    userId: varchar('user_id', { length: 36 })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.issuer, t.subject] })],
);

export const sessions = pgTable(
  'sessions',
  {
    sid: varchar('sid', { length: 255 }).primaryKey(),
    sess: jsonb('sess').notNull(),
    expire: ts('expire').notNull(),
  },
  (t) => [index('IDX_session_expire').on(t.expire)],
);

// The founding table of the video platform's auth tokens (plaintext, nothing read them) is dropped: decision 0018.

// ---------------------------------------------------------------- rate limits
// One row per (limit key, fixed window) when several app nodes share PostgreSQL: every node
// counts against the same numbers (lib/rate-limiter.ts, decision 0004).
export const rateLimitWindows = pgTable(
  'rate_limit_windows',
  {
    key: varchar('key', { length: 400 }).notNull(),
    windowStart: bigint('window_start', { mode: 'number' }).notNull(),
    count: integer('count').notNull().default(0),
    resetAt: bigint('reset_at', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] }), index('rate_limit_windows_reset').on(t.resetAt)],
);

// ---------------------------------------------------------------- downloads
export const downloads = pgTable(
  'downloads',
  {
    id: serial('id').primaryKey(),
    userId: varchar('user_id', { length: 36 })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: varchar('url', { length: 1000 }).notNull(),
    platform: varchar('platform', { length: 32 }).notNull().default(DEFAULT_PLATFORM), // the registry id
    videoId: varchar('video_id', { length: 128 }),
    title: text('title'),
    author: varchar('author', { length: 255 }),
    // The video had a thumbnail: its link (shared/api-paths.ts videoLinks) is made from the ids when answered.
    hasThumbnail: boolean('has_thumbnail').notNull().default(false),
    duration: integer('duration'),
    views: bigint('views', { mode: 'number' }),
    likes: bigint('likes', { mode: 'number' }),
    quality: varchar('quality', { length: 20 }),
    // 'reserved' while streaming, then 'completed' or 'failed'
    status: varchar('status', { length: 20 }).notNull().default('completed'),
    bytes: bigint('bytes', { mode: 'number' }),
    // Clearing history hides rows; the quota never comes back.
    hiddenAt: ts('hidden_at'),
    createdAt: createdAt(),
    completedAt: ts('completed_at'),
  },
  (t) => [index('downloads_user_created_idx').on(t.userId, t.createdAt)],
);

// ---------------------------------------------------------------- billing
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: serial('id').primaryKey(),
    userId: varchar('user_id', { length: 36 })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: varchar('provider', { length: 20 }).notNull(), // 'paypal' | 'test'
    providerSubscriptionId: varchar('provider_subscription_id', { length: 255 }).notNull(),
    planId: varchar('plan_id', { length: 255 }),
    // Provider status: APPROVAL_PENDING, APPROVED, ACTIVE, SUSPENDED, CANCELLED, EXPIRED
    status: varchar('status', { length: 30 }).notNull(),
    nextBillingTime: ts('next_billing_time'),
    paidThrough: ts('paid_through'),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    // The provider's approval link, reused while the checkout is open (one checkout per user).
    approvalUrl: varchar('approval_url', { length: 2000 }),
    // Provider's status_update_time of the snapshot stored: an older snapshot never overwrites a newer one.
    statusUpdatedAt: ts('status_updated_at'),
    // Failed renewal attempts reported by the provider (0 after a successful payment).
    failedPayments: integer('failed_payments').notNull().default(0),
    lastSyncedAt: ts('last_synced_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('subscriptions_provider_id_idx').on(t.provider, t.providerSubscriptionId),
    index('subscriptions_user_idx').on(t.userId),
  ],
);

export const billingEvents = pgTable('billing_events', {
  id: varchar('id', { length: 255 }).primaryKey(), // provider event id: de-duplication key
  type: varchar('type', { length: 100 }).notNull(),
  resourceId: varchar('resource_id', { length: 255 }),
  payload: jsonb('payload').notNull(),
  receivedAt: createdAt(),
  processedAt: ts('processed_at'),
});

// ---------------------------------------------------------------- blog
export const blogPosts = pgTable('blog_posts', {
  id: serial('id').primaryKey(),
  title: varchar('title', { length: 255 }).notNull(),
  content: text('content').notNull(),
  excerpt: varchar('excerpt', { length: 500 }),
  slug: varchar('slug', { length: 255 }).notNull().unique(),
  status: varchar('status', { length: 20 }).notNull().default('draft'),
  featuredImage: varchar('featured_image', { length: 500 }),
  tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
  authorId: varchar('author_id', { length: 36 })
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  // Rendered once, on save (issue 34, decision 0042): the sanitised HTML, a plain-text summary for
  // link previews, and the renderer version and image-relay key they were made with (another
  // version is rendered again at start, or on its first read).
  contentHtml: text('content_html'),
  summary: text('summary'),
  htmlVersion: varchar('html_version', { length: 40 }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

// ---------------------------------------------------------------- trending videos
export const trendingVideos = pgTable('trending_videos', {
  id: serial('id').primaryKey(),
  title: varchar('title', { length: 255 }).notNull(),
  description: text('description'),
  videoUrl: varchar('video_url', { length: 500 }).notNull(),
  platform: varchar('platform', { length: 50 }).notNull(),
  thumbnailUrl: varchar('thumbnail_url', { length: 500 }),
  author: varchar('author', { length: 255 }),
  tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
  viewCount: bigint('view_count', { mode: 'number' }).notNull().default(0),
  likeCount: bigint('like_count', { mode: 'number' }).notNull().default(0),
  trendingScore: integer('trending_score').notNull().default(0),
  curatedBy: varchar('curated_by', { length: 36 }).references(() => users.id, { onDelete: 'set null' }),
  status: varchar('status', { length: 20 }).notNull().default('active'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const trendingVideoBoosts = pgTable(
  'trending_video_boosts',
  {
    videoId: integer('video_id')
      .notNull()
      .references(() => trendingVideos.id, { onDelete: 'cascade' }),
    userId: varchar('user_id', { length: 36 })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.videoId, t.userId] })],
);

// ---------------------------------------------------------------- media results
export const mediaResults = pgTable('media_results', {
  key: varchar('key', { length: 255 }).primaryKey(), // e.g. 'audio:<videoId>'
  kind: varchar('kind', { length: 30 }).notNull(),
  platform: varchar('platform', { length: 32 }).notNull().default(DEFAULT_PLATFORM),
  videoId: varchar('video_id', { length: 128 }),
  storageKey: varchar('storage_key', { length: 500 }).notNull(),
  contentType: varchar('content_type', { length: 100 }).notNull(),
  size: bigint('size', { mode: 'number' }).notNull(),
  meta: jsonb('meta'),
  createdAt: createdAt(),
  expiresAt: ts('expires_at').notNull(),
});

// ---------------------------------------------------------------- trends
// First-party observations: one row per successful video lookup.
export const videoObservations = pgTable(
  'video_observations',
  {
    id: serial('id').primaryKey(),
    platform: varchar('platform', { length: 32 }).notNull().default(DEFAULT_PLATFORM),
    videoId: varchar('video_id', { length: 128 }).notNull(),
    description: text('description'),
    author: varchar('author', { length: 255 }),
    authorNickname: varchar('author_nickname', { length: 255 }),
    authorVerified: boolean('author_verified'),
    authorFollowers: bigint('author_followers', { mode: 'number' }),
    hashtags: text('hashtags').array().notNull().default(sql`'{}'::text[]`),
    musicId: varchar('music_id', { length: 64 }),
    musicTitle: varchar('music_title', { length: 500 }),
    musicAuthor: varchar('music_author', { length: 255 }),
    musicDuration: integer('music_duration'),
    plays: bigint('plays', { mode: 'number' }),
    likes: bigint('likes', { mode: 'number' }),
    observedAt: ts('observed_at').notNull().defaultNow(),
  },
  (t) => [
    index('video_observations_observed_idx').on(t.observedAt),
    index('video_observations_video_idx').on(t.videoId, t.observedAt),
  ],
);

// Dated snapshots collected from outside sources (e.g. TikTok One hashtag list).
export const trendSnapshots = pgTable(
  'trend_snapshots',
  {
    id: serial('id').primaryKey(),
    source: varchar('source', { length: 50 }).notNull(),
    kind: varchar('kind', { length: 50 }).notNull(),
    collectedAt: ts('collected_at').notNull().defaultNow(),
    data: jsonb('data').notNull(),
  },
  (t) => [index('trend_snapshots_source_idx').on(t.source, t.kind, t.collectedAt)],
);

export const collectorRuns = pgTable('collector_runs', {
  id: serial('id').primaryKey(),
  source: varchar('source', { length: 50 }).notNull(),
  startedAt: ts('started_at').notNull().defaultNow(),
  finishedAt: ts('finished_at'),
  items: integer('items').notNull().default(0),
  error: text('error'),
});

export const newsItems = pgTable(
  'news_items',
  {
    id: serial('id').primaryKey(),
    dedupeKey: varchar('dedupe_key', { length: 128 }).notNull().unique(),
    title: text('title').notNull(),
    summary: text('summary'),
    url: varchar('url', { length: 2000 }),
    source: varchar('source', { length: 255 }).notNull(),
    category: varchar('category', { length: 20 }).notNull(),
    publishedAt: ts('published_at').notNull(),
    fetchedAt: ts('fetched_at').notNull().defaultNow(),
  },
  (t) => [index('news_items_published_idx').on(t.publishedAt)],
);

// ---------------------------------------------------------------- schedules (issue 21)
// One row per scheduled task: a node runs it only by moving `started_at` forward past one
// interval, so a task runs once per interval across every node and across restarts.
export const scheduleRuns = pgTable('schedule_runs', {
  name: varchar('name', { length: 100 }).primaryKey(),
  startedAt: ts('started_at').notNull(),
  finishedAt: ts('finished_at'),
  error: text('error'),
  runs: integer('runs').notNull().default(0),
});

// ---------------------------------------------------------------- batch downloads (issue 21)
export const batches = pgTable(
  'batches',
  {
    id: varchar('id', { length: 36 }).primaryKey(),
    userId: varchar('user_id', { length: 36 })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    quality: varchar('quality', { length: 20 }).notNull(),
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('batches_user_idx').on(t.userId, t.createdAt)],
);

export const batchItems = pgTable(
  'batch_items',
  {
    id: serial('id').primaryKey(),
    batchId: varchar('batch_id', { length: 36 })
      .notNull()
      .references(() => batches.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    url: varchar('url', { length: 2048 }).notNull(),
    // queued -> running -> done | failed; a failed item may be queued again (retry).
    status: varchar('status', { length: 20 }).notNull(),
    title: text('title'),
    fileName: varchar('file_name', { length: 255 }),
    resultKey: varchar('result_key', { length: 255 }), // media_results key of the stored file
    errorCode: varchar('error_code', { length: 80 }),
    errorMessage: text('error_message'),
    queuedAt: ts('queued_at').notNull().defaultNow(),
    finishedAt: ts('finished_at'),
  },
  (t) => [
    index('batch_items_batch_idx').on(t.batchId, t.position),
    index('batch_items_queue_idx').on(t.status, t.queuedAt),
  ],
);

// ---------------------------------------------------------------- caption studio (issue 29)
// An uploaded video (tus): private to its owner; the bytes live in the media store under
// `resultKey` once complete and probed, and expire with it (MEDIA_RESULT_TTL_HOURS).
export const studioUploads = pgTable(
  'studio_uploads',
  {
    id: varchar('id', { length: 64 }).primaryKey(),
    userId: varchar('user_id', { length: 36 })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fileName: varchar('file_name', { length: 255 }).notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    // receiving -> ready (probed, stored) ; a refused file is deleted with its row.
    status: varchar('status', { length: 20 }).notNull(),
    resultKey: varchar('result_key', { length: 255 }),
    meta: jsonb('meta'), // { width, height, duration }
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('studio_uploads_user_idx').on(t.userId), index('studio_uploads_expiry_idx').on(t.expiresAt)],
);

// A caption project: the words and style the editor saves (jsonb, bounded by the contract), a
// revision for stale-save detection, and the media result holding its source video.
export const captionProjects = pgTable(
  'caption_projects',
  {
    id: varchar('id', { length: 36 }).primaryKey(),
    userId: varchar('user_id', { length: 36 })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    source: jsonb('source').notNull(),
    title: varchar('title', { length: 200 }).notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    duration: integer('duration_ms').notNull(),
    language: varchar('language', { length: 16 }).notNull(),
    engine: varchar('engine', { length: 16 }).notNull(),
    lines: jsonb('lines').notNull(),
    style: jsonb('style').notNull(),
    revision: integer('revision').notNull().default(0),
    mediaKey: varchar('media_key', { length: 255 }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('caption_projects_user_idx').on(t.userId, t.updatedAt)],
);
