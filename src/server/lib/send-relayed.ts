// Sends a relayed file body itself rather than through reply.send's pipe, so that each chunk is
// released for reuse once the socket write that carried it has completed (decision 0106). Fastify
// still sets the headers its hooks added (security headers) and logs the request on finish.
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

export interface RelayedFile {
  headers: Record<string, string>;
  body: Readable;
  /** The bytes of this chunk are in the kernel: its buffer may be reused. */
  release(chunk: Buffer): void;
}

export function sendRelayed(reply: FastifyReply, file: RelayedFile): FastifyReply {
  const { body, release } = file;
  reply.hijack();
  const res = reply.raw;
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) res.setHeader(name, value);
  res.writeHead(200, file.headers);
  const resume = () => body.resume();
  res.on('drain', resume);
  body.on('data', (chunk: Buffer) => {
    // The callback runs once the socket has written the chunk (or failed, when nobody needs it).
    if (!res.write(chunk, () => release(chunk))) body.pause();
  });
  body.once('end', () => res.end());
  body.once('error', () => res.destroy());
  res.once('close', () => {
    res.off('drain', resume);
    if (!res.writableFinished) body.destroy(); // the client left: stop the upstream transfer
  });
  return reply;
}
