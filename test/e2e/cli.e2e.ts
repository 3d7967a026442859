// The admin command line, as an operator runs it: against PostgreSQL, and against PGlite both
// while the server runs (through its admin socket) and while it is stopped.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../helpers/e2e.js';
import { createPostgresDatabase } from '../helpers/test-db.js';
import { TestClient } from '../helpers/test-app.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

function cli(args: string[], env: Record<string, string>): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ['dist/server/cli.js', ...args], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', ...env },
    });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (out += d));
    p.on('exit', (code) => resolve({ code: code ?? 1, out: out.trim() }));
  });
}

async function signIn(server: RunningServer, email: string, password: string) {
  const c = new TestClient(server.url);
  const res = await c.post('/api/auth/login', { email, password });
  return { status: res.status, me: res.status === 200 ? await (await c.get('/api/auth/user')).json() : null };
}

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe('admin command line', () => {
  it('works live against PostgreSQL', async () => {
    const db = await createPostgresDatabase();
    cleanups.push(db.drop);
    const env = { DATABASE_URL: db.url, ADMIN_EMAILS: 'boss@example.com' };
    expect((await cli(['db:migrate'], env)).out).toMatch(/Migrations applied \(postgres\)/);
    const server = await startServer(env);
    cleanups.push(server.stop);

    const created = await cli(
      ['user:create', '--email', 'Boss@Example.com', '--password', 'a long password', '--pro', '--admin'],
      env,
    );
    expect(created.code, created.out).toBe(0);
    expect(created.out).toMatch(/Created boss@example.com with Pro/);
    let me = (await signIn(server, 'boss@example.com', 'a long password')).me;
    expect(me).toMatchObject({ isPro: true, isAdmin: true });

    expect((await cli(['user:revoke-pro', 'boss@example.com'], env)).code).toBe(0);
    me = (await signIn(server, 'boss@example.com', 'a long password')).me;
    expect(me.isPro).toBe(false);
    expect((await cli(['user:grant-pro', 'boss@example.com'], env)).code).toBe(0);
    expect((await signIn(server, 'boss@example.com', 'a long password')).me.isPro).toBe(true);
    // Admin comes from the CLI, not from ADMIN_EMAILS alone (a password sign-up is unverified).
    expect((await cli(['user:revoke-admin', 'boss@example.com'], env)).code).toBe(0);
    expect((await signIn(server, 'boss@example.com', 'a long password')).me.isAdmin).toBe(false);
    expect((await cli(['user:grant-admin', 'boss@example.com'], env)).code).toBe(0);
    expect((await signIn(server, 'boss@example.com', 'a long password')).me.isAdmin).toBe(true);

    const dup = await cli(['user:create', '--email', 'boss@example.com', '--password', 'another password'], env);
    expect(dup.code).toBe(1);
    expect(dup.out).toMatch(/already exists/);
    const short = await cli(['user:create', '--email', 'x@example.com', '--password', 'short'], env);
    expect(short.code).toBe(1);
    expect(short.out).toMatch(/at least 8 characters/);
    const unknown = await cli(['user:grant-pro', 'ghost@example.com'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.out).toMatch(/No account with the email ghost@example.com/);
    const usage = await cli(['no:such-command'], env);
    expect(usage.code).toBe(1);
    expect(usage.out).toMatch(/Usage: npm run cli/);
  }, 180_000);

  it('works against PGlite while the server runs, and after it stops', async () => {
    const server = await startServer();
    const env = { DATA_DIR: server.dataDir };
    const live = await cli(['user:create', '--email', 'live@example.com', '--password', 'a long password'], env);
    expect(live.code, live.out).toBe(0);
    expect((await signIn(server, 'live@example.com', 'a long password')).status).toBe(200);
    expect((await cli(['user:grant-pro', 'live@example.com'], env)).code).toBe(0);
    expect((await signIn(server, 'live@example.com', 'a long password')).me.isPro).toBe(true);

    // Stopped: the CLI opens the embedded database itself; the next start sees the change.
    const dataDir = server.dataDir;
    await server.stop({ keepData: true });
    expect(fs.existsSync(path.join(dataDir, 'admin.sock'))).toBe(false);
    const offline = await cli(['user:revoke-pro', 'live@example.com'], env);
    expect(offline.code, offline.out).toBe(0);
    const again = await startServer({ DATA_DIR: dataDir });
    cleanups.push(again.stop);
    expect((await signIn(again, 'live@example.com', 'a long password')).me.isPro).toBe(false);
  }, 180_000);

  it('stops the server start with one line naming a bad variable', async () => {
    const bad = await new Promise<{ code: number; out: string }>((resolve) => {
      const p = spawn(process.execPath, ['dist/server/main.js'], {
        cwd: ROOT,
        env: { ...process.env, PORT: 'eighty' },
      });
      let out = '';
      p.stderr.on('data', (d) => (out += d));
      p.on('exit', (code) => resolve({ code: code ?? 1, out: out.trim() }));
    });
    expect(bad.code).toBe(1);
    expect(bad.out.split('\n')).toHaveLength(1);
    expect(bad.out).toMatch(/^Invalid configuration: PORT /);
  });
});
