// The error answers of each route in the OpenAPI description (issues 28 and 35): every status a
// route can answer besides 2xx, as the error envelope `{ message, code, params? }` with the codes it
// may carry. Everything is read off the route as defined: its input schemas, its method, the codes
// its guards are marked with and the codes it declares (`config.errors`, plugins/route-errors.ts).
// Statuses come from the one error catalogue, so a status never disagrees with what the server sends.
import { ERROR_CATALOGUE, type ErrorCode } from '../../shared/error-messages.js';
import { guardErrors } from './route-errors.js';

interface RouteShape {
  method: string | string[];
  schema?: { body?: unknown; querystring?: unknown; params?: unknown; headers?: unknown };
  preHandler?: unknown;
  config?: { errors?: readonly ErrorCode[] };
}

/** Every code `route` may answer besides 2xx. */
export function routeErrorCodes(route: RouteShape): ErrorCode[] {
  const method = (Array.isArray(route.method) ? route.method[0] : route.method).toUpperCase();
  const codes = new Set<ErrorCode>(['internal', 'service.database_unavailable']);
  const s = route.schema ?? {};
  if (s.body || s.querystring || s.params || s.headers) codes.add('request.invalid');
  if (s.params) codes.add('request.uri_too_long');
  if (s.body) for (const c of ['request.malformed_json', 'request.fst_err_ctp_body_too_large'] as const) codes.add(c);
  // State changes: the Origin check, and this machine only when PUBLIC_URL is a localhost one (0049).
  if (!['GET', 'HEAD', 'OPTIONS'].includes(method))
    for (const c of ['auth.bad_origin', 'auth.this_machine_only'] as const) codes.add(c);
  for (const h of [route.preHandler].flat()) for (const c of guardErrors(h)) codes.add(c);
  for (const c of route.config?.errors ?? []) codes.add(c);
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
