// The guarded client's floor on a transfer's rate and its deadline (issue 42, finding 4), on both
// transports (the bulk one for a GET of known length, undici for the rest): a site trickling
// bytes, never silent long enough for the idle timeout, is cut with upstream.timeout and its
// connection closed; a reader that falls behind is not the site's fault and is never cut.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpClient, type TransferLimits } from '../../src/server/adapters/http/index.js';

const SIZE = 4 * 1024 * 1024;
const BODY = Buffer.alloc(SIZE, 7);

describe('transfer guard', () => {
  let server: http.Server;
  let origin = '';
  let open = 0; // trickling responses not yet closed
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url?.startsWith('/fast')) return res.writeHead(200, { 'content-length': SIZE }).end(BODY);
      // 256 bytes every 20 ms (about 12 KB/s), with or without a length (chunked: undici reads it).
      res.writeHead(200, req.url?.startsWith('/chunked') ? {} : { 'content-length': SIZE });
      open++;
      const timer = setInterval(() => res.write(BODY.subarray(0, 256)), 20);
      res.once('close', () => {
        clearInterval(timer);
        open--;
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  const allow = ['files.example-cdn.com'];
  const client = (transferLimits: TransferLimits) =>
    createHttpClient({ hostMap: { 'files.example-cdn.com': origin }, transferLimits });
  const floor: TransferLimits = { minBytesPerSecond: 64 * 1024, windowMs: 300, deadlineMs: 0 };

  it.each([
    ['/trickle', true, 'the bulk transport'],
    ['/trickle', false, 'undici'],
    ['/chunked', true, 'undici after the bulk transport declined'],
  ])('cuts %s below the floor (bulk %s: %s) and closes the connection', async (path, bulk) => {
    const c = client(floor);
    const res = await c.request(`https://files.example-cdn.com${path}`, { allow, bulk });
    await expect(res.bytes(SIZE)).rejects.toMatchObject({ code: 'upstream.timeout', params: { variant: 'slow' } });
    await expect.poll(() => open, { timeout: 5_000 }).toBe(0);
    await c.close();
  });

  it('cuts a transfer at its deadline, whatever its rate', async () => {
    const c = client({ minBytesPerSecond: 0, windowMs: 1000, deadlineMs: 400 });
    const res = await c.request('https://files.example-cdn.com/trickle', { allow, bulk: true });
    await expect(res.bytes(SIZE)).rejects.toMatchObject({ code: 'upstream.timeout', params: { variant: 'deadline' } });
    await expect.poll(() => open, { timeout: 5_000 }).toBe(0);
    await c.close();
  });

  it.each([true, false])('never cuts a fast site whose reader falls behind (bulk %s)', async (bulk) => {
    const c = client(floor);
    const res = await c.request('https://files.example-cdn.com/fast', { allow, bulk });
    // Nothing read for several windows: the buffers fill and the site is held back by us.
    await new Promise((r) => setTimeout(r, floor.windowMs * 4));
    expect(res.body.destroyed).toBe(false);
    expect((await res.bytes(SIZE)).length).toBe(SIZE);
    await c.close();
  });
});
