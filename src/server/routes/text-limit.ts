// The per-account limit of every route whose text may run NLP or Markdown (issue 34): hashtags, the
// caption optimiser, blog saves. After the route's guard, so the account is known. A guard, so the
// OpenAPI description lists its 429 (plugins/route-errors.ts).
import type { FastifyRequest } from 'fastify';
import type { RouteContext } from './route-context.js';
import { signedInUser } from '../plugins/guards.js';
import { enforceLimit } from '../lib/rate-limits.js';
import { guard } from '../plugins/route-errors.js';

/** Text work in the worker threads (text-work/pool.ts): over its time budget, or no room in line. */
export const TEXT_WORK_ERRORS = ['text.too_complex', 'text.busy'] as const;
/** A blog post rendered on save: text work, and the post's own bounds. */
export const POST_RENDER_ERRORS = [...TEXT_WORK_ERRORS, 'blog.too_deep', 'blog.too_complex'] as const;

export function limitText(ctx: RouteContext) {
  return guard(
    ['rate_limited'],
    (request: FastifyRequest): Promise<void> => enforceLimit(ctx.limits.textPerUser, `u:${signedInUser(request).id}`),
  );
}
