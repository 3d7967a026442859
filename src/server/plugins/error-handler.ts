// Every failure leaves as `{ message, code }` with a 4xx or 5xx; never a stack trace.
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, infrastructureError, loggableError } from '../errors.js';
import { isClientPath } from '../../shared/client-paths.js';

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      reply.headers(error.headers);
      return reply.status(error.status).send({ message: error.message, code: error.code, ...error.extra });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issue = error.validation[0];
      const field = issue?.instancePath?.replace(/^\//, '').replace(/\//g, '.');
      const message = issue?.message ?? 'Invalid request';
      return reply.status(400).send({
        message: field && !/required|valid|must|least|most|too/i.test(message) ? `${field}: ${message}` : message,
        code: 'request.invalid',
      });
    }
    const status = error.statusCode ?? 500;
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (status === 400 && error instanceof SyntaxError)) {
      return reply.status(400).send({ message: 'The request body is not valid JSON.', code: 'request.malformed_json' });
    }
    if (status === 429) {
      return reply.status(429).send({ message: 'Too many requests. Please slow down and try again shortly.', code: 'rate_limited' });
    }
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ message: error.message, code: `request.${(error.code ?? 'invalid').toLowerCase()}` });
    }
    const ours = infrastructureError(error);
    if (ours) {
      request.log.error({ err: loggableError(error), code: ours.code }, 'infrastructure failure');
      reply.headers(ours.headers);
      return reply.status(ours.status).send({ message: ours.message, code: ours.code });
    }
    request.log.error({ err: loggableError(error) }, 'unhandled error');
    return reply.status(500).send({ message: 'Something went wrong on our side. Please try again.', code: 'internal' });
  });

  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || request.url === '/api' || request.method !== 'GET') {
      return reply.status(404).send({ message: 'Not found.', code: 'not_found' });
    }
    // The client's shell for its own routes; for any other path the same shell (which shows the
    // 404 page with a link home) with an honest 404 status for crawlers and link checkers.
    return reply.status(isClientPath(request.url) ? 200 : 404).type('text/html').sendFile('index.html');
  });
}
