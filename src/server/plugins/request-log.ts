// One structured line per request, with its id. Query values that may be secrets are masked.
import type { FastifyInstance } from 'fastify';

const SECRET_PARAMS = /^(code|token|ba_token|state|session_state|id_token|access_token|sig|signature|exp)$/i;

export function maskUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const key of [...params.keys()]) if (SECRET_PARAMS.test(key)) params.set(key, '***');
  return `${url.slice(0, q)}?${params.toString()}`;
}

export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        url: maskUrl(request.url),
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
        ip: request.ip,
        userId: request.user?.id,
      },
      'request',
    );
  });
}
