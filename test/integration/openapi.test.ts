// GET /api/docs: an OpenAPI 3 description generated from the zod contracts the routes validate with.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, isErrorCode } from '../../src/shared/error-messages.js';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/fake-tiktok.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

describe('OpenAPI description', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('describes every API route with the contracts’ request and response schemas', async () => {
    const res = await t.client().get('/api/docs');
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc.openapi).toMatch(/^3\./);
    const paths = Object.keys(doc.paths);
    for (const p of [
      '/api/video/info',
      '/api/video/download',
      '/api/auth/login',
      '/api/subscription/status',
      '/api/audio/extract',
      '/api/blog/posts',
    ]) {
      expect(paths, p).toContain(p);
    }
    expect(paths).not.toContain('/api/docs');
    const info = doc.paths['/api/video/info'].post;
    expect(info.requestBody.content['application/json'].schema.properties.url).toBeDefined();
    const ok = info.responses['200'].content['application/json'].schema;
    expect(Object.keys(ok.properties)).toEqual(expect.arrayContaining(['videoId', 'title', 'downloadOptions']));
    expect(doc.paths['/api/auth/login'].post.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['email', 'password']),
    );
  });

  it('lists each route’s error answers: the status and the error envelope with its codes', async () => {
    const doc = await (await t.client().get('/api/docs')).json();
    const download = doc.paths['/api/video/download'];
    expect(Object.keys(download)).toEqual(expect.arrayContaining(['get', 'post']));
    const codes = (
      op: {
        responses: Record<
          string,
          { content: Record<string, { schema: { properties: { code: { enum: string[] } } } }> }
        >;
      },
      status: string,
    ) => op.responses[status].content['application/json'].schema.properties.code.enum;
    expect(codes(download.post, '400')).toEqual(
      expect.arrayContaining(['request.invalid', 'video.quality_unavailable']),
    );
    expect(codes(download.post, '401')).toEqual(['auth.required']);
    expect(codes(download.post, '403')).toEqual(expect.arrayContaining(['auth.bad_origin', 'quota.exhausted']));
    expect(codes(download.post, '424')).toEqual(expect.arrayContaining(['upstream.unavailable']));
    expect(download.post.responses['424'].content['application/json'].schema.required).toEqual(['message', 'code']);
    expect(codes(doc.paths['/api/video/info'].post, '429')).toEqual(expect.arrayContaining(['rate_limited']));
    expect(codes(doc.paths['/api/audio/extract'].post, '403')).toEqual(
      expect.arrayContaining(['billing.pro_required']),
    );
    // Every operation lists at least one error answer beside its 2xx.
    for (const [p, ops] of Object.entries(doc.paths as Record<string, Record<string, { responses: object }>>))
      for (const [m, op] of Object.entries(ops))
        expect(
          Object.keys(op.responses).some((s) => /^[45]\d\d$/.test(s)),
          `${m} ${p}`,
        ).toBe(true);
  });
});

// Each route declares its error answers where it is defined (plugins/route-errors.ts, issue 35).
// Here every operation of the description is called for real, signed out and as a free user, with
// input made from its own request schemas: every error it answers must be in its description, under
// that status and code. Guards (401, 403) and rate limits (429) are reached, not assumed.
describe('OpenAPI error answers match what each route answers', () => {
  let tt: FakeTikTok;
  let t: TestApp;
  beforeAll(async () => {
    tt = await startFakeTikTok();
    t = await createTestApp({ env: { UPSTREAM_HOST_MAP: tt.hostMapJson, VIDEO_INFO_PER_MINUTE: '1' } });
  });
  afterAll(async () => {
    await t?.close();
    await tt?.close();
  });

  type Schema = {
    type?: string | string[];
    const?: unknown;
    enum?: unknown[];
    anyOf?: Schema[];
    oneOf?: Schema[];
    allOf?: Schema[];
    format?: string;
    minimum?: number;
    minLength?: number;
    minItems?: number;
    items?: Schema;
    properties?: Record<string, Schema>;
    required?: string[];
  };
  type Op = {
    parameters?: Array<{ in: string; name: string; required?: boolean; schema?: Schema }>;
    requestBody?: { content: Record<string, { schema: Schema }> };
    responses: Record<string, { content?: Record<string, { schema: { properties: { code: { enum: string[] } } } }> }>;
  };

  /** A value the schema accepts where that is simple to make (the route then gets past validation). */
  function sample(s: Schema | undefined): unknown {
    if (!s) return 'x';
    if (s.const !== undefined) return s.const;
    if (s.enum) return s.enum[0];
    const alt = s.anyOf ?? s.oneOf ?? s.allOf;
    if (alt) return sample(alt[0]);
    const type = [s.type ?? 'string'].flat().find((x) => x !== 'null');
    if (type === 'integer' || type === 'number') return Math.max(1, s.minimum ?? 1);
    if (type === 'boolean') return false;
    if (type === 'array') return Array.from({ length: s.minItems ?? 0 }, () => sample(s.items));
    if (type === 'object') return Object.fromEntries((s.required ?? []).map((k) => [k, sample(s.properties?.[k])]));
    if (s.format === 'uuid') return crypto.randomUUID();
    if (s.format === 'email') return `probe${crypto.randomUUID().slice(0, 8)}@example.com`;
    if (s.format === 'uri') return 'https://example.com/x';
    return 'x'.repeat(Math.max(1, s.minLength ?? 1));
  }

  const codesAt = (op: Op, status: number) =>
    op.responses[String(status)]?.content?.['application/json']?.schema.properties.code.enum;

  it('names only codes of the error catalogue, each under its own status, and 400 for any input', async () => {
    const doc = await (await t.client().get('/api/docs')).json();
    let checked = 0;
    for (const [p, ops] of Object.entries(doc.paths as Record<string, Record<string, Op>>))
      for (const [m, op] of Object.entries(ops)) {
        for (const [status, r] of Object.entries(op.responses)) {
          if (!/^[45]/.test(status)) continue;
          for (const code of r.content?.['application/json']?.schema.properties.code.enum ?? []) {
            expect(isErrorCode(code), `${m} ${p}: ${code}`).toBe(true);
            if (isErrorCode(code)) expect(ERROR_CATALOGUE[code].status, `${m} ${p}: ${code}`).toBe(Number(status));
            checked++;
          }
        }
        if (op.parameters?.length || op.requestBody) expect(codesAt(op, 400), `${m} ${p}`).toContain('request.invalid');
        expect(codesAt(op, 500), `${m} ${p}`).toContain('internal');
      }
    expect(checked).toBeGreaterThan(100);
  });

  it('every error answered, signed out and as a free user, is in the description', async () => {
    const doc = await (await t.client().get('/api/docs')).json();
    const free = await t.signUp();
    const undocumented: string[] = [];
    const seen = new Map<number, number>();
    for (const [p, ops] of Object.entries(doc.paths as Record<string, Record<string, Op>>)) {
      if (!p.startsWith('/api/')) continue;
      for (const [m, op] of Object.entries(ops)) {
        const params = op.parameters ?? [];
        let url = p.replace(/\{([^}]+)\}/g, (_all, name: string) =>
          encodeURIComponent(String(sample(params.find((x) => x.in === 'path' && x.name === name)?.schema))),
        );
        const query = params.filter((x) => x.in === 'query' && x.required);
        if (query.length) url += `?${new URLSearchParams(query.map((x) => [x.name, String(sample(x.schema))]))}`;
        const bodySchema = op.requestBody?.content['application/json']?.schema;
        const body = bodySchema ? sample(bodySchema) : undefined;
        for (const [who, client] of [
          ['signed out', t.client()],
          ['free user', free],
          ['signed out, again', t.client()], // the lookup limit is 1 a minute: the second is a 429
        ] as const) {
          const res = await client.request(m.toUpperCase(), url, body);
          const text = await res.text();
          if (res.status < 400) continue;
          seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
          let code: string | undefined;
          try {
            code = JSON.parse(text).code;
          } catch {
            code = undefined; // HEAD, or tus's own plain-text answers
          }
          const listed = op.responses[String(res.status)];
          if (!listed || (code && !codesAt(op, res.status)?.includes(code)))
            undocumented.push(`${m.toUpperCase()} ${p} (${who}): ${res.status} ${code ?? ''}`);
        }
      }
    }
    expect(undocumented).toEqual([]);
    // The probes reached validation, the sign-in and Pro guards and the lookup limit.
    for (const status of [400, 401, 403, 404, 429]) expect(seen.get(status) ?? 0, String(status)).toBeGreaterThan(0);
    expect(seen.get(401)).toBeGreaterThan(20);
  });
});
