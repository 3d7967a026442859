// An AbortSignal that fires when the client goes away before the reply is sent, so upstream
// transfers stop and media jobs end their processes and remove their temporary files at once.
import type { FastifyReply } from 'fastify';

export function abortOnDisconnect(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}
