// Configuration: read once at start from the environment and validated. A bad value stops the
// start with one line naming the variable (see main.ts).
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { z } from 'zod';

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined));

const optionalUrl = optionalString.pipe(z.url().optional());

/** `UPSTREAM_HOST_MAP`: JSON object, exact host or `*.domain` -> origin (http(s)://host:port). */
const hostMap = optionalString.transform((v, ctx) => {
  if (!v) return {} as Record<string, string>;
  try {
    const parsed = z.record(z.string().min(1), z.url()).parse(JSON.parse(v));
    return parsed;
  } catch {
    ctx.addIssue({ code: 'custom', message: 'must be a JSON object mapping hosts to origins' });
    return z.NEVER;
  }
});

/** `WHISPER_MODEL_PINS` (tests only): JSON object, model name -> {sha256, bytes} replacing the pinned ones. */
const modelPins = optionalString.transform((v, ctx) => {
  if (!v) return {} as Record<string, { sha256: string; bytes: number }>;
  try {
    const pin = z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/), bytes: z.number().int().positive() });
    return z.record(z.string().min(1), pin).parse(JSON.parse(v));
  } catch {
    ctx.addIssue({ code: 'custom', message: 'must be a JSON object mapping model names to {sha256, bytes}' });
    return z.NEVER;
  }
});

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(5000),
  // Unset: loopback only until PUBLIC_URL names another host (then every interface): see loadConfig.
  HOST: optionalString,
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .optional(),
  ),
  SESSION_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  PUBLIC_URL: optionalUrl,
  OIDC_ISSUER_URL: optionalUrl,
  OIDC_CLIENT_ID: optionalString,
  OIDC_CLIENT_SECRET: optionalString,
  ADMIN_EMAILS: optionalString.transform((v) =>
    (v ?? '')
      .split(',')
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean),
  ),
  UPSTREAM_HOST_MAP: hostMap,
  // A site sending slowly may not hold a transfer (issue 42): at least UPSTREAM_MIN_KBPS on average
  // in every UPSTREAM_STALL_SECONDS window in which our reader kept asking (0: no floor), and the
  // whole transfer within UPSTREAM_DEADLINE_SECONDS (0: none).
  UPSTREAM_MIN_KBPS: z.coerce.number().min(0).max(1_000_000).default(8),
  UPSTREAM_STALL_SECONDS: z.coerce.number().min(0.1).max(3600).default(30),
  UPSTREAM_DEADLINE_SECONDS: z.coerce.number().min(0).max(86_400).default(3600),
  // Open connections one address may hold (0 = no ceiling; off behind TRUST_PROXY, where every
  // client shares the proxy's address).
  CONNECTIONS_PER_IP: z.coerce.number().int().min(0).max(100_000).default(64),
  // Video lookups per minute: per IP when signed out, per account (x3) when signed in.
  VIDEO_INFO_PER_MINUTE: z.coerce.number().int().min(1).default(20),
  // Text requests (hashtags, caption optimiser, blog saves) per account per minute (issue 34).
  TEXT_REQUESTS_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  // Worker threads for NLP and Markdown (0: in the main thread, no time budget); default cores - 1, 1 to 4.
  TEXT_WORKERS: z.coerce.number().int().min(0).max(64).optional(),
  // How long one text task may run (422 past it) and, apart, wait in line (503 past it): decision 0087.
  TEXT_WORK_BUDGET_MS: z.coerce.number().int().min(50).max(60_000).default(600),
  // Text tasks one account may have waiting for a thread; past it, its next is 503 (issue 42).
  TEXT_QUEUE_PER_ACCOUNT: z.coerce.number().int().min(1).max(1000).default(4),
  // OpenAI-compatible chat-completions API for hashtags and captions (all three set = enabled).
  LLM_BASE_URL: optionalUrl,
  LLM_API_KEY: optionalString,
  LLM_MODEL: optionalString,
  LLM_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(8000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // PayPal subscriptions (issue 4). Without client id + secret the built-in test checkout is used (never in production).
  PAYPAL_ENV: z.enum(['sandbox', 'live']).default('sandbox'),
  PAYPAL_CLIENT_ID: optionalString,
  PAYPAL_CLIENT_SECRET: optionalString,
  PAYPAL_PLAN_ID: optionalString,
  PAYPAL_WEBHOOK_ID: optionalString,
  PAYPAL_API_BASE: optionalUrl,
  // The built-in test checkout (confirms Pro without payment): on by default only when PUBLIC_URL is
  // this machine (localhost, 127.0.0.1, ::1) and PayPal is not configured; never in production.
  TEST_CHECKOUT: z.enum(['on', 'off']).optional(),
  // Trust X-Forwarded-* from a reverse proxy (needed behind a load balancer for per-IP limits).
  TRUST_PROXY: optionalString.transform((v) => v === 'true' || v === '1'),
  // Trends collectors (issue 7; see README 'Trends'). Feeds: comma-separated; "a|b" = try a, then b.
  // Default: on, except under NODE_ENV=test where tests opt in (no test reaches the real sources).
  TRENDS_COLLECTORS: z.enum(['on', 'off']).optional(),
  // all: serve HTTP and run jobs (the default); web: serve HTTP and enqueue; worker: run jobs only.
  PROCESS_ROLE: z.enum(['all', 'web', 'worker']).default('all'),
  // A job still running after this long is taken to be lost (its worker died) and run again.
  BATCH_ITEM_TIMEOUT_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(6 * 3600)
    .default(900),
  // How often the job queue looks for such lost jobs (and archives old ones).
  JOBS_MAINTENANCE_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  // Rate-limit counters in Redis instead of the database (several nodes, any database).
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/\S+$/, 'must be a redis:// or rediss:// URL')
    .optional(),
  REDIS_PREFIX: z
    .string()
    .regex(/^[\w:.-]{1,40}$/)
    .default('smt:'),
  // Reddit (issue 44): an app's credentials switch to application-only OAuth; over-18 posts are
  // refused unless allowed; the User-Agent Reddit's API rules ask for (default: names PUBLIC_URL).
  REDDIT_CLIENT_ID: optionalString,
  REDDIT_CLIENT_SECRET: optionalString,
  REDDIT_OVER_18: z.enum(['allow', 'refuse']).default('refuse'),
  REDDIT_USER_AGENT: z
    .string()
    .regex(/^[\x20-\x7e]{8,200}$/, 'must be 8-200 printable ASCII characters')
    .optional(),
  TRENDS_TIKTOK_ONE: z.enum(['on', 'off']).default('on'),
  TRENDS_NEWS: z.enum(['on', 'off']).default('on'),
  TRENDS_COUNTRY: z
    .string()
    .regex(/^[A-Z]{2}$/, 'must be a two-letter country code like US')
    .default('US'),
  TRENDS_PERIOD: z.enum(['7', '30', '90']).default('7').transform(Number),
  TRENDS_NEWS_FEEDS: optionalString,
  TRENDS_INTERVAL_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(60),
  TRENDS_FETCH_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(120).default(15),
  // Media processing, results store and transcription (issue 5; see README 'Audio and captions').
  FFMPEG_PATH: optionalString,
  FFPROBE_PATH: optionalString,
  MEDIA_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
  MEDIA_QUEUE_LIMIT: z.coerce.number().int().min(0).max(1000).optional(),
  // One account's running media jobs on a node at most (default: half of MEDIA_CONCURRENCY, at least 1).
  MEDIA_SLOTS_PER_ACCOUNT: z.coerce.number().int().min(1).max(64).optional(),
  // Status long polls (GET /api/media-jobs/:id?wait) one account holds at once on a node; beyond, answered at once.
  LONG_POLLS_PER_ACCOUNT: z.coerce.number().int().min(0).max(1000).default(8),
  MEDIA_TIMEOUT_SECONDS: z.coerce.number().int().min(5).max(3600).default(300),
  // How long a request waits for its media job before answering media.busy (the job goes on).
  MEDIA_WAIT_SECONDS: z.coerce.number().int().min(1).max(3600).default(120),
  MEDIA_MAX_INPUT_MB: z.coerce.number().int().min(1).max(4096).default(300),
  MEDIA_RESULT_TTL_HOURS: z.coerce
    .number()
    .min(0.01)
    .max(24 * 365)
    .default(24),
  // Caption-studio uploads per person (issue 34): unfinished at once, their declared megabytes, and
  // how long one may go without a byte before it is removed.
  UPLOADS_MAX_OPEN: z.coerce.number().int().min(1).max(100).default(3),
  UPLOADS_MAX_OPEN_MB: z.coerce.number().int().min(1).max(100_000).optional(),
  UPLOADS_STALE_MINUTES: z.coerce
    .number()
    .min(1)
    .max(7 * 24 * 60)
    .default(60),
  S3_ENDPOINT: optionalUrl,
  S3_BUCKET: optionalString,
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  TRANSCRIBE_API_URL: optionalUrl,
  TRANSCRIBE_API_KEY: optionalString,
  TRANSCRIBE_MODEL: z.string().default('whisper-1'),
  POCKETSPHINX_MODEL_DIR: z.string().default('/usr/share/pocketsphinx/model/en-us'),
  // whisper.cpp (issue 36): which model in DATA_DIR/models to use when several are there (base.en,
  // or a file name); threads per transcription (default 1: see README).
  WHISPER_MODEL: optionalString,
  // Fetch WHISPER_MODEL (default base.en) from its official host in the background (issue 46).
  // Default: on, except under NODE_ENV=test where tests opt in (no test reaches the real host).
  WHISPER_AUTO_FETCH: z.enum(['on', 'off']).optional(),
  WHISPER_THREADS: z.coerce.number().int().min(1).max(64).optional(),
  WHISPER_MODEL_PINS: modelPins,
  // The footer pages: the operator's faq.md, contact.md, privacy.md, terms.md (Markdown) replace
  // the defaults (services/site-pages.defaults.ts); CONTACT_EMAIL is named on the defaults.
  SITE_PAGES_DIR: optionalString.refine(
    (v) => v === undefined || (fs.existsSync(v) && fs.statSync(v).isDirectory()),
    'must be an existing folder',
  ),
  CONTACT_EMAIL: optionalString.pipe(z.email('must be an email address').optional()),
});

export type Env = z.infer<typeof envSchema>;

/** Groups of variables that must be set together (TRANSCRIBE_API_KEY is optional with its URL). */
const ALL_OR_NONE: ReadonlyArray<ReadonlyArray<keyof Env>> = [
  ['OIDC_ISSUER_URL', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'],
  ['PAYPAL_CLIENT_ID', 'PAYPAL_CLIENT_SECRET'],
  ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'],
  ['LLM_BASE_URL', 'LLM_API_KEY', 'LLM_MODEL'],
  ['REDDIT_CLIENT_ID', 'REDDIT_CLIENT_SECRET'],
];

export interface Config extends Omit<Env, 'HOST' | 'UPLOADS_MAX_OPEN_MB'> {
  /** Listen address: HOST, else `localhost` (loopback) unless PUBLIC_URL names another host. */
  HOST: string;
  /** Declared megabytes of one person's unfinished uploads: UPLOADS_MAX_OPEN_MB, else 2 × MEDIA_MAX_INPUT_MB. */
  UPLOADS_MAX_OPEN_MB: number;
  /** PUBLIC_URL is this machine (localhost, 127.0.0.1, [::1]): its loopback aliases are the same site. */
  publicUrlIsLoopback: boolean;
  sessionSecret: string;
  publicUrl: string;
  isProduction: boolean;
  /** PUBLIC_URL is https (or NODE_ENV=production): Secure cookies, HSTS, upgrade-insecure-requests. */
  secureTransport: boolean;
  /** The test checkout may be offered (when PayPal is not configured). */
  testCheckoutAllowed: boolean;
  oidc: { issuerUrl: string; clientId: string; clientSecret: string } | null;
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`Invalid configuration: ${String(issue.path[0])} ${issue.message}`);
  }
  const e = parsed.data;
  const isProduction = e.NODE_ENV === 'production';
  const dataDir = path.resolve(e.DATA_DIR);
  if (isProduction && !e.SESSION_SECRET) {
    throw new ConfigError('Invalid configuration: SESSION_SECRET is required in production');
  }
  if (isProduction && Object.keys(e.UPSTREAM_HOST_MAP).length > 0) {
    throw new ConfigError('Invalid configuration: UPSTREAM_HOST_MAP is refused when NODE_ENV=production');
  }
  if (isProduction && Object.keys(e.WHISPER_MODEL_PINS).length > 0) {
    throw new ConfigError('Invalid configuration: WHISPER_MODEL_PINS is refused when NODE_ENV=production');
  }
  // Settings that only work together: all of a group or none of it, checked here once.
  for (const group of ALL_OR_NONE) {
    const set = group.filter((k) => e[k] !== undefined);
    if (set.length && set.length < group.length) {
      const [missing] = group.filter((k) => e[k] === undefined);
      throw new ConfigError(
        `Invalid configuration: ${missing} is required when ${set.join(', ')} ${set.length > 1 ? 'are' : 'is'} set`,
      );
    }
  }
  if (e.TRANSCRIBE_API_KEY && !e.TRANSCRIBE_API_URL) {
    throw new ConfigError('Invalid configuration: TRANSCRIBE_API_URL is required when TRANSCRIBE_API_KEY is set');
  }
  if (isProduction && e.TEST_CHECKOUT === 'on') {
    throw new ConfigError('Invalid configuration: TEST_CHECKOUT=on is refused when NODE_ENV=production');
  }
  if (e.UPLOADS_MAX_OPEN_MB !== undefined && e.UPLOADS_MAX_OPEN_MB < e.MEDIA_MAX_INPUT_MB) {
    throw new ConfigError(
      `Invalid configuration: UPLOADS_MAX_OPEN_MB must be at least MEDIA_MAX_INPUT_MB (${e.MEDIA_MAX_INPUT_MB}), or no upload of the largest size could start`,
    );
  }
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  const local = isLoopbackHost(new URL(publicUrl).hostname);
  return {
    ...e,
    // Safe on any network by default: nothing but this machine can reach a server whose PUBLIC_URL
    // is this machine, so the test checkout it turns on is never offered to a stranger (issue 31).
    HOST: e.HOST ?? (e.PUBLIC_URL && !local ? '0.0.0.0' : 'localhost'),
    publicUrlIsLoopback: local,
    UPLOADS_MAX_OPEN_MB: e.UPLOADS_MAX_OPEN_MB ?? 2 * e.MEDIA_MAX_INPUT_MB,
    DATA_DIR: dataDir,
    isProduction,
    // Security must not hang on remembering NODE_ENV: an https address alone turns these on.
    secureTransport: isProduction || publicUrl.startsWith('https:'),
    testCheckoutAllowed: !isProduction && (e.TEST_CHECKOUT === 'on' || (e.TEST_CHECKOUT !== 'off' && local)),
    sessionSecret: e.SESSION_SECRET ?? devSessionSecret(dataDir),
    publicUrl,
    oidc:
      e.OIDC_ISSUER_URL && e.OIDC_CLIENT_ID && e.OIDC_CLIENT_SECRET
        ? { issuerUrl: e.OIDC_ISSUER_URL, clientId: e.OIDC_CLIENT_ID, clientSecret: e.OIDC_CLIENT_SECRET }
        : null,
  };
}

/** A host name or address of this machine's loopback interface (as URL.hostname spells it). */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/** Outside production a secret is generated once and kept in DATA_DIR, so sessions survive restarts. */
function devSessionSecret(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const secret = crypto.randomBytes(32).toString('hex');
    fs.writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}
