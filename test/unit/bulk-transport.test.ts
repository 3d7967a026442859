// The lean transport behind `bulk: true` (whole media files). Raw TCP servers let the tests send
// exactly the bytes a broken or hostile upstream would.
import net from 'node:net';
import http from 'node:http';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieJar, createHttpClient } from '../../src/server/adapters/http/index.js';
import { bulkGet, parseHead } from '../../src/server/adapters/http/bulk-transport.js';
import { createBulkPool } from '../../src/server/adapters/http/bulk-pool.js';
import { freeSlabCount, handOut, releaseChunk, takeSlab } from '../../src/server/adapters/http/slabs.js';

const allow = ['*.example-platform.com'];
const FILE = Buffer.alloc(6 * 1024 * 1024);
for (let i = 0; i < FILE.length; i += 4) FILE.writeUInt32LE(i, i);

let origin = '';
let rawOrigin = '';
let lastRequest = '';
const servers: Array<http.Server | net.Server> = [];

beforeAll(async () => {
  const web = http.createServer((req, res) => {
    lastRequest = JSON.stringify({
      url: req.url,
      host: req.headers.host,
      cookie: req.headers.cookie,
      referer: req.headers.referer,
    });
    if (req.url === '/file') {
      res.writeHead(200, {
        'content-type': 'video/mp4',
        'content-length': FILE.length,
        'set-cookie': ['a=1; Path=/', 'b=2; Path=/'],
      });
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
      } else if (path === '/stall-big') {
        socket.write(head(4 * 1024 * 1024));
        socket.write(Buffer.alloc(1024 * 1024)); // then silence
      } else if (path === '/stall') {
        socket.write(`${head(100)}only-a-little`);
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

const client = (target = origin, extra = {}) =>
  createHttpClient({
    hostMap: { '*.example-platform.com': target },
    headersTimeoutMs: 400,
    idleTimeoutMs: 400,
    ...extra,
  });
const collect = async (stream: NodeJS.ReadableStream) => {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};

describe('bulk transport', () => {
  it('relays a whole file with the real Host, cookies and headers, and keeps every set-cookie', async () => {
    const jar = new CookieJar();
    jar.setFromResponse(
      'https://www.example-platform.com/',
      'tt_chain_token=t; Domain=.example-platform.com; Path=/; Secure',
    );
    const res = await client().request('https://cdn.example-platform.com/file', {
      allow,
      jar,
      bulk: true,
      headers: { referer: 'https://www.example-platform.com/' },
    });
    expect(res.status).toBe(200);
    expect(res.header('content-length')).toBe(String(FILE.length));
    expect(res.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    expect((await collect(res.body)).equals(FILE)).toBe(true);
    expect(JSON.parse(lastRequest)).toEqual({
      url: '/file',
      host: 'cdn.example-platform.com',
      cookie: 'tt_chain_token=t',
      referer: 'https://www.example-platform.com/',
    });
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
    expect(got).toBe(FILE.length);
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
    expect(
      await (
        await client(rawOrigin).request('https://cdn.example-platform.com/continue', { allow, bulk: true })
      ).text(),
    ).toBe('ok');
    expect(
      await (
        await client(rawOrigin).request('https://cdn.example-platform.com/no-length', { allow, bulk: true })
      ).text(),
    ).toBe('until close');
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
    await expect(
      client(rawOrigin).request('https://cdn.example-platform.com/bad-length', { allow, bulk: true }),
    ).rejects.toMatchObject({ code: 'upstream.unavailable' });
    await expect(
      client(rawOrigin).request('https://cdn.example-platform.com/garbage', { allow, bulk: true }),
    ).rejects.toMatchObject({ code: 'upstream.unavailable' });
  });

  it('times out a silent upstream and a stalled body', async () => {
    await expect(
      client(rawOrigin).request('https://cdn.example-platform.com/silent', { allow, bulk: true }),
    ).rejects.toMatchObject({ code: 'upstream.timeout' });
    const res = await client(rawOrigin).request('https://cdn.example-platform.com/stall', { allow, bulk: true });
    await expect(collect(res.body)).rejects.toThrow();
  });

  it('still times out a silent upstream after the reader was the slow side for a while', async () => {
    const res = await client(rawOrigin).request('https://cdn.example-platform.com/stall-big', { allow, bulk: true });
    const failed = new Promise<Error>((resolve) => res.body.once('error', resolve));
    let got = 0;
    res.body.on('data', (c: Buffer) => (got += c.length));
    res.body.once('data', () => {
      res.body.pause(); // longer than one idle period: that timeout is the reader's, not the site's
      setTimeout(() => res.body.resume(), 600);
    });
    const started = Date.now();
    expect(await failed).toMatchObject({ code: 'upstream.timeout' });
    expect(got).toBe(1024 * 1024); // everything the site sent was read before its silence counted
    expect(Date.now() - started).toBeLessThan(1500); // the site's silence was caught, not the stall guard's 1.6 s
  });

  it('stops the transfer when the caller aborts', async () => {
    const ac = new AbortController();
    const res = await client(rawOrigin).request('https://cdn.example-platform.com/stall', {
      allow,
      bulk: true,
      signal: ac.signal,
    });
    setTimeout(() => ac.abort(new Error('client left')), 50);
    await expect(collect(res.body)).rejects.toThrow(/client left/);
  });

  it('keeps the guards: private DNS answers, redirects to loopback and header injection are refused', async () => {
    const privateDns = createHttpClient({ lookup: async () => [{ address: '10.0.0.7', family: 4 }] });
    await expect(
      privateDns.request('https://cdn.example-platform.com/file', { allow, bulk: true }),
    ).rejects.toMatchObject({ code: 'upstream.blocked' });
    await expect(
      client().request('https://cdn.example-platform.com/to-loopback', { allow, bulk: true }),
    ).rejects.toMatchObject({ code: 'upstream.blocked' });
    await expect(
      client().request('https://cdn.example-platform.com/file', {
        allow,
        bulk: true,
        headers: { referer: 'x\r\nx-evil: 1' },
      }),
    ).rejects.toMatchObject({ code: 'upstream.blocked' });
  });
});

describe('bulk transport: kept-alive connections', () => {
  // Answers every request on a connection with `ok` (kept alive), and records what it was asked to do.
  async function keepAliveServer(
    behave: (n: number, socket: net.Socket) => 'answer' | 'close' | 'close-after' | 'answer-and-junk' | 'overrun',
  ) {
    const seen = { connections: 0, requests: 0 };
    const server = net.createServer((socket) => {
      seen.connections++;
      let n = 0;
      socket.on('data', () => {
        seen.requests++;
        const what = behave(++n, socket);
        if (what === 'close') return void socket.destroy();
        socket.write(
          `HTTP/1.1 200 OK\r\ncontent-length: 2\r\n${what === 'close-after' ? 'connection: close\r\n' : ''}` +
            `\r\nok${what === 'overrun' ? 'MORE' : ''}`,
        );
        if (what === 'close-after') socket.end();
        if (what === 'answer-and-junk') setTimeout(() => !socket.destroyed && socket.write('unasked'), 30);
      });
      socket.on('error', () => {});
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    servers.push(server);
    const url = new URL(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}`);
    const pool = createBulkPool();
    const get = async () => {
      const res = await bulkGet({
        target: url,
        path: '/f',
        host: 'cdn.example-platform.com',
        headers: {},
        pool,
        connectTimeoutMs: 1000,
        headersTimeoutMs: 1000,
        idleTimeoutMs: 1000,
      });
      return (await collect(res.body)).toString();
    };
    return { seen, pool, get };
  }
  // An HTTP server answering every request with FILE (kept alive), counting its connections.
  async function fileServer() {
    let connections = 0;
    const web = http.createServer((_req, res) => res.writeHead(200, { 'content-length': FILE.length }).end(FILE));
    web.on('connection', () => connections++);
    await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
    servers.push(web);
    return { c: client(`http://127.0.0.1:${(web.address() as net.AddressInfo).port}`), connections: () => connections };
  }
  const tick = (ms = 20) => new Promise((r) => setTimeout(r, ms));

  it('reuses one connection for files fetched one after another from the same origin', async () => {
    const s = await keepAliveServer(() => 'answer');
    expect([await s.get(), await s.get(), await s.get()]).toEqual(['ok', 'ok', 'ok']);
    expect(s.seen).toEqual({ connections: 1, requests: 3 });
    s.pool.close();
  });

  it('through the guarded client too: two files, one connection, the whole file each time', async () => {
    const { c, connections } = await fileServer();
    for (let i = 0; i < 2; i++)
      expect(
        (await collect((await c.request('https://cdn.example-platform.com/x', { allow, bulk: true })).body)).equals(
          FILE,
        ),
      ).toBe(true);
    expect(connections()).toBe(1);
    await c.close();
  });

  it('does not keep a connection the site closes, or one whose body was abandoned', async () => {
    const closing = await keepAliveServer(() => 'close-after');
    expect([await closing.get(), await closing.get()]).toEqual(['ok', 'ok']);
    expect(closing.seen.connections).toBe(2);

    // More bytes than announced: where the next answer would start is unknown.
    const overrun = await keepAliveServer(() => 'overrun');
    expect([await overrun.get(), await overrun.get()]).toEqual(['ok', 'ok']);
    expect(overrun.seen.connections).toBe(2);
    overrun.pool.close();

    const { c, connections } = await fileServer();
    const first = await c.request('https://cdn.example-platform.com/x', { allow, bulk: true });
    await new Promise((r) => first.body.once('data', r));
    first.body.destroy(); // the reader left mid-file: the rest of the file is still on that connection
    expect(
      (await collect((await c.request('https://cdn.example-platform.com/x', { allow, bulk: true })).body)).equals(FILE),
    ).toBe(true);
    expect(connections()).toBe(2);
    await c.close();
  });

  it('repeats the request on a new connection when the site closes a kept one as it is reused', async () => {
    const s = await keepAliveServer((n) => (n === 1 ? 'answer' : 'close'));
    expect(await s.get()).toBe('ok');
    expect(await s.get()).toBe('ok');
    expect(s.seen).toEqual({ connections: 2, requests: 3 });
    s.pool.close();
  });

  it('drops idle connections the site closes, or that receive bytes nobody asked for', async () => {
    const closing = await keepAliveServer((_n, socket) => {
      setTimeout(() => socket.destroy(), 30);
      return 'answer';
    });
    await closing.get();
    expect(closing.pool.idleCount()).toBe(1);
    await tick(80);
    expect(closing.pool.idleCount()).toBe(0);

    const junk = await keepAliveServer(() => 'answer-and-junk');
    await junk.get();
    expect(junk.pool.idleCount()).toBe(1);
    await tick(80);
    expect(junk.pool.idleCount()).toBe(0);
    expect(await junk.get()).toBe('ok');
    expect(junk.seen.connections).toBe(2);
    junk.pool.close();
  });
});

describe('slab reuse', () => {
  it('reuses a slab only once it is retired and every chunk cut from it was released', () => {
    const lease = takeSlab();
    const a = handOut(lease.buf.subarray(0, 10));
    const b = handOut(lease.buf.subarray(10, 20));
    const before = freeSlabCount();
    lease.retire();
    releaseChunk(a);
    releaseChunk(a); // a second release of the same chunk counts once
    expect(freeSlabCount()).toBe(before);
    releaseChunk(b);
    expect(freeSlabCount()).toBe(before + 1);
    expect(takeSlab().buf).toBe(lease.buf);
  });

  it('never reuses a slab with a chunk nobody released, and ignores buffers it did not hand out', () => {
    const lease = takeSlab();
    handOut(lease.buf.subarray(0, 10)); // kept by a consumer that does not release
    const before = freeSlabCount();
    releaseChunk(Buffer.alloc(10));
    releaseChunk(lease.buf.subarray(0, 10)); // an equal view, but not the chunk handed out
    lease.retire();
    expect(freeSlabCount()).toBe(before);
  });

  it('a late second retire of an old use does not free the slab from its next user', () => {
    const first = takeSlab();
    first.retire(); // nothing handed out: free at once
    const second = takeSlab();
    expect(second.buf).toBe(first.buf);
    const chunk = handOut(second.buf.subarray(0, 5));
    const before = freeSlabCount();
    first.retire(); // e.g. a close event of the first request arriving late
    releaseChunk(chunk);
    expect(freeSlabCount()).toBe(before); // the second request may still read into it
    second.retire();
    expect(freeSlabCount()).toBe(before + 1);
  });
});

describe('parseHead', () => {
  it('reads status, joins repeated fields and keeps set-cookie as a list', () => {
    const h = parseHead(
      Buffer.from(
        'HTTP/1.1 206 Partial Content\r\nContent-Length: 7\r\nVary: a\r\nVary: b\r\nSet-Cookie: x=1\r\nSet-Cookie: y=2',
      ),
    );
    expect(h).toEqual({
      status: 206,
      version: '1.1',
      length: 7,
      headers: { 'content-length': '7', vary: 'a, b', 'set-cookie': ['x=1', 'y=2'] },
    });
  });
  it('accepts repeated equal lengths and refuses a negative or non-numeric one', () => {
    expect(parseHead(Buffer.from('HTTP/1.1 200 OK\r\ncontent-length: 3, 3')).length).toBe(3);
    expect(() => parseHead(Buffer.from('HTTP/1.1 200 OK\r\ncontent-length: -1'))).toThrow();
    expect(() => parseHead(Buffer.from('HTTP/1.1 200 OK\r\nbad header'))).toThrow();
  });
});
