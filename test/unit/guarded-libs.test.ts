// Libraries with a fetch of their own (openid-client for OIDC sign-in, aws4fetch for the S3 media
// store) get the guarded fetch (decision 0017): the configured origin only, redirects leaving it
// refused before any connection, private addresses refused unless configured, time and size
// limits, bodies streamed. Every upstream here is a small HTTP server on 127.0.0.1.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createGuardedFetch } from '../../src/server/adapters/http/index.js';
import { createOidcAdapter } from '../../src/server/adapters/oidc/oidc.adapter.js';
import { createS3Store } from '../../src/server/adapters/storage/media-store.js';
import { startFakeS3 } from '../fakes/fake-s3.js';

interface Upstream {
  url: string;
  hits: string[];
  close(): Promise<void>;
}

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((u) => u.close()));
});

/** A server on 127.0.0.1; `host` names it in its URL (127.0.0.1 or localhost: another host). */
async function upstream(
  handler: (req: http.IncomingMessage, res: http.ServerResponse, base: string) => void,
  host = '127.0.0.1',
): Promise<Upstream> {
  const hits: string[] = [];
  let base = '';
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    req.resume();
    req.on('end', () => handler(req, res, base));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://${host}:${(server.address() as { port: number }).port}`;
  const u: Upstream = {
    url: base,
    hits,
    close: () => new Promise<void>((r) => server.close(() => r())).then(() => void server.closeAllConnections()),
  };
  open.push(u);
  return u;
}

const json = (res: http.ServerResponse, body: unknown, status = 200) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

/** An OpenID provider's discovery document on 127.0.0.1, with endpoints overridden. */
async function provider(
  endpoints: Record<string, string> = {},
  onOther?: (req: http.IncomingMessage, res: http.ServerResponse) => void,
) {
  return upstream((req, res, base) => {
    if (req.url === '/.well-known/openid-configuration')
      return json(res, {
        issuer: base,
        authorization_endpoint: `${base}/auth`,
        token_endpoint: `${base}/token`,
        userinfo_endpoint: `${base}/me`,
        jwks_uri: `${base}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        ...endpoints,
      });
    if (onOther) return onOther(req, res);
    json(res, { error: 'invalid_grant' }, 400);
  });
}

const adapter = (issuerUrl: string, extra: Partial<Parameters<typeof createOidcAdapter>[0]> = {}) =>
  createOidcAdapter({ issuerUrl, clientId: 'client', clientSecret: 'secret-0123456789', ...extra });

const login = { state: 'st', nonce: 'no', codeVerifier: 'v'.repeat(43) };

describe('OIDC sign-in through the guarded fetch', () => {
  it('discovers and builds the sign-in URL on the configured issuer (http on loopback)', async () => {
    const idp = await provider();
    const { url } = await adapter(idp.url).start('http://app.test/api/callback');
    expect(url.startsWith(`${idp.url}/auth?`)).toBe(true);
    expect(idp.hits).toEqual(['GET /.well-known/openid-configuration']);
  });

  it('refuses a discovery document whose token_endpoint is on another host (here: loopback, http)', async () => {
    const other = await upstream((_req, res) => json(res, { access_token: 'x' }), 'localhost');
    const idp = await provider({ token_endpoint: `${other.url}/token` });
    await expect(adapter(idp.url).start('http://app.test/cb')).rejects.toThrow(
      new RegExp(
        /OIDC provider: its token_endpoint \(http:\/\/localhost:\d+\) is refused: /.source +
          /an endpoint outside the issuer's origin .* must be https on the default port at a public address/.source,
      ),
    );
    await expect(adapter(idp.url).finish(new URL('http://app.test/cb?code=c&state=st'), login)).rejects.toThrow(
      /token_endpoint/,
    );
    expect(other.hits).toEqual([]);
  });

  it('refuses a token_endpoint at the cloud metadata address', async () => {
    const idp = await provider({ token_endpoint: 'https://169.254.169.254/latest/meta-data/' });
    await expect(adapter(idp.url).start('http://app.test/cb')).rejects.toThrow(
      /its token_endpoint \(https:\/\/169\.254\.169\.254\) is refused/,
    );
  });

  it('refuses a jwks_uri or userinfo_endpoint on another port of the issuer host', async () => {
    const idp = await provider({ jwks_uri: 'http://127.0.0.1:1/jwks' });
    await expect(adapter(idp.url).start('http://app.test/cb')).rejects.toThrow(/its jwks_uri .* is refused/);
  });

  it('reaches a public https token endpoint the document names on another host (a split provider)', async () => {
    const tokens = await upstream((_req, res) => json(res, { error: 'invalid_grant' }, 400));
    const idp = await provider({ token_endpoint: 'https://tokens.idp.test/token' });
    const oidc = adapter(idp.url, { hostMap: { 'tokens.idp.test': tokens.url } });
    await oidc.start('http://app.test/cb');
    await expect(oidc.finish(new URL('http://app.test/cb?code=c&state=st'), login)).rejects.toThrow();
    expect(tokens.hits).toEqual(['POST /token']);
  });

  it('refuses that other host when its name resolves to a private address, without connecting', async () => {
    const idp = await provider({ token_endpoint: 'https://tokens.idp.test/token' });
    const asked: string[] = [];
    const oidc = adapter(idp.url, {
      lookup: async (hostname) => {
        asked.push(hostname);
        return [{ address: '10.0.0.7', family: 4 }];
      },
    });
    await oidc.start('http://app.test/cb');
    await expect(oidc.finish(new URL('http://app.test/cb?code=c&state=st'), login)).rejects.toMatchObject({
      code: 'upstream.blocked',
      message: expect.stringMatching(/private address/),
    });
    expect(asked).toEqual(['tokens.idp.test']);
  });

  it('gives up on a provider that does not answer, within the timeout', async () => {
    const idp = await upstream(() => {}); // never answers
    const started = Date.now();
    const err = await adapter(idp.url, { timeoutMs: 300 })
      .start('http://app.test/cb')
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'upstream.timeout' });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('refuses a discovery document over the size cap', async () => {
    const idp = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"issuer":"x","pad":"${'a'.repeat(2 * 1024 * 1024)}"}`);
    });
    await expect(adapter(idp.url).start('http://app.test/cb')).rejects.toMatchObject({
      code: 'upstream.too_large',
      message: expect.stringMatching(/larger than allowed/),
    });
  });
});

describe('S3 media store through the guarded fetch', () => {
  const s3cfg = (endpoint: string) => ({
    endpoint,
    bucket: 'media',
    region: 'us-east-1',
    accessKeyId: 'AKIDTEST',
    secretAccessKey: 'secret',
  });

  it('stores (streamed from disk, payload signed) and reads back an object', async () => {
    const s3 = await startFakeS3({ bucket: 'media', accessKeyId: 'AKIDTEST' });
    open.push(s3);
    const store = createS3Store(s3cfg(s3.url));
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'guarded-s3-')), 'a.mp3');
    const bytes = Buffer.alloc(3 * 1024 * 1024 + 7, 'x');
    fs.writeFileSync(file, bytes);
    await store.put('audio/a.mp3', file, 'audio/mpeg');
    expect(s3.objects.get('audio/a.mp3')?.body.equals(bytes)).toBe(true);
    expect(await store.size('audio/a.mp3')).toBe(bytes.length);
    const chunks: Buffer[] = [];
    for await (const c of (await store.open('audio/a.mp3', { start: 5, end: 9 }))!) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('xxxxx');
    expect(await store.open('audio/missing.mp3')).toBeNull();
    await store.delete('audio/a.mp3');
    expect(s3.log).toEqual([
      'PUT audio/a.mp3',
      'HEAD audio/a.mp3',
      'GET audio/a.mp3',
      'GET audio/missing.mp3',
      'DELETE audio/a.mp3',
    ]);
  });

  it('refuses a redirect from the S3 endpoint to another origin: the other one is never asked', async () => {
    const other = await upstream((_req, res) => res.end('stolen'), 'localhost');
    const s3 = await upstream((req, res) => {
      res.writeHead(307, { location: `${other.url}${req.url}` });
      res.end();
    });
    await expect(createS3Store(s3cfg(s3.url)).open('audio/a.mp3')).rejects.toMatchObject({
      code: 'upstream.blocked',
      message: expect.stringMatching(/not the configured endpoint/),
    });
    await expect(createS3Store(s3cfg(s3.url)).delete('audio/a.mp3')).rejects.toMatchObject({
      code: 'upstream.blocked',
    });
    expect(other.hits).toEqual([]);
    expect(s3.hits).toEqual(['GET /media/audio/a.mp3', 'DELETE /media/audio/a.mp3']);
  });

  it('refuses a redirect to the cloud metadata address', async () => {
    const s3 = await upstream((_req, res) => {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
      res.end();
    });
    await expect(createS3Store(s3cfg(s3.url)).size('audio/a.mp3')).rejects.toMatchObject({ code: 'upstream.blocked' });
  });

  it('streams a download (the first bytes arrive before the object ends) and times out on silence', async () => {
    let finish = () => {};
    const s3 = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'audio/mpeg' });
      res.write(Buffer.alloc(64 * 1024, 'a'));
      finish = () => res.end(Buffer.from('end'));
    });
    const store = createS3Store(
      s3cfg(s3.url),
      createGuardedFetch({ endpoint: s3.url, timeoutMs: 400, maxBytes: 1 << 30 }) as typeof fetch,
    );
    const body = (await store.open('audio/a.mp3'))!;
    const it = body[Symbol.asyncIterator]();
    expect(((await it.next()).value as Buffer).length).toBeGreaterThan(0); // not buffered whole
    // The object never ends: the silence limit cuts it.
    const rest = (async () => {
      for (;;) if ((await it.next()).done) return 'ended';
    })();
    await expect(rest).rejects.toMatchObject({ code: 'upstream.timeout' });
    finish();
  });
});

describe('the guarded fetch', () => {
  it('refuses another origin before connecting, and returns a 3xx as it is with redirect: manual', async () => {
    const other = await upstream((_req, res) => res.end('x'), 'localhost');
    const api = await upstream((_req, res) => {
      res.writeHead(302, { location: `${other.url}/x` });
      res.end();
    });
    const f = createGuardedFetch({ endpoint: api.url, timeoutMs: 5000, maxBytes: 1024 });
    open.push(f);
    await expect(f(`${other.url}/x`)).rejects.toMatchObject({ code: 'upstream.blocked' });
    const res = await f(`${api.url}/a`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`${other.url}/x`);
    await expect(f(`${api.url}/a`, { redirect: 'error' })).rejects.toThrow(/redirect/);
    expect(other.hits).toEqual([]);
  });

  it('sends a form body and reads an answer', async () => {
    const api = await upstream((req, res) => json(res, { method: req.method, type: req.headers['content-type'] }));
    const f = createGuardedFetch({ endpoint: api.url, timeoutMs: 5000, maxBytes: 1024 });
    open.push(f);
    const res = await f(`${api.url}/token`, { method: 'POST', body: new URLSearchParams({ a: '1' }) });
    expect(await res.json()).toEqual({ method: 'POST', type: 'application/x-www-form-urlencoded;charset=UTF-8' });
    expect(res.url).toBe(`${api.url}/token`);
  });
});
