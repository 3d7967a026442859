// The test app's port is held from the moment it is chosen until the app listens: files run side by
// side, and a port chosen and let go (as before) was once taken by another file in the seconds the
// app took to build (CI: `listen EADDRINUSE` in bluesky.test.ts).
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/test-app.js';

const bind = (port: number) =>
  new Promise<string>((resolve) => {
    const srv = net.createServer();
    srv.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve('bound')));
  });

describe('createTestApp', () => {
  it('holds its port while the app is built, so no one else can take it', async () => {
    let whileBuilding = '';
    const t = await createTestApp({
      configure: async (ctx) => {
        whileBuilding = await bind(ctx.config.PORT);
      },
    });
    try {
      expect(whileBuilding).toBe('EADDRINUSE');
      expect((await fetch(`${t.baseUrl}/api/health`)).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});
