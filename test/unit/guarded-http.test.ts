import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieJar, createHttpClient, hostMatches, isPrivateAddress } from '../../src/server/adapters/http/index.js';

describe('address policy', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '0.0.0.0',
    '100.64.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '64:ff9b::a00:1',
    '224.0.0.1',
    'not-an-ip',
  ])('refuses %s', (a) => expect(isPrivateAddress(a)).toBe(true));
  it.each(['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8'])('allows %s', (a) =>
    expect(isPrivateAddress(a)).toBe(false),
  );
  it('matches exact hosts and *.domain patterns only on label boundaries', () => {
    expect(hostMatches('v16-webapp-prime.us.tiktok.com', '*.tiktok.com')).toBe(true);
    expect(hostMatches('tiktok.com', '*.tiktok.com')).toBe(true);
    expect(hostMatches('eviltiktok.com', '*.tiktok.com')).toBe(false);
    expect(hostMatches('www.tiktok.com.evil.com', '*.tiktok.com')).toBe(false);
    expect(hostMatches('WWW.TIKTOK.COM.', 'www.tiktok.com')).toBe(true);
  });
});

describe('cookie jar', () => {
  it('sends Domain cookies to subdomains, host-only cookies to their host, Secure only over https', () => {
    const jar = new CookieJar();
    jar.setFromResponse('https://www.tiktok.com/@a/video/1', [
      'tt_chain_token=abc; Domain=.tiktok.com; Path=/; Secure',
      'tt_csrf_token=x; Path=/; Secure; HttpOnly',
      'evil=1; Domain=.evil.com; Path=/',
      'tld=1; Domain=.com',
    ]);
    expect(jar.headerFor('https://v16-webapp-prime.us.tiktok.com/video/x')).toBe('tt_chain_token=abc');
    expect(jar.headerFor('https://www.tiktok.com/x')).toContain('tt_csrf_token=x');
    expect(jar.headerFor('http://www.tiktok.com/x')).toBeUndefined();
    expect(jar.headerFor('https://evil.com/')).toBeUndefined();
    expect(CookieJar.from(JSON.parse(JSON.stringify(jar.toJSON()))).get('tt_chain_token')).toBe('abc');
  });
  it('refuses cookies for a public suffix (public-suffix list), keeps them for the site', () => {
    const jar = new CookieJar();
    jar.setFromResponse('https://shop.example.co.uk/', ['wide=1; Domain=co.uk', 'site=2; Domain=example.co.uk']);
    expect(jar.headerFor('https://other.co.uk/')).toBeUndefined();
    expect(jar.headerFor('https://www.example.co.uk/')).toBe('site=2');
  });
  it('drops expired cookies', () => {
    let now = 1_000_000;
    const jar = new CookieJar(() => now);
    jar.setFromResponse('https://www.tiktok.com/', 'a=1; Max-Age=10');
    expect(jar.get('a')).toBe('1');
    now += 11_000;
    expect(jar.get('a')).toBeUndefined();
  });
});

describe('guarded client', () => {
  let server: http.Server;
  let origin = '';
  let hits = 0;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hits++;
      if (req.url === '/loop') return res.writeHead(302, { location: '/loop' }).end();
      if (req.url === '/to-loopback') return res.writeHead(302, { location: `${origin}/secret` }).end();
      if (req.url === '/to-metadata')
        return res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end();
      if (req.url === '/to-internal')
        return res.writeHead(302, { location: 'https://internal.example-platform.com/latest/meta-data' }).end();
      if (req.url === '/big') return res.end(Buffer.alloc(2_000_000, 97));
      if (req.url === '/slow') return void setTimeout(() => res.end('late'), 2000);
      res.end(JSON.stringify({ host: req.headers.host, cookie: req.headers.cookie ?? null }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const client = () => createHttpClient({ hostMap: { '*.example-platform.com': origin }, headersTimeoutMs: 500 });
  const allow = ['*.example-platform.com'];

  it('re-routes mapped hosts below the client while callers see the real URL and Host', async () => {
    const res = await client().getText('https://www.example-platform.com/page', { allow });
    expect(res.url).toBe('https://www.example-platform.com/page');
    expect(JSON.parse(res.text).host).toBe('www.example-platform.com');
  });

  it.each([
    ['a foreign host', 'https://evil.example/'],
    ['a look-alike host', 'https://www.example-platform.com.evil.com/'],
    ['a userinfo trick', 'https://www.example-platform.com@127.0.0.1/'],
    ['credentials', 'https://u:p@www.example-platform.com/'],
    ['plain http', 'http://www.example-platform.com/'],
    ['a custom port', 'https://www.example-platform.com:8443/'],
    ['a loopback literal', 'https://127.0.0.1/'],
    ['a file URL', 'file:///etc/passwd'],
  ])('refuses %s without connecting', async (_label, url) => {
    const before = hits;
    await expect(client().request(url, { allow })).rejects.toMatchObject({ code: 'upstream.blocked' });
    expect(hits).toBe(before);
  });

  it('re-checks every redirect: hosts off the allow-list are refused', async () => {
    await expect(client().request('https://www.example-platform.com/to-loopback', { allow })).rejects.toMatchObject({
      code: 'upstream.blocked',
    });
    await expect(
      client().request('https://www.example-platform.com/to-metadata', { allow, allowHttp: true }),
    ).rejects.toMatchObject({ code: 'upstream.blocked' });
  });

  it('re-checks every redirect: an allowed host whose address is private is refused', async () => {
    // Only www is mapped to the local server; the redirect's target passes the allow-list, so only
    // the private-address check (at connect time, on the DNS answer) can stop it.
    const c = createHttpClient({
      hostMap: { 'www.example-platform.com': origin },
      lookup: async (host) => [
        { address: host === 'internal.example-platform.com' ? '169.254.169.254' : '93.184.216.34', family: 4 },
      ],
    });
    const before = hits;
    await expect(c.request('https://www.example-platform.com/to-internal', { allow })).rejects.toMatchObject({
      code: 'upstream.blocked',
      message: 'This link points to a private address.',
    });
    expect(hits).toBe(before + 1); // the first hop was served; the redirect never connected
  });

  it('stops redirect loops', async () => {
    await expect(
      client().request('https://www.example-platform.com/loop', { allow, maxRedirects: 3 }),
    ).rejects.toMatchObject({ code: 'upstream.unavailable' });
  });

  it('refuses a host whose DNS answer is private (checked at connect time)', async () => {
    const c = createHttpClient({ lookup: async () => [{ address: '10.0.0.7', family: 4 }] });
    await expect(c.request('https://cdn.example-platform.com/file', { allow })).rejects.toMatchObject({
      code: 'upstream.blocked',
    });
    const real = createHttpClient();
    await expect(real.request('https://localhost/', { allow: ['localhost'] })).rejects.toMatchObject({
      code: 'upstream.blocked',
    });
  });

  it('enforces the page byte ceiling and the headers timeout', async () => {
    const res = await client().request('https://www.example-platform.com/big', { allow });
    await expect(res.text(1_000_000)).rejects.toMatchObject({ code: 'upstream.too_large' });
    await expect(client().request('https://www.example-platform.com/slow', { allow })).rejects.toMatchObject({
      code: 'upstream.timeout',
    });
  });
});
