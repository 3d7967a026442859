// Every failure leaves as `{ message, code, params? }` (the error catalogue, decision 0020) with a 4xx
// or 5xx; never a stack trace.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, fail, infrastructureError, loggableError } from '../errors.js';
import { isErrorCode, renderError } from '../../shared/error-messages.js';
import { isClientPath } from '../../shared/client-paths.js';

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const send = (e: AppError) => {
      reply.headers(e.headers);
      return reply
        .status(e.status)
        .send({ message: e.message, code: e.code, ...(e.params ? { params: e.params } : {}), ...e.extra });
    };
    if (error instanceof AppError) return send(error);
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issue = error.validation[0];
      const field = issue?.instancePath?.replace(/^\//, '').replace(/\//g, '.');
      if (issue?.message === undefined) return send(fail('request.invalid', { variant: 'unknown' }));
      return send(
        field && !/required|valid|must|least|most|too/i.test(issue.message)
          ? fail('request.invalid', { variant: 'field', field, issue: issue.message })
          : fail('request.invalid', { issue: issue.message }),
      );
    }
    const status = error.statusCode ?? 500;
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (status === 400 && error instanceof SyntaxError)) {
      return send(fail('request.malformed_json'));
    }
    if (status === 429) return send(fail('rate_limited'));
    if (status >= 400 && status < 500) return send(frameworkError(error, status));
    const ours = infrastructureError(error);
    if (ours) {
      request.log.error({ err: loggableError(error), code: ours.code }, 'infrastructure failure');
      return send(ours);
    }
    request.log.error({ err: loggableError(error) }, 'unhandled error');
    return send(fail('internal'));
  });

  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || request.url === '/api' || request.method !== 'GET') {
      const e = fail('not_found');
      return reply.status(e.status).send({ message: e.message, code: e.code });
    }
    // The client's shell for its own routes; for any other path the same shell (which shows the
    // 404 page with a link home) with an honest 404 status for crawlers and link checkers.
    return reply
      .status(isClientPath(request.url) ? 200 : 404)
      .type('text/html')
      .sendFile('index.html');
  });
}

/** The envelope of an error, as the error handler sends it. */
const envelope = (e: AppError) => ({ message: e.message, code: e.code, ...(e.params ? { params: e.params } : {}) });

/**
 * Fastify's router refuses some URLs before any hook or handler runs (`frameworkErrors`): a
 * malformed percent-encoding and a path parameter over its length limit. Same envelope as the rest.
 */
export function routerErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  const e =
    error.code === 'FST_ERR_BAD_URL'
      ? fail('request.bad_url')
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? fail('request.uri_too_long')
        : fail('internal');
  return reply.status(e.status).send(envelope(e));
}

/** How long a refused client has to read its answer and close before its socket is destroyed. */
const REFUSED_CLOSE_GRACE_MS = 2_000;

/**
 * Node's HTTP parser refuses a request Fastify never sees (`clientErrorHandler`): headers over the
 * limit, a request too slow to arrive, bytes that are not HTTP. Answered in the envelope, then closed.
 */
export function clientErrors(err: Error & { code?: string }, socket: Socket): void {
  // Answered already: the parser reports the refusal again for each later chunk of the request.
  if (err.code === 'ECONNRESET' || socket.destroyed || socket.writableEnded) return;
  if (!socket.writable) return void socket.destroy(err);
  const e =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? fail('request.headers_too_large')
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? fail('request.timeout')
        : fail('request.unreadable');
  const body = JSON.stringify(envelope(e));
  // Ended after the answer, not destroyed: closing a socket with part of the request still unread
  // makes the kernel reset the connection, and the client sees ECONNRESET with (or instead of) the
  // answer. On Node 24 and 26 the rest of an oversized request is still unread here.
  socket.end(
    `HTTP/1.1 ${e.status} ${STATUS_CODES[e.status] ?? 'Error'}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
  );
  // A client that neither closes nor stops sending does not keep the socket.
  setTimeout(() => socket.destroy(), REFUSED_CLOSE_GRACE_MS).unref();
}

/**
 * A framework 4xx (body too large, wrong media type...): its catalogue entry when the framework's
 * text is the one catalogued; any other keeps the framework's own text under `request.<its code>`.
 */
function frameworkError(error: FastifyError, status: number): AppError {
  const code = `request.${(error.code ?? 'invalid').toLowerCase()}`;
  if (isErrorCode(code) && renderError(code) === error.message) {
    const e = fail(code as 'request.fst_err_ctp_body_too_large');
    if (e.status === status) return e;
  }
  return new AppError(status, code, error.message);
}
