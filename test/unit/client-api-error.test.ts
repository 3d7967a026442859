// The client's one error type (client/lib/api-error.ts): every failed call is an ApiError with the
// HTTP status and the error envelope's code and params, whatever the answer was (an envelope, a
// proxy's HTML page, nothing at all); and no client code reads a status back out of a string.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, errorCode, NETWORK_ERROR, NOT_AN_ENVELOPE, serverMessage } from '../../src/client/lib/api-error.js';
import { send, sendAsync } from '../../src/client/lib/http.js';
import { followMediaJob } from '../../src/client/hooks/use-media-job.js';

describe('ApiError from an answer', () => {
  it('reads the envelope: status, code, params, and the text rendered from the catalogue', async () => {
    const body = {
      message: 'ignored when the catalogue knows the code',
      code: 'quota.exhausted',
      params: { limit: 6 },
    };
    const err = await ApiError.fromResponse(
      new Response(JSON.stringify({ ...body, limitReached: true }), { status: 403 }),
    );
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(403);
    expect(err.code).toBe('quota.exhausted');
    expect(err.params).toEqual({ limit: 6 });
    expect(err.body).toMatchObject({ limitReached: true });
    expect(err.serverText).toBe(
      "You've reached the free plan limit of 6 downloads. Upgrade to Pro for unlimited downloads.",
    );
    expect(serverMessage(err)).toBe(err.serverText);
    expect(errorCode(err)).toBe('quota.exhausted');
  });

  it("keeps the server's message for a code the client does not know", () => {
    const err = ApiError.fromBody(418, JSON.stringify({ message: 'Short and stout.', code: 'teapot.full' }));
    expect([err.status, err.code, err.serverText]).toEqual([418, 'teapot.full', 'Short and stout.']);
  });

  it.each([
    ['an HTML page', '<html><body>502 Bad Gateway</body></html>'],
    ['an empty body', ''],
    ['JSON that is not an envelope', '{"error":"nope"}'],
    ['a JSON string', '"403: {\\"code\\":\\"x\\"}"'],
  ])('an answer with %s keeps its status and has no server text', (_what, text) => {
    const err = ApiError.fromBody(502, text);
    expect(err.status).toBe(502);
    expect(err.code).toBe(NOT_AN_ENVELOPE);
    expect(err.serverText).toBeUndefined();
    expect(serverMessage(err)).toBeUndefined();
  });

  it('something thrown that is not an ApiError has no server text or code', () => {
    expect(serverMessage(new Error('403: {"message":"looks like one"}'))).toBeUndefined();
    expect(errorCode(new Error('409: conflict'))).toBeUndefined();
  });
});

describe('send over real HTTP', () => {
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/envelope') {
        res.writeHead(409, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: 'x', code: 'studio.stale_revision' }));
      } else if (req.url === '/html') {
        res.writeHead(503, { 'content-type': 'text/html' });
        res.end('<h1>Service Unavailable</h1>');
      } else if (req.url === '/job') {
        res.writeHead(202, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 'j1', state: 'queued', position: 2, prefer: req.headers.prefer }));
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ok: true, body: req.method }));
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('an error answer throws its ApiError', async () => {
    const err = await send('PUT', `${base}/envelope`, { a: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect([(err as ApiError).status, (err as ApiError).code]).toEqual([409, 'studio.stale_revision']);
  });

  it('a non-JSON error page throws an ApiError with its status', async () => {
    const err = (await send('GET', `${base}/html`).catch((e: unknown) => e)) as ApiError;
    expect([err.status, err.code, err.serverText]).toEqual([503, NOT_AN_ENVELOPE, undefined]);
  });

  it('no answer at all (connection refused) is an ApiError with status 0', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const err = (await send('GET', `http://127.0.0.1:${port}/`).catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect([err.status, err.code, err.serverText]).toEqual([0, NETWORK_ERROR, undefined]);
  });

  it('an abort stays an abort, not a network failure', async () => {
    const ctrl = new AbortController();
    ctrl.abort();
    const err = await send('GET', `${base}/ok`, undefined, { signal: ctrl.signal }).catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(ApiError);
    expect((err as Error).name).toBe('AbortError');
  });

  it('a 202 is a job, asked for with Prefer: respond-async', async () => {
    const answer = await sendAsync('POST', `${base}/job`, {}, { prefer: 'respond-async' });
    expect(answer).toEqual({ done: false, job: { id: 'j1', state: 'queued', position: 2, prefer: 'respond-async' } });
    expect(await sendAsync('POST', `${base}/ok`, {}, { prefer: 'respond-async' })).toEqual({
      done: true,
      result: { ok: true, body: 'POST' },
    });
  });
});

describe('followMediaJob', () => {
  it('a result ready at once is the result', async () => {
    const seen: unknown[] = [];
    const out = await followMediaJob(
      async () => ({ done: true as const, result: { url: '/r' } }),
      null,
      new AbortController().signal,
      (s) => seen.push(s),
      1,
    );
    expect(out).toEqual({ url: '/r' });
    expect(seen).toEqual([]);
  });

  it("a failed job is an ApiError with its code, params and the catalogue's status", async () => {
    const err = (await followMediaJob(
      async () => ({
        done: false as const,
        job: { id: 'j', state: 'failed' as const, error: { code: 'media.no_audio', message: 'm', params: {} } },
      }),
      null,
      new AbortController().signal,
      () => undefined,
      1,
    ).catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect([err.status, err.code, err.serverText]).toEqual([
      422,
      'media.no_audio',
      'This video has no sound to extract.',
    ]);
  });

  it('a Cancel that lands while the job is being started stops that job on the server too', async () => {
    const asked: string[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = (async (url: string, init?: RequestInit) => {
      asked.push(`${init?.method ?? 'GET'} ${url}`);
      return new Response(JSON.stringify({ id: 'j1', state: 'failed' }), { status: 200 });
    }) as typeof fetch;
    try {
      const ctrl = new AbortController();
      const err = await followMediaJob(
        async () => {
          ctrl.abort(new DOMException('cancelled', 'AbortError')); // the person pressed Cancel meanwhile
          return { done: false as const, job: { id: 'j1', state: 'queued' as const } };
        },
        null,
        ctrl.signal,
        () => undefined,
        1,
      ).catch((e: unknown) => e);
      expect((err as DOMException).name).toBe('AbortError');
      expect(asked).toEqual(['DELETE /api/media-jobs/j1']);
    } finally {
      globalThis.fetch = realFetch;
    }
  });

  it('a result that arrives after Cancel was pressed is not shown: the person asked to stop', async () => {
    const ctrl = new AbortController();
    const err = await followMediaJob(
      async () => {
        ctrl.abort(new DOMException('cancelled', 'AbortError')); // the render finished as Cancel landed
        return { done: true as const, result: { url: '/r' } };
      },
      null,
      ctrl.signal,
      () => undefined,
      1,
    ).catch((e: unknown) => e);
    expect((err as DOMException).name).toBe('AbortError');
  });

  it('a done status that arrives after Cancel was pressed is not shown either', async () => {
    const realFetch = globalThis.fetch;
    const ctrl = new AbortController();
    globalThis.fetch = (async () => {
      ctrl.abort(new DOMException('cancelled', 'AbortError')); // the status answered just as Cancel landed
      return new Response(JSON.stringify({ id: 'j1', state: 'done', result: { url: '/r' } }), { status: 200 });
    }) as typeof fetch;
    try {
      const err = await followMediaJob(
        async () => ({ done: false as const, job: { id: 'j1', state: 'running' as const } }),
        null,
        ctrl.signal,
        () => undefined,
        1,
        (job) => job.result,
      ).catch((e: unknown) => e);
      expect((err as DOMException).name).toBe('AbortError');
    } finally {
      globalThis.fetch = realFetch;
    }
  });
});

describe('no client code reads a status out of a string', () => {
  const CLIENT = path.resolve(import.meta.dirname, '../../src/client');
  const files = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
      const p = path.join(dir, d.name);
      if (d.isDirectory()) return files(p);
      return /\.(ts|tsx)$/.test(d.name) ? [p] : [];
    });
  /** The ways it was done before (issue 35): each must match its old line, and no line of src/client. */
  const PATTERNS: Array<[RegExp, string]> = [
    [/startsWith\(\s*['"`]\d{3}/, "if (err instanceof Error && err.message.startsWith('409')) {"],
    [/\/\^\(?\\d\{3\}/, 'const m = /^\\d{3}: ([\\s\\S]*)$/.exec(error.message);'],
    [/`\$\{[\w.]*status\}: /, `throw new Error(\`$\{res.status}: $\{text}\`);`],
    [/new Error\(\s*['"`]\d{3}: /, 'throw new Error(\'500: {"message":"The render did not arrive."}\');'],
    [/message\.(match|includes|startsWith|slice)\(/, 'const code = err.message.slice(0, 3);'],
  ];

  it('each pattern catches the code it was written for', () => {
    for (const [re, old] of PATTERNS) expect(re.test(old), String(re)).toBe(true);
  });

  it('src/client has none of them', () => {
    const hits: string[] = [];
    for (const file of files(CLIENT)) {
      fs.readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          for (const [re] of PATTERNS)
            if (re.test(line)) hits.push(`${path.relative(CLIENT, file)}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(hits).toEqual([]);
  });
});
