// The error answers of each route in the OpenAPI description (issue 28): every status a route can
// answer besides 2xx, as the error envelope `{ message, code, params? }` with the codes it may carry.
// What every route shares is derived from the route itself (its input schemas, its guards, its
// method); what its service may raise is listed here by route. Statuses come from the one error
// catalogue, so a status never disagrees with what the server sends.
import { ERROR_CATALOGUE, type ErrorCode } from '../../shared/error-messages.js';

/** What looking a video up may answer (any platform; platforms map their own failures to these). */
const LOOKUP: ErrorCode[] = [
  'link.unsupported',
  'video.not_found',
  'video.private',
  'video.region_blocked',
  'video.login_required',
  'video.age_restricted',
  'upstream.unavailable',
  'upstream.rate_limited',
  'upstream.timeout',
  'upstream.blocked',
];
/** Opening a platform file (preview, slide, picture, sound). */
const MEDIA: ErrorCode[] = [...LOOKUP, 'upstream.incomplete', 'upstream.too_large', 'request.range'];
const DOWNLOAD: ErrorCode[] = [
  ...MEDIA,
  'quota.exhausted',
  'video.quality_unavailable',
  'video.sound_unavailable',
  'media.busy',
  'media.timeout',
  'media.store_unavailable',
  'storage.full',
];
const MEDIA_JOB: ErrorCode[] = [
  ...MEDIA,
  'media.no_audio',
  'media.unreadable',
  'media.empty',
  'media.too_large',
  'media.timeout',
  'media.busy',
  'media.unavailable',
  'media.store_unavailable',
  'storage.full',
];

/** The codes a route's service may raise, by `METHOD /path` as routed. */
const ROUTE_ERRORS: Record<string, ErrorCode[]> = {
  'POST /api/video/info': LOOKUP,
  'POST /api/video/download': DOWNLOAD,
  'GET /api/video/download': DOWNLOAD,
  'GET /api/video/stream/:id': [...MEDIA, 'media.busy', 'media.timeout'],
  'GET /api/video/image/:id/:n': [...MEDIA, 'video.no_slide'],
  'GET /api/video/thumbnail/:id': [...MEDIA, 'video.no_thumbnail'],
  'GET /api/video/picture/:id/:kind': [...MEDIA, 'video.no_thumbnail'],
  'POST /api/audio/extract': MEDIA_JOB,
  'POST /api/transcription/generate': [...MEDIA_JOB, 'transcription.unavailable', 'transcription.failed'],
  'POST /api/auth/login': ['auth.invalid_credentials', 'auth.rate_limited', 'auth.local_disabled'],
  'POST /api/auth/register': ['auth.email_taken', 'auth.rate_limited', 'auth.local_disabled'],
  'POST /api/subscription/create': ['billing.unavailable', 'billing.provider_error', 'billing.already_subscribed'],
  'POST /api/batch': ['billing.pro_required'],
  'GET /api/batch/:id': ['batch.not_found'],
  'GET /api/blog/posts/:id': ['blog.not_found'],
  'PUT /api/blog/posts/:id': ['blog.not_found', 'blog.slug_invalid', 'blog.slug_taken'],
  'POST /api/blog/posts': ['blog.slug_invalid', 'blog.slug_taken'],
  'DELETE /api/trending-videos/:id': ['trending.not_found', 'trending.not_curator'],
};

/** Guards by the name of their function (plugins/guards.ts) and the rate limiters (`limit…`). */
const GUARD_ERRORS: Record<string, ErrorCode[]> = {
  user: ['auth.required'],
  pro: ['auth.required', 'billing.pro_required'],
  admin: ['auth.required', 'auth.admin_required'],
  sameSiteOnly: ['auth.bad_origin'],
};

interface RouteShape {
  method: string | string[];
  url: string;
  schema?: { body?: unknown; querystring?: unknown; params?: unknown };
  preHandler?: unknown;
}

/** Every code `route` may answer besides 2xx. */
export function routeErrorCodes(route: RouteShape): ErrorCode[] {
  const method = (Array.isArray(route.method) ? route.method[0] : route.method).toUpperCase();
  const codes = new Set<ErrorCode>(['internal', 'service.database_unavailable']);
  const s = route.schema ?? {};
  if (s.body || s.querystring || s.params) codes.add('request.invalid');
  if (s.body) for (const c of ['request.malformed_json', 'request.fst_err_ctp_body_too_large'] as const) codes.add(c);
  if (!['GET', 'HEAD', 'OPTIONS'].includes(method)) codes.add('auth.bad_origin');
  const handlers = [route.preHandler].flat().filter((h): h is { name: string } => typeof h === 'function');
  for (const h of handlers) {
    for (const c of GUARD_ERRORS[h.name] ?? []) codes.add(c);
    if (/^limit/.test(h.name)) codes.add('rate_limited');
  }
  for (const c of ROUTE_ERRORS[`${method} ${route.url}`] ?? []) codes.add(c);
  return [...codes];
}

/** OpenAPI response entries for those codes, one per status, each naming its codes. */
export function errorResponses(route: RouteShape): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of routeErrorCodes(route)) {
    const status = ERROR_CATALOGUE[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<string, unknown> = {};
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    out[String(status)] = {
      description: `Error: ${codes.map((c) => `\`${c}\``).join(', ')}`,
      type: 'object',
      required: ['message', 'code'],
      properties: {
        message: { type: 'string', description: 'The English text of the code (shared/error-messages.ts)' },
        code: { type: 'string', enum: codes },
        params: { type: 'object', additionalProperties: true, description: 'The values filled into the message' },
      },
    };
  }
  return out;
}
