// With PGlite only one process may open the database, so while the server runs the CLI sends its
// commands here: an HTTP server on a unix socket in DATA_DIR (owner-only permissions).
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AppContext } from '../context.js';
import { adminCommandSchema } from '../services/admin.service.js';
import { AppError } from '../errors.js';

export const adminSocketPath = (dataDir: string) => path.join(dataDir, 'admin.sock');

export async function startAdminSocket(ctx: AppContext): Promise<{ close(): Promise<void> }> {
  const file = adminSocketPath(ctx.config.DATA_DIR);
  fs.rmSync(file, { force: true });
  const admin = ctx.services.admin;
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    try {
      const parsed = adminCommandSchema.safeParse(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'));
      if (!parsed.success) return reply(400, { message: parsed.error.issues[0].message });
      reply(200, { message: await admin.run(parsed.data) });
    } catch (err) {
      if (err instanceof AppError) return reply(err.status, { message: err.message });
      ctx.logger.error({ err }, 'admin command failed');
      reply(500, { message: 'The command failed; see the server log.' });
    }
  });
  await new Promise<void>((resolve) => server.listen(file, resolve));
  fs.chmodSync(file, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) =>
        server.close(() => {
          fs.rmSync(file, { force: true });
          resolve();
        }),
      ),
  };
}

/** Sends one command to a running server; null when no server listens on the socket. */
export function sendAdminCommand(dataDir: string, body: unknown): Promise<{ status: number; message: string } | null> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        socketPath: adminSocketPath(dataDir),
        method: 'POST',
        path: '/',
        headers: { 'content-type': 'application/json' },
      },
      async (res) => {
        let text = '';
        for await (const chunk of res) text += chunk;
        resolve({ status: res.statusCode ?? 500, message: JSON.parse(text).message });
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) =>
      err.code === 'ENOENT' || err.code === 'ECONNREFUSED' ? resolve(null) : reject(err),
    );
    req.end(JSON.stringify(body));
  });
}
