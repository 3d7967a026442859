// Input the database or the server must never see: NUL characters in any request part (refused
// with a 400 before validation), request bodies that trickle in (cut off by the request timeout
// in app.ts), and one address opening connections without bound.
import type { Server, Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { fail } from '../errors.js';
import { containsNul } from '../lib/nul.js';

export function registerNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (containsNul(request.params) || containsNul(request.query) || containsNul(request.body)) {
      throw fail('request.nul_character');
    }
  });
}

/**
 * At most `perIp` open connections from one address; more are closed at once. Behind a reverse
 * proxy every client shares the proxy's address, so the ceiling is off there (TRUST_PROXY).
 */
export function limitConnectionsPerIp(server: Server, perIp: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const ip = socket.remoteAddress ?? '';
    const count = (open.get(ip) ?? 0) + 1;
    if (count > perIp) {
      socket.destroy();
      return;
    }
    open.set(ip, count);
    socket.once('close', () => {
      const left = (open.get(ip) ?? 1) - 1;
      if (left <= 0) open.delete(ip);
      else open.set(ip, left);
    });
  });
}
