// GET /api/docs: an OpenAPI 3 description generated from the zod contracts the routes validate with.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
