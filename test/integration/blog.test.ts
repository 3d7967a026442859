import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { DB_KINDS } from '../helpers/test-db.js';
import { relaySigner } from '../../src/server/services/image-relay.js';

const post = (o: Record<string, unknown> = {}) => ({ title: 'My first post', content: 'Hello **world**', ...o });

describe.each(DB_KINDS)('blog (%s)', (db) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ db });
  });
  afterAll(() => t.close());

  async function expect400(body: unknown, message: RegExp) {
    const c = await t.signUp();
    const res = await c.post('/api/blog/posts', body);
    const json = await res.json();
    expect(res.status, JSON.stringify(json)).toBe(400);
    expect(json.message).toMatch(message);
    expect(json.code).toMatch(/\./);
    return json;
  }

  it('needs a signed-in user for your posts, but not for a published post', async () => {
    expect((await t.client().get('/api/blog/posts')).status).toBe(401);
    expect((await t.client().post('/api/blog/posts', post())).status).toBe(401);
    expect((await t.client().delete('/api/blog/posts/1')).status).toBe(401);
  });

  it('creates a draft by default with a slug generated from the title, trimmed tags, and lists it', async () => {
    const c = await t.signUp();
    const res = await c.post(
      '/api/blog/posts',
      post({ title: '  Hello, World! 10 Tips -- for Creators  ', tags: [' a ', '', 'b', '  '] }),
    );
    expect(res.status).toBe(201);
    const created = await res.json();
    expect(created).toMatchObject({
      title: 'Hello, World! 10 Tips -- for Creators',
      slug: 'hello-world-10-tips-for-creators',
      status: 'draft',
      tags: ['a', 'b'],
      excerpt: null,
      featuredImage: null,
      authorId: c.userId,
    });
    const list = await (await c.get('/api/blog/posts')).json();
    expect(list.map((p: { id: number }) => p.id)).toEqual([created.id]);
  });

  it('accepts tags as one comma-separated string', async () => {
    const c = await t.signUp();
    const created = await (
      await c.post('/api/blog/posts', post({ title: 'Tag string', tags: 'growth, ,tips ,  reels,' }))
    ).json();
    expect(created.tags).toEqual(['growth', 'tips', 'reels']);
  });

  it('refuses a missing or blank title and content', async () => {
    await expect400({ content: 'x' }, /Title is required/);
    await expect400({ title: '   ', content: 'x' }, /Title is required/);
    await expect400({ title: 'x' }, /Content is required/);
    await expect400({ title: 'x', content: '  \n ' }, /Content is required/);
  });

  it('keeps a 255-character title and refuses 256', async () => {
    const c = await t.signUp();
    const ok = await c.post('/api/blog/posts', post({ title: 'a'.repeat(255) }));
    expect(ok.status).toBe(201);
    expect((await ok.json()).title).toHaveLength(255);
    await expect400(post({ title: 'b'.repeat(256) }), /Title must be at most 255 characters/);
  });

  it('enforces the excerpt, slug and featured image limits at their edges', async () => {
    const c = await t.signUp();
    expect((await c.post('/api/blog/posts', post({ slug: 'e1', excerpt: 'e'.repeat(500) }))).status).toBe(201);
    await expect400(post({ excerpt: 'e'.repeat(501) }), /Excerpt must be at most 500 characters/);
    const longSlug = 's'.repeat(255);
    const ok = await c.post('/api/blog/posts', post({ slug: longSlug }));
    expect(ok.status).toBe(201);
    expect((await ok.json()).slug).toBe(longSlug);
    await expect400(post({ slug: 's'.repeat(256) }), /Slug must be at most 255 characters/);
    const img = `https://example.com/${'i'.repeat(500 - 'https://example.com/'.length)}`;
    expect((await c.post('/api/blog/posts', post({ slug: 'img-edge', featuredImage: img }))).status).toBe(201);
    await expect400(post({ featuredImage: `${img}x` }), /Featured image must be at most 500 characters/);
  });

  it('keeps 100,000 characters of content and refuses one more', async () => {
    const c = await t.signUp();
    expect((await c.post('/api/blog/posts', post({ slug: 'big-one', content: 'x'.repeat(100_000) }))).status).toBe(201);
    await expect400(post({ content: 'x'.repeat(100_001) }), /Content must be at most 100000 characters/);
  });

  it('refuses a featured image that is not an http(s) URL', async () => {
    for (const bad of [
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
      'ftp://example.com/a.png',
      'not a url',
      '//example.com/a.png',
    ]) {
      await expect400(post({ featuredImage: bad }), /Featured image must be an http\(s\) URL/);
    }
  });

  it('refuses an unknown status, and publishes with status published', async () => {
    await expect400(post({ status: 'archived' }), /Status must be draft or published/);
    const c = await t.signUp();
    const res = await c.post('/api/blog/posts', post({ title: 'Published one', status: 'published' }));
    expect((await res.json()).status).toBe('published');
  });

  it('refuses too many or too long tags and wrong types', async () => {
    await expect400(post({ tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }), /At most 20 tags/);
    await expect400(post({ tags: ['x'.repeat(51)] }), /Each tag must be at most 50 characters/);
    await expect400(post({ title: 42 }), /Title is required|Title/);
  });

  it('normalises a typed slug, refuses one with no letters or digits, and answers a clash with 409', async () => {
    const a = await t.signUp();
    const b = await t.signUp();
    const first = await a.post('/api/blog/posts', post({ slug: '  My Custom Slug!! ' }));
    expect((await first.json()).slug).toBe('my-custom-slug');
    const clash = await b.post('/api/blog/posts', post({ slug: 'my-custom-slug' }));
    expect(clash.status).toBe(409);
    expect(await clash.json()).toMatchObject({ message: 'That slug is already in use', code: 'blog.slug_taken' });
    // A generated slug that clashes is refused the same way, with nothing saved.
    await a.post('/api/blog/posts', post({ title: 'Same Title' }));
    const generatedClash = await b.post('/api/blog/posts', post({ title: 'same title' }));
    expect(generatedClash.status).toBe(409);
    expect((await (await b.get('/api/blog/posts')).json()).length).toBe(0);
    const bad = await a.post('/api/blog/posts', post({ slug: '!!!' }));
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toBe('Slug must contain letters or numbers');
  });

  it('gives a title without letters or digits a usable slug', async () => {
    const c = await t.signUp();
    const res = await c.post('/api/blog/posts', post({ title: '🔥🔥🔥' }));
    expect(res.status).toBe(201);
    expect((await res.json()).slug).toMatch(/^post-[0-9a-f]{8}$/);
  });

  it('lets only the author delete a post; another user gets 404 and the post stays', async () => {
    const owner = await t.signUp();
    const other = await t.signUp();
    const { id } = await (await owner.post('/api/blog/posts', post({ title: 'Owned post' }))).json();
    const denied = await other.delete(`/api/blog/posts/${id}`);
    expect(denied.status).toBe(404);
    expect((await denied.json()).code).toBe('blog.not_found');
    expect((await (await owner.get('/api/blog/posts')).json()).map((p: { id: number }) => p.id)).toContain(id);
    expect((await other.get('/api/blog/posts').then((r) => r.json())).length).toBe(0);
    const ok = await owner.delete(`/api/blog/posts/${id}`);
    expect(ok.status).toBe(200);
    expect((await (await owner.get('/api/blog/posts')).json()).length).toBe(0);
    expect((await owner.delete(`/api/blog/posts/${id}`)).status).toBe(404);
    expect((await owner.delete('/api/blog/posts/abc')).status).toBe(400);
    expect((await owner.delete('/api/blog/posts/99999999999')).status).toBe(400);
  });

  it('serves published posts to anyone signed out with rendered Markdown, and hides drafts', async () => {
    const c = await t.signUp();
    await c.post(
      '/api/blog/posts',
      post({
        title: 'Public Post',
        content: '# Heading\n\nSome *text* [link](https://example.com)',
        status: 'published',
        tags: ['x'],
      }),
    );
    await c.post('/api/blog/posts', post({ title: 'Secret Draft' }));
    const res = await t.client().get('/api/blog/public/public-post');
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ title: 'Public Post', slug: 'public-post', tags: ['x'] });
    expect(body.html).toContain('<h1>Heading</h1>');
    expect(body.html).toContain('<em>text</em>');
    expect(body.html).toMatch(
      /<a href="https:\/\/example.com" rel="nofollow noopener noreferrer ugc" target="_blank">link<\/a>/,
    );
    expect(body).not.toHaveProperty('authorId');
    // A 255-character slug (longer than the router's named-parameter limit) is still readable.
    const long = 'l'.repeat(255);
    await c.post('/api/blog/posts', post({ title: 'Long slug', slug: long, status: 'published' }));
    const longRes = await t.client().get(`/api/blog/public/${long}`);
    expect(longRes.status).toBe(200);
    expect((await longRes.json()).slug).toBe(long);
    const draft = await t.client().get('/api/blog/public/secret-draft');
    expect(draft.status).toBe(404);
    expect((await draft.json()).message).toBe('Post not found');
  });
});

// Its own app: the sign-up rate limit per address is shared by every test of an app.
describe.each(DB_KINDS)('blog editing (%s)', (db) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ db });
  });
  afterAll(() => t.close());

  it('lets the author edit a post after publishing; others get 404; a taken slug is a 409', async () => {
    const owner = await t.signUp();
    const other = await t.signUp();
    const tag = Date.now();
    const { id } = await (
      await owner.post('/api/blog/posts', post({ title: `Live ${tag}`, status: 'published' }))
    ).json();
    await owner.post('/api/blog/posts', post({ title: `Taken ${tag}` }));
    const edited = await owner.put(
      `/api/blog/posts/${id}`,
      post({ title: `Live ${tag}`, content: 'New *words*', status: 'published', tags: 'a, b' }),
    );
    expect(edited.status).toBe(200);
    expect(await edited.json()).toMatchObject({
      id,
      content: 'New *words*',
      status: 'published',
      tags: ['a', 'b'],
      slug: `live-${tag}`,
    });
    const pub = await (await t.client().get(`/api/blog/public/live-${tag}`)).json();
    expect(pub.html).toContain('<em>words</em>');
    expect((await other.put(`/api/blog/posts/${id}`, post())).status).toBe(404);
    const clash = await owner.put(`/api/blog/posts/${id}`, post({ slug: `taken-${tag}` }));
    expect(clash.status).toBe(409);
    expect((await clash.json()).code).toBe('blog.slug_taken');
    expect((await owner.put(`/api/blog/posts/${id}`, { title: '' })).status).toBe(400);
    expect((await t.client().put(`/api/blog/posts/${id}`, post())).status).toBe(401);
  });
});

// Issue 42, finding 8: a link in a public post to a GET that spends (a download, a media job) spent
// the reader's download on a click. Saved posts, and posts stored before the rule, link to the
// downloader's card instead, or to nothing.
describe.each(DB_KINDS)("blog links to this site's spending routes (%s)", (db) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ db });
  });
  afterAll(() => t.close());

  const VIDEO = 'https://www.tiktok.com/@a/video/123';
  const spendingLinks = (site: string) =>
    [
      `[one](/api/video/download?url=${encodeURIComponent(VIDEO)}&quality=hd)`,
      `[two](${site}/api/video/download?url=${encodeURIComponent(VIDEO)})`,
      `[three](/%61pi/video/download?url=${encodeURIComponent(VIDEO)})`,
      '<a href="\\api\\video\\stream\\abc123">four</a>',
      `${site.toUpperCase()}/API/video/download?url=${encodeURIComponent(VIDEO)}`,
    ].join('\n\n');
  /** Every href of the post's HTML as a browser on its page resolves it, decoded. */
  function targets(html: string): URL[] {
    return [...html.matchAll(/\shref="([^"]*)"/g)].map((m) => {
      const url = new URL(m[1].replace(/&amp;/g, '&'), `${t.baseUrl}/blog/post`);
      url.pathname = decodeURIComponent(decodeURIComponent(url.pathname));
      return url;
    });
  }
  function expectNoSpendingLink(html: string) {
    const urls = targets(html);
    for (const u of urls) expect(u.pathname.toLowerCase(), u.href).not.toMatch(/^\/api(\/|$)/);
    // The download links now open the downloader's card with the video.
    expect(urls.filter((u) => u.pathname === '/' && u.searchParams.get('url') === VIDEO).length).toBe(4);
  }

  it('saves a post whose links to spending routes open the downloader card instead', async () => {
    const c = await t.signUp();
    const site = t.ctx.config.publicUrl;
    const res = await c.post('/api/blog/posts', {
      title: 'Spending links',
      content: spendingLinks(site),
      status: 'published',
    });
    expect(res.status).toBe(201);
    const { html } = await (await t.client().get('/api/blog/public/spending-links')).json();
    expect(html).toContain('>four</a>');
    expectNoSpendingLink(html);
  });

  it('renders posts stored before the rule again, so they lose such links too', async () => {
    const c = await t.signUp();
    const content = spendingLinks(t.ctx.config.publicUrl);
    // As stored by the previous renderer: the links as written.
    for (const slug of ['old-spending-a', 'old-spending-b']) {
      await t.ctx.repos.blogPosts.insert({
        title: 'Old',
        content,
        slug,
        status: 'published',
        authorId: c.userId,
        contentHtml: `<p><a href="/api/video/download?url=${encodeURIComponent(VIDEO)}">one</a></p>`,
        summary: 'one',
        // Exactly as the previous renderer version marked its rows on this server.
        htmlVersion: `md-it-1.${relaySigner(t.ctx.config.sessionSecret)('key id').slice(0, 8)}`,
      });
    }
    // At start (the background task), every stale post; a read renders one not reached yet.
    expect(await t.ctx.services.blog.refreshStale()).toBeGreaterThanOrEqual(1);
    for (const slug of ['old-spending-a', 'old-spending-b']) {
      const { html } = await (await t.client().get(`/api/blog/public/${slug}`)).json();
      expectNoSpendingLink(html);
    }
  });
});
