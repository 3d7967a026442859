// The lean transport behind `bulk: true` (whole media files). Raw TCP servers let the tests send
// exactly the bytes a broken or hostile upstream would.
import net from 'node:net';
import http from 'node:http';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieJar, createHttpClient } from '../../src/server/adapters/http/index.js';
import { parseHead } from '../../src/server/adapters/http/bulk-transport.js';

const allow = ['*.example-platform.com'];
const FILE = Buffer.alloc(6 * 1024 * 1024);
for (let i = 0; i < FILE.length; i += 4) FILE.writeUInt32LE(i, i);

let origin = '';
let rawOrigin = '';
let lastRequest = '';
const servers: Array<http.Server | net.Server> = [];

beforeAll(async () => {
  const web = http.createServer((req, res) => {
    lastRequest = JSON.stringify({ url: req.url, host: req.headers.host, cookie: req.headers.cookie, referer: req.headers.referer });
    if (req.url === '/file') {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': FILE.length, 'set-cookie': ['a=1; Path=/', 'b=2; Path=/'] });
      return res.end(FILE);
    }
    if (req.url === '/chunked') {
      res.writeHead(200, { 'content-type': 'video/mp4' }); // no length: node sends it chunked
      res.write(FILE.subarray(0, 1000));
      return setTimeout(() => res.end(FILE.subarray(1000, 5000)), 20);
    }
    if (req.url === '/moved') return res.writeHead(302, { location: '/file' }).end();
    if (req.url === '/to-loopback') return res.writeHead(302, { location: `${origin}/file` }).end();
    res.writeHead(404).end('nope');
  });
  // Answers chosen by path: a head and body written verbatim.
  const raw = net.createServer((socket) => {
    socket.once('data', (data) => {
      const path = data.toString('latin1').split(' ')[1];
      const head = (len: number | string) => `HTTP/1.1 200 OK\r\ncontent-length: ${len}\r\n\r\n`;
      if (path === '/half') {
        socket.write(head(1000));
        socket.end(Buffer.alloc(400, 1));
      } else if (path === '/extra') {
        socket.end(Buffer.concat([Buffer.from(head(10)), Buffer.from('0123456789EXTRA-BYTES')]));
      } else if (path === '/continue') {
        socket.end('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok');
      } else if (path === '/no-length') {
        socket.end('HTTP/1.1 200 OK\r\n\r\nuntil close');
      } else if (path === '/bad-length') {
        socket.end('HTTP/1.1 200 OK\r\ncontent-length: 5\r\ncontent-length: 6\r\n\r\nhello!');
      } else if (path === '/garbage') {
        socket.end('SSH-2.0-OpenSSH\r\n\r\n');
      } else if (path === '/stall') {
        socket.write(head(100) + 'only-a-little');
      } // '/silent': never answers
    });
    socket.on('error', () => {});
  });
  for (const s of [web, raw]) {
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    servers.push(s);
  }
  origin = `http://127.0.0.1:${(web.address() as net.AddressInfo).port}`;
  rawOrigin = `http://127.0.0.1:${(raw.address() as net.AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of servers) {
    (s as http.Server).closeAllConnections?.();
    await new Promise((r) => s.close(r));
  }
});

const client = (target = origin, extra = {}) => createHttpClient({ hostMap: { '*.example-platform.com': target }, headersTimeoutMs: 400, idleTimeoutMs: 400, ...extra });
const collect = async (stream: NodeJS.ReadableStream) => {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};

describe('bulk transport', () => {
  it('relays a whole file with the real Host, cookies and headers, and keeps every set-cookie', async () => {
    const jar = new CookieJar();
    jar.setFromResponse('https://www.example-platform.com/', 'tt_chain_token=t; Domain=.example-platform.com; Path=/; Secure');
    const res = await client().request('https://cdn.example-platform.com/file', { allow, jar, bulk: true, headers: { referer: 'https://www.example-platform.com/' } });
    expect(res.status).toBe(200);
    expect(res.header('content-length')).toBe(String(FILE.length));
    expect(res.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    expect((await collect(res.body)).equals(FILE)).toBe(true);
    expect(JSON.parse(lastRequest)).toEqual({ url: '/file', host: 'cdn.example-platform.com', cookie: 'tt_chain_token=t', referer: 'https://www.example-platform.com/' });
  });

  it('follows redirects', async () => {
    const res = await client().request('https://cdn.example-platform.com/moved', { allow, bulk: true });
    expect(res.url).toBe('https://cdn.example-platform.com/file');
    expect((await collect(res.body)).length).toBe(FILE.length);
  });

  it('keeps the whole file intact through a slow reader (backpressure stops and restarts the socket)', async () => {
    const res = await client().request('https://cdn.example-platform.com/file', { allow, bulk: true });
    let got = 0;
    const parts: Buffer[] = [];
    await pipeline(
      res.body,
      new Writable({
        highWaterMark: 16 * 1024,
        write(chunk: Buffer, _e, cb) {
          parts.push(Buffer.from(chunk)); // a copy: chunks are views of a slab
          got += chunk.length;
          setTimeout(cb, 2); // slower than loopback all along: the socket is stopped and restarted many times
        },
      }),
    );
    expect(Buffer.concat(parts).equals(FILE)).toBe(true);
  });

  it('frees the connection when the reader stops asking for bytes altogether', async () => {
    const res = await client().request('https://cdn.example-platform.com/file', { allow, bulk: true });
    const failed = new Promise<Error>((resolve) => res.body.once('error', resolve));
    res.body.once('data', () => res.body.pause()); // then never reads again
    const started = Date.now();
    expect((await failed).message).toMatch(/stalled/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4 * 400 - 50); // four idle periods, not one
  });

  it('hands chunked answers to the general transport, which decodes them', async () => {
    const res = await client().request('https://cdn.example-platform.com/chunked', { allow, bulk: true });
    expect((await collect(res.body)).equals(FILE.subarray(0, 5000))).toBe(true);
  });

  it('skips informational answers and reads a body that ends with the connection', async () => {
    expect(await (await client(rawOrigin).request('https://cdn.example-platform.com/continue', { allow, bulk: true })).text()).toBe('ok');
    expect(await (await client(rawOrigin).request('https://cdn.example-platform.com/no-length', { allow, bulk: true })).text()).toBe('until close');
  });

  it('fails a body cut short instead of passing it off as the whole file', async () => {
    const res = await client(rawOrigin).request('https://cdn.example-platform.com/half', { allow, bulk: true });
    await expect(collect(res.body)).rejects.toThrow(/premature close: 400 of 1000/);
  });

  it('drops bytes past the announced length', async () => {
    const res = await client(rawOrigin).request('https://cdn.example-platform.com/extra', { allow, bulk: true });
    expect(await res.text()).toBe('0123456789');
  });

  it('refuses broken heads: conflicting lengths and non-HTTP answers', async () => {
    await expect(client(rawOrigin).request('https://cdn.example-platform.com/bad-length', { allow, bulk: true })).rejects.toMatchObject({ code: 'upstream.unavailable' });
    await expect(client(rawOrigin).request('https://cdn.example-platform.com/garbage', { allow, bulk: true })).rejects.toMatchObject({ code: 'upstream.unavailable' });
  });

  it('times out a silent upstream and a stalled body', async () => {
    await expect(client(rawOrigin).request('https://cdn.example-platform.com/silent', { allow, bulk: true })).rejects.toMatchObject({ code: 'upstream.timeout' });
    const res = await client(rawOrigin).request('https://cdn.example-platform.com/stall', { allow, bulk: true });
    await expect(collect(res.body)).rejects.toThrow();
  });

  it('stops the transfer when the caller aborts', async () => {
    const ac = new AbortController();
    const res = await client(rawOrigin).request('https://cdn.example-platform.com/stall', { allow, bulk: true, signal: ac.signal });
    setTimeout(() => ac.abort(new Error('client left')), 50);
    await expect(collect(res.body)).rejects.toThrow(/client left/);
  });

  it('keeps the guards: private DNS answers, redirects to loopback and header injection are refused', async () => {
    const privateDns = createHttpClient({ lookup: async () => [{ address: '10.0.0.7', family: 4 }] });
    await expect(privateDns.request('https://cdn.example-platform.com/file', { allow, bulk: true })).rejects.toMatchObject({ code: 'upstream.blocked' });
    await expect(client().request('https://cdn.example-platform.com/to-loopback', { allow, bulk: true })).rejects.toMatchObject({ code: 'upstream.blocked' });
    await expect(client().request('https://cdn.example-platform.com/file', { allow, bulk: true, headers: { referer: 'x\r\nx-evil: 1' } })).rejects.toMatchObject({ code: 'upstream.blocked' });
  });
});

describe('parseHead', () => {
  it('reads status, joins repeated fields and keeps set-cookie as a list', () => {
    const h = parseHead(Buffer.from('HTTP/1.1 206 Partial Content\r\nContent-Length: 7\r\nVary: a\r\nVary: b\r\nSet-Cookie: x=1\r\nSet-Cookie: y=2'));
    expect(h).toEqual({ status: 206, length: 7, headers: { 'content-length': '7', vary: 'a, b', 'set-cookie': ['x=1', 'y=2'] } });
  });
  it('accepts repeated equal lengths and refuses a negative or non-numeric one', () => {
    expect(parseHead(Buffer.from('HTTP/1.1 200 OK\r\ncontent-length: 3, 3')).length).toBe(3);
    expect(() => parseHead(Buffer.from('HTTP/1.1 200 OK\r\ncontent-length: -1'))).toThrow();
    expect(() => parseHead(Buffer.from('HTTP/1.1 200 OK\r\nbad header'))).toThrow();
  });
});
