// Whole Bluesky profiles and a post's replies (issue 45) against the fake AppView (fake-social.ts):
// a profile link lists its posts with media page by page with Bluesky's cursor (getAuthorFeed,
// posts_with_media), reposts only when asked, a 1,000-post profile in pages of at most 50; the
// listed posts become a batch whose ZIP names files as single downloads; every refusal names
// Bluesky; the replies file (Pro) as spreadsheet-safe CSV and as JSON. Both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeBluesky, type FakeBluesky } from '../fakes/bluesky/fake-bluesky.js';
import { blockedThread, notFoundThread, postView, tid } from '../fakes/bluesky/constructed-posts.js';
import { attachmentName } from '../helpers/attachment-name.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { DB_KINDS } from '../helpers/test-db.js';
import { zipEntries } from '../helpers/zip.js';
import { downloadFileName } from '../../src/shared/file-names.js';

type Page = {
  posts: Array<{
    id: string;
    url: string;
    kind: string;
    thumbnail: string;
    repost: boolean;
    createdAt: string;
    text: string;
  }>;
  cursor: string | null;
};

describe.each(DB_KINDS)('Bluesky profiles and replies (%s)', (db) => {
  let bs: FakeBluesky;
  let t: TestApp;
  beforeAll(async () => {
    bs = await startFakeBluesky();
    t = await createTestApp({ db, env: { UPSTREAM_HOST_MAP: bs.hostMapJson } });
  });
  afterAll(async () => {
    await Promise.all([bs.close(), t.close()]);
  });

  async function everyPage(c: Awaited<ReturnType<TestApp['signUp']>>, url: string, reposts = false) {
    const pages: Page[] = [];
    let cursor: string | undefined;
    do {
      const res = await c.post('/api/profile/posts', { url, ...(cursor ? { cursor } : {}), reposts });
      expect(res.status).toBe(200);
      const page = (await res.json()) as Page;
      pages.push(page);
      cursor = page.cursor ?? undefined;
    } while (cursor && pages.length < 40);
    return pages;
  }

  it('lists a profile newest first, page by page, without reposts unless asked', async () => {
    const { url, author } = bs.addProfile({ posts: 70, reposts: 10 });
    const c = await t.signUp();
    const first = await (await c.post('/api/profile/posts', { url })).json();
    expect(first.author).toMatchObject({ handle: author.handle, name: author.displayName });
    expect(first.author.avatar).toMatch(/^\/api\/images\?u=/);
    expect(first.posts[0]).toMatchObject({ kind: 'video', repost: false, text: `Post number 80 of ${author.handle}` });
    expect(first.posts[0].thumbnail).toMatch(/^\/api\/images\?u=/);
    expect(new Set(first.posts.map((p: { kind: string }) => p.kind))).toEqual(new Set(['video', 'images']));
    const pages = await everyPage(c, url);
    const posts = pages.flatMap((p) => p.posts);
    expect(posts.length).toBe(70);
    const times = posts.map((p) => p.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    const withReposts = (await everyPage(c, url, true)).flatMap((p) => p.posts);
    expect([withReposts.length, withReposts.filter((p) => p.repost).length]).toEqual([80, 10]);
    const calls = bs.social.feedCalls.filter((f) => f.actor === author.handle);
    expect(calls.every((f) => f.filter === 'posts_with_media' && f.limit <= 100)).toBe(true);
    // A thumbnail comes through our own relay.
    const thumb = await c.get(first.posts[0].thumbnail);
    expect([thumb.status, thumb.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
  });

  it('lists a 1,000-post profile in pages, each asked of Bluesky on its own', async () => {
    const { url, author } = bs.addProfile({ posts: 1000 });
    const c = await t.signUp();
    const pages = await everyPage(c, url.replace(author.handle, author.did));
    const ids = new Set(pages.flatMap((p) => p.posts.map((x) => x.id)));
    expect(ids.size).toBe(1000);
    expect(pages.length).toBe(20);
    expect(Math.max(...pages.map((p) => p.posts.length))).toBe(50);
  }, 60_000);

  it('turns listed posts into a batch whose ZIP names files as single downloads (Pro)', async () => {
    const { url, author } = bs.addProfile({ posts: 4 });
    const pro = await t.signUp({ pro: true });
    const page = (await (await pro.post('/api/profile/posts', { url })).json()) as Page;
    const urls = page.posts.slice(0, 3).map((p) => p.url);
    const created = await (await pro.post('/api/batch', { urls })).json();
    const view = async () => (await pro.get(`/api/batch/${created.id}`)).json();
    await expect.poll(async () => (await view()).status, { timeout: 60_000 }).toBe('done');
    const zip = await zipEntries(
      Buffer.from(await (await fetch(t.baseUrl + (await view()).downloadUrl)).arrayBuffer()),
    );
    const expected = page.posts
      .slice(0, 3)
      .map((p) => downloadFileName('bluesky', author.handle, p.id, p.kind === 'video' ? 'hd' : 'slideshow'));
    expect(zip.map((e) => e.name).sort()).toEqual(expected.sort());
  }, 90_000);

  it('names Bluesky in every refusal of a profile', async () => {
    const c = await t.signUp();
    const answer = async (url: string) => {
      const res = await c.post('/api/profile/posts', { url });
      const body = await res.json();
      return [res.status, body.code, body.message];
    };
    expect(await answer('https://bsky.app/profile/nobody-here.bsky.social')).toEqual([
      404,
      'profile.not_found',
      'There is no Bluesky profile at this link. Check the handle and try again.',
    ]);
    const cases = [
      [{ error: 'AccountDeactivated' as const }, 'This Bluesky account is deactivated, so its posts cannot be listed.'],
      [
        { error: 'AccountTakedown' as const },
        'This Bluesky account was suspended or taken down, so its posts cannot be listed.',
      ],
      [
        { error: 'BlockedByActor' as const },
        'This Bluesky profile blocks access to its posts, so they cannot be listed.',
      ],
      [
        { labels: ['!no-unauthenticated'] },
        'This Bluesky author asked Bluesky not to show their posts to people who are not signed in, so we do not list or download them.',
      ],
    ] as const;
    for (const [opts, message] of cases) {
      const { url } = bs.addProfile({ posts: 2, ...opts });
      expect(await answer(url)).toEqual([403, 'profile.unavailable', message]);
    }
    expect(await answer(bs.addProfile({ posts: 0 }).url)).toEqual([
      404,
      'profile.no_media',
      'This Bluesky profile has no posts with videos or pictures.',
    ]);
    // A single post of an author who asked not to be shown signed out is refused too.
    const hidden = bs.addProfile({ posts: 1, labels: ['!no-unauthenticated'] });
    const post = hidden.profile.feed[0].post;
    const res = await c.post('/api/video/info', {
      url: `https://bsky.app/profile/${post.author.did}/post/${post.uri.split('/').pop()}`,
    });
    expect([res.status, (await res.json()).code]).toEqual([403, 'video.login_required']);
    expect(await answer('https://bsky.app/profile/nobody.bsky.social/post/3lhnr2o6kb22h')).toEqual([
      400,
      'link.unsupported',
      'Please provide a valid Bluesky profile URL',
    ]);
  });

  it('exports a post replies as spreadsheet-safe CSV and as JSON (Pro only)', async () => {
    const { profile } = bs.addProfile({ posts: 1 });
    const root = profile.feed[0].post;
    const alice = { did: 'did:plc:aliceaaaaaaaaaaaaaaaaaaa', handle: 'alice.bsky.social', displayName: 'Alice "A"' };
    const bob = { did: 'did:plc:bobbbbbbbbbbbbbbbbbbbbbb', handle: 'bob.bsky.social', displayName: 'Bob' };
    const reply = (author: typeof alice, n: number, text: string, replies: unknown[] = []) => ({
      $type: 'app.bsky.feed.defs#threadViewPost',
      post: postView(author, tid(9000 + n), text, undefined, undefined),
      replies,
    });
    const nested = reply(bob, 2, 'Thanks, Ünïcødé ✓');
    bs.social.setReplies(root.uri, [
      reply(alice, 1, '=HYPERLINK("http://evil.example","win")', [nested]),
      blockedThread(`at://${bob.did}/app.bsky.feed.post/${tid(9003)}`, bob.did),
      notFoundThread(`at://${alice.did}/app.bsky.feed.post/${tid(9004)}`),
      reply(bob, 5, '+1, line one\nline two'),
    ]);
    const url = `https://bsky.app/profile/${root.author.did}/post/${root.uri.split('/').pop()}`;
    const free = await t.signUp();
    expect((await free.post('/api/replies/export', { url, format: 'csv' })).status).toBe(403);
    const pro = await t.signUp({ pro: true });
    const res = await pro.post('/api/replies/export', { url, format: 'csv' });
    expect([res.status, res.headers.get('content-type'), res.headers.get('x-reply-count')]).toEqual([
      200,
      'text/csv; charset=utf-8',
      '5',
    ]);
    expect(attachmentName(res)).toMatch(/^bluesky-plc-[a-z2-7]{24}-[2-7a-z]{13}-replies\.csv$/);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString('utf8').slice(1);
    const lines = text.split('\r\n');
    expect(lines[0]).toBe(
      '"state","author_handle","author_id","display_name","text","created_at","likes","reposts","quotes","parent","depth","link"',
    );
    expect(lines[1]).toContain(
      '"alice.bsky.social","did:plc:aliceaaaaaaaaaaaaaaaaaaa","Alice ""A""","\'=HYPERLINK(""http://evil.example"",""win"")"',
    );
    expect(lines[1]).toContain(`"42","5","1","${url}","1"`);
    expect(lines[2]).toContain('"Thanks, Ünïcødé ✓"');
    expect(lines[2]).toMatch(/"2","https:\/\/bsky\.app\/profile\/did:plc:bob[b]+\/post\/[2-7a-z]{13}"$/);
    expect(lines[3]).toMatch(/^"blocked","","did:plc:bob/);
    expect(lines[4]).toMatch(/^"not_found",/);
    expect(text).toContain('"\'+1, line one\nline two"');
    const json = await (await pro.post('/api/replies/export', { url, format: 'json' })).json();
    expect(json.replies.map((r: { state: string; depth: number }) => [r.state, r.depth])).toEqual([
      ['ok', 1],
      ['ok', 2],
      ['blocked', 1],
      ['not_found', 1],
      ['ok', 1],
    ]);
  });
});
