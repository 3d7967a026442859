// Issue 42, finding 7: the kept answers of public posts (one make per version, bounded memory) and
// the version query shared by concurrent readers without ever answering one from before it arrived.
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createAnswerCache, prepare, type PreparedAnswer } from '../../src/server/services/blog-answers.js';
import { createBlogService } from '../../src/server/services/blog.service.js';
import type { BlogPostsRepository } from '../../src/server/db/repositories/blog-posts.repository.js';

const answer = (bytes: number): PreparedAnswer => ({
  identity: Buffer.alloc(bytes),
  type: 'text/plain',
  etag: 'W/"x"',
  cacheControl: 'public',
});

describe('kept answers', () => {
  it('makes one answer per version, however many ask at once, and a new one for a new version', async () => {
    const cache = createAnswerCache(1000);
    let made = 0;
    const make = async () => {
      made++;
      return answer(10);
    };
    const first = await Promise.all([1, 2, 3].map(() => cache.get('a', 'v1', make)));
    expect(made).toBe(1);
    expect(new Set(first).size).toBe(1);
    await cache.get('a', 'v1', make);
    expect(made).toBe(1);
    await cache.get('a', 'v2', make);
    expect(made).toBe(2);
    expect(cache.size()).toEqual({ answers: 1, bytes: 10 });
  });

  it('lets the least recently read go past its byte budget, and keeps no failed make', async () => {
    const cache = createAnswerCache(250);
    for (const key of ['a', 'b', 'c']) await cache.get(key, 'v', async () => answer(100));
    // 'a' and 'b' fitted; 'c' pushed out the least recently read: 'a'.
    expect(cache.size()).toEqual({ answers: 2, bytes: 200 });
    let made = 0;
    const counted = (bytes: number) => async () => {
      made++;
      return answer(bytes);
    };
    await cache.get('b', 'v', counted(100));
    expect(made).toBe(0);
    await cache.get('a', 'v', counted(100));
    expect(made).toBe(1);
    await expect(cache.get('d', 'v', () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    await cache.get('d', 'v', counted(1));
    expect(made).toBe(2);
  });

  it('compresses a body off the main thread into copies that decode to it', async () => {
    const body = JSON.stringify({ html: '<p>words &amp; more</p>'.repeat(500) });
    const a = await prepare(body, 'application/json', 'W/"e"');
    expect(zlib.brotliDecompressSync(a.br as Buffer).toString()).toBe(body);
    expect(zlib.gunzipSync(a.gzip as Buffer).toString()).toBe(body);
    expect((await prepare('{}', 'application/json', 'W/"e"')).br).toBeUndefined();
  });
});

describe("readers' version query", () => {
  it('shares a query among readers who arrived before it started, never one already running', async () => {
    // No such post: each query's answer is null; what matters is which query each reader waits on.
    const pending: Array<(r: undefined) => void> = [];
    const posts = {
      findPublishedHeadBySlug: () => new Promise<undefined>((resolve) => pending.push(resolve)),
    } as unknown as BlogPostsRepository;
    const blog = createBlogService({
      posts,
      text: { run: async () => ({ refused: 'too_deep' as const }) },
      imageKeyId: 'k',
      site: 'https://s.example',
    });
    const first = blog.publicPost('s');
    expect(pending).toHaveLength(1);
    // Two readers arrive while the first query runs: neither may take its answer.
    const second = blog.publicPost('s');
    const third = blog.publicPost('s');
    expect(pending).toHaveLength(1);
    pending[0](undefined);
    expect(await first).toBeNull();
    await new Promise((r) => setTimeout(r, 0));
    // They share one query, started after the first ended.
    expect(pending).toHaveLength(2);
    pending[1](undefined);
    expect(await Promise.all([second, third])).toEqual([null, null]);
    expect(pending).toHaveLength(2);
    // Nothing running: the next reader starts its own.
    const fourth = blog.publicPost('s');
    expect(pending).toHaveLength(3);
    pending[2](undefined);
    expect(await fourth).toBeNull();
  });
});
