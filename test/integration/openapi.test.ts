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
});
