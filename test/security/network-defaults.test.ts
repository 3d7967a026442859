// Free Pro on the network by default (issue 31): `npm start` with no configuration listened on
// every interface while its localhost PUBLIC_URL turned the test checkout on, and the Origin check
// took an Origin equal to the request's own Host. Anyone on the same network registered, approved
// a test payment and was Pro. Now: loopback only until PUBLIC_URL or HOST says otherwise, the
// Origin must be PUBLIC_URL's, and the test checkout answers only PUBLIC_URL from this machine.
// Issue 34: with HOST=0.0.0.0 and a localhost PUBLIC_URL the start line said neighbours "cannot sign
// in or change anything", yet a script sending a matching Origin signed up and used its session.
// Now every state-changing request from another machine is refused there, as the line says.
import http from 'node:http';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.js';
import { isLoopbackAddress } from '../../src/server/lib/site-origin.js';
import { startServer, type RunningServer } from '../helpers/e2e.js';

/** This machine's address on its network (what a neighbour would connect to). */
function lanAddress(): string {
  const found = Object.values(os.networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal);
  if (!found) throw new Error('this test needs a non-loopback IPv4 interface (a neighbour to connect from)');
  return found.address;
}

/** A raw HTTP request, Host and Origin as a stranger chooses them (fetch would not let us set Host). */
function request(
  address: string,
  port: number,
  opts: { method?: string; path: string; host: string; origin?: string; cookie?: string; body?: unknown },
): Promise<{ status: number; body: string; cookie?: string }> {
  const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: address,
        port,
        method: opts.method ?? 'GET',
        path: opts.path,
        headers: {
          host: opts.host,
          ...(opts.origin ? { origin: opts.origin } : {}),
          ...(opts.cookie ? { cookie: opts.cookie } : {}),
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
      },
      (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body, cookie: res.headers['set-cookie']?.[0]?.split(';')[0] }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('the listen address follows PUBLIC_URL and HOST', () => {
  const base = { SESSION_SECRET: 'x'.repeat(40), DATA_DIR: os.tmpdir() };
  it('is loopback with no configuration or a localhost PUBLIC_URL, every interface for a public one', () => {
    expect(loadConfig(base).HOST).toBe('localhost');
    expect(loadConfig({ ...base, PUBLIC_URL: 'http://127.0.0.1:5000' }).HOST).toBe('localhost');
    expect(loadConfig({ ...base, PUBLIC_URL: 'https://toolkit.example.com' }).HOST).toBe('0.0.0.0');
    expect(loadConfig({ ...base, HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
    expect(loadConfig({ ...base, HOST: '192.0.2.9', PUBLIC_URL: 'https://toolkit.example.com' }).HOST).toBe(
      '192.0.2.9',
    );
  });

  it('knows loopback peers, IPv4-mapped ones included', () => {
    expect(['127.0.0.1', '::1', '::ffff:127.0.0.1', '127.1.2.3'].every(isLoopbackAddress)).toBe(true);
    expect(['192.0.2.2', '::ffff:192.0.2.2', 'fd00::2', '', undefined].some(isLoopbackAddress)).toBe(false);
  });
});

describe('npm start with no configuration', () => {
  let server: RunningServer;
  beforeAll(async () => {
    // HOST empty = unset (startServer would pin 127.0.0.1); no PUBLIC_URL.
    server = await startServer({ HOST: '', LOG_LEVEL: 'info' });
  }, 90_000);
  afterAll(() => server?.stop());

  it('cannot be reached from the network, and its start line says so', async () => {
    const port = Number(server.env.PORT);
    const neighbour = request(lanAddress(), port, { path: '/api/health', host: `${lanAddress()}:${port}` });
    await expect(neighbour).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect((await request('127.0.0.1', port, { path: '/api/health', host: `localhost:${port}` })).status).toBe(200);
    expect(server.logs()).toContain(`reachable from this machine only, at http://localhost:${port}`);
    expect(server.logs()).toContain(`TEST CHECKOUT (Pro without payment, only at http://localhost:${port} from this`);
  });
});

describe('HOST=0.0.0.0 with the default (localhost) PUBLIC_URL', () => {
  let server: RunningServer;
  let port: number;
  let lan: string;
  beforeAll(async () => {
    server = await startServer({ HOST: '0.0.0.0', LOG_LEVEL: 'info' });
    port = Number(server.env.PORT);
    lan = lanAddress();
  }, 90_000);
  afterAll(() => server?.stop());

  it('says exactly what other machines can do: GET requests, nothing that changes anything', async () => {
    // /api/health answers a moment before the start line is written: wait for the line.
    await expect.poll(() => server.logs()).toContain('listening on 0.0.0.0:');
    expect(server.logs()).toContain(
      `but PUBLIC_URL is http://localhost:${port}: they can send GET requests (read pages and the API), ` +
        'but every POST, PUT, PATCH or DELETE of theirs (signing up and in included) is refused (403)',
    );
  });

  it('refuses a neighbour that forges Host and Origin to sign up, while it may read', async () => {
    const forged = { host: `localhost:${port}`, origin: `http://localhost:${port}` };
    const reg = await request(lan, port, {
      method: 'POST',
      path: '/api/auth/register',
      ...forged,
      body: { email: 'script@example.com', password: 'correct horse battery' },
    });
    expect(reg.status).toBe(403);
    expect(JSON.parse(reg.body)).toMatchObject({
      code: 'auth.this_machine_only',
      message: `This server is set up for the machine it runs on (http://localhost:${port}): from other machines it can be read, not used. Its operator sets PUBLIC_URL to serve them.`,
    });
    expect(reg.cookie).toBeUndefined();
    const login = await request(lan, port, {
      method: 'POST',
      path: '/api/auth/login',
      ...forged,
      body: { email: 'script@example.com', password: 'correct horse battery' },
    });
    expect(login.status).toBe(403);
    expect((await request(lan, port, { path: '/api/health', ...forged })).status).toBe(200);
  });

  it('refuses a neighbour whose Origin is merely its own Host', async () => {
    const own = `${lan}:${port}`;
    const reg = await request(lan, port, {
      method: 'POST',
      path: '/api/auth/register',
      host: own,
      origin: `http://${own}`,
      body: { email: 'neighbour@example.com', password: 'correct horse battery' },
    });
    expect(reg.status).toBe(403);
    expect(JSON.parse(reg.body).code).toBe('auth.bad_origin');
  });

  it('gives a neighbour no test checkout, even with a forged Host and Origin and a session made here', async () => {
    const forged = { host: `localhost:${port}`, origin: `http://localhost:${port}` };
    // The account is made on this machine; its session cookie then travels to the neighbour.
    const reg = await request('127.0.0.1', port, {
      method: 'POST',
      path: '/api/auth/register',
      ...forged,
      body: { email: 'forger@example.com', password: 'correct horse battery' },
    });
    expect(reg.status).toBe(201);
    const create = await request(lan, port, {
      method: 'POST',
      path: '/api/subscription/create',
      ...forged,
      cookie: reg.cookie,
      body: {},
    });
    expect(create.status).toBe(403);
    expect(JSON.parse(create.body).code).toBe('auth.this_machine_only');
    // The same person on this machine gets it.
    const here = await request('127.0.0.1', port, {
      method: 'POST',
      path: '/api/subscription/create',
      ...forged,
      cookie: reg.cookie,
      body: {},
    });
    expect(here.status).toBe(200);
    const { approvalUrl } = JSON.parse(here.body);
    const approve = `${new URL(approvalUrl).pathname}/approve`;
    const stranger = await request(lan, port, { method: 'POST', path: approve, ...forged, cookie: reg.cookie });
    expect(stranger.status).toBe(403);
    const page = await request(lan, port, { path: new URL(approvalUrl).pathname, ...forged });
    expect(page.status).toBe(403);
    // Asked from this machine by another name than PUBLIC_URL's: refused too.
    const renamed = await request('127.0.0.1', port, { path: new URL(approvalUrl).pathname, host: `tk.lan:${port}` });
    expect(renamed.status).toBe(403);
  });
});
