// Builds the real app on a test database, listening on 127.0.0.1 with a random port, and a small
// cookie-keeping HTTP client that sends a same-origin Origin header like a browser would.
import net from 'node:net';
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../../src/server/config.js';
import { createContext, type AppContext, type ContextOverrides } from '../../src/server/context.js';
import { buildApp } from '../../src/server/app.js';
import type { Database, DbKind } from '../../src/server/db/client.js';
import { openTestDatabase } from './test-db.js';

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  baseUrl: string;
  client(): TestClient;
  /** A new account, signed in; options are applied directly in the database. */
  signUp(opts?: {
    email?: string;
    pro?: boolean;
    downloadCount?: number;
  }): Promise<TestClient & { userId: string; email: string }>;
  close(): Promise<void>;
}

let seq = 0;

/**
 * A free port, held by a listening socket until `release`, just before the app listens: files run
 * side by side, and a port let go while the app was built (seconds) was once taken meanwhile.
 */
async function reservePort(): Promise<{ port: number; release: () => Promise<void> }> {
  const srv = net.createServer();
  await new Promise<void>((resolve, reject) => {
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', resolve);
  });
  let released: Promise<void> | undefined;
  return {
    port: (srv.address() as net.AddressInfo).port,
    release: () => (released ??= new Promise<void>((r) => srv.close(() => r()))),
  };
}

export async function createTestApp(
  opts: {
    db?: DbKind;
    database?: Database;
    env?: Record<string, string>;
    overrides?: ContextOverrides;
    /** Runs before the app is built; may be async. */
    configure?: (ctx: AppContext) => unknown;
    /** A built client to serve (default: none, so pages answer 503). */
    clientDir?: string;
    /**
     * Return once listening, before the job queue is up (it starts after the listen, decision
     * 0075). By default the queue is up first, as the tests of several nodes on one database need.
     */
    beforeQueue?: boolean;
  } = {},
): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'smt-test-'));
  // The port is known before the config, so the default PUBLIC_URL (http://localhost:PORT) is this
  // server: the Origin check accepts only PUBLIC_URL (and its loopback aliases), never the Host.
  const reserved = opts.env?.PORT ? undefined : await reservePort();
  const port = reserved?.port ?? Number(opts.env?.PORT);
  const config: Config = loadConfig({
    NODE_ENV: 'test',
    PORT: String(port),
    DATA_DIR: dataDir,
    SESSION_SECRET: 'test-secret-test-secret-test-secret-0123',
    LOG_LEVEL: 'silent',
    // Never the real model host, whatever NODE_ENV a test sets (a test opts in with a stand-in).
    WHISPER_AUTO_FETCH: 'off',
    ...opts.env,
  });
  const database = opts.database ?? (await openTestDatabase(opts.db ?? 'pglite'));
  const ctx = createContext(config, database, pino({ level: config.LOG_LEVEL }), opts.overrides);
  let app: Awaited<ReturnType<typeof buildApp>>;
  try {
    await opts.configure?.(ctx);
    app = await buildApp(ctx, { clientDir: opts.clientDir ?? path.join(dataDir, 'no-client') });
  } finally {
    await reserved?.release();
  }
  await app.listen({ port, host: '127.0.0.1' });
  if (!opts.beforeQueue) await ctx.background.started();
  const baseUrl = `http://127.0.0.1:${port}`;
  const testApp: TestApp = {
    app,
    ctx,
    baseUrl,
    client: () => new TestClient(baseUrl),
    async signUp(o = {}) {
      const c = new TestClient(baseUrl);
      const email = o.email ?? `user${Date.now()}_${++seq}@example.com`;
      const res = await c.post('/api/auth/register', { email, password: 'correct horse battery' });
      if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
      const { id } = (await res.json()) as { id: string };
      if (o.pro || o.downloadCount !== undefined) {
        await ctx.repos.users.update(id, {
          ...(o.pro ? { proGranted: true } : {}),
          ...(o.downloadCount !== undefined ? { downloadCount: o.downloadCount } : {}),
        });
      }
      return Object.assign(c, { userId: id, email });
    },
    async close() {
      // As main.ts does after its grace period: a keep-alive connection left by a client that
      // aborted must not hold the close for Fastify's 72 s keep-alive timeout.
      const closing = app.close();
      app.server.closeAllConnections();
      await closing;
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return testApp;
}

export class TestClient {
  cookies = new Map<string, string>();
  constructor(readonly baseUrl: string) {}

  async request(method: string, p: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    const h: Record<string, string> = { origin: this.baseUrl, ...headers };
    if (this.cookies.size) h.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let payload: string | undefined;
    if (body !== undefined) {
      h['content-type'] ??= 'application/json';
      payload = typeof body === 'string' ? body : JSON.stringify(body);
    }
    const res = await fetch(this.baseUrl + p, { method, headers: h, body: payload, redirect: 'manual' });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      const name = pair.slice(0, i);
      const value = pair.slice(i + 1);
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(c) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }
  get(p: string, headers?: Record<string, string>) {
    return this.request('GET', p, undefined, headers);
  }
  post(p: string, body?: unknown, headers?: Record<string, string>) {
    return this.request('POST', p, body ?? {}, headers);
  }
  patch(p: string, body?: unknown) {
    return this.request('PATCH', p, body ?? {});
  }
  put(p: string, body?: unknown) {
    return this.request('PUT', p, body ?? {});
  }
  delete(p: string) {
    return this.request('DELETE', p);
  }
}
