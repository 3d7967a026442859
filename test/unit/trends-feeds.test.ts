import { describe, expect, it } from 'vitest';
import { htmlToText, parseFeed } from '../../src/server/adapters/trends/feeds.adapter.js';
import { parseHashtagList } from '../../src/server/adapters/trends/tiktok-one.adapter.js';
import { fixtureHashtagItems } from '../fakes/fake-trend-sources.js';
import { collectorsConfigFrom, DEFAULT_NEWS_FEEDS } from '../../src/server/services/trends-collectors.service.js';
import { loadConfig } from '../../src/server/config.js';

describe('feed parsing', () => {
  it('reads RDF (RSS 1.0) with dc:date', () => {
    const feed = parseFeed(
      `<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
        xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
        <channel><title>RDF news</title></channel>
        <item><title>TikTok item</title><link>https://example.org/a</link><dc:date>2026-11-01T10:00:00Z</dc:date></item>
      </rdf:RDF>`,
      'https://example.org/rdf',
    );
    expect(feed.title).toBe('RDF news');
    expect(feed.items[0]).toMatchObject({
      title: 'TikTok item',
      url: 'https://example.org/a',
      publishedAt: new Date('2026-11-01T10:00:00Z'),
    });
  });

  it('keeps Google News publishers, picks the alternate Atom link and refuses non-http links', () => {
    const rss = parseFeed(
      `<rss version="2.0"><channel><title>Google News</title><item><title>TikTok story - Reuters</title><link>javascript:alert(1)</link>
       <pubDate>Sat, 21 Nov 2026 08:00:00 GMT</pubDate><source url="https://www.reuters.com">Reuters</source></item></channel></rss>`,
      'https://news.google.com/rss/search?q=tiktok',
    );
    expect(rss.items[0]).toMatchObject({ source: 'Reuters', url: null });
    const atom = parseFeed(
      `<feed xmlns="http://www.w3.org/2005/Atom"><title>A</title><entry><title>T</title>
       <link rel="enclosure" href="https://x.test/img.jpg"/><link rel="alternate" href="https://x.test/story"/>
       <updated>2026-11-21T08:00:00Z</updated></entry></feed>`,
      'https://x.test/feed',
    );
    expect(atom.items[0].url).toBe('https://x.test/story');
  });

  it('refuses HTML, feeds without dated items and other XML roots', () => {
    expect(() => parseFeed('<!DOCTYPE html><html><body>hi</body></html>', 'https://a.test')).toThrow(/HTML/);
    expect(() => parseFeed('<rss><channel><item><title>x</title></item></channel></rss>', 'https://a.test')).toThrow(
      /no dated items/,
    );
    expect(() => parseFeed('<?xml version="1.0"?><urlset></urlset>', 'https://a.test')).toThrow(
      /no rss, feed or rdf root/,
    );
  });

  it('turns summaries into plain text', () => {
    expect(htmlToText('<p>A &amp; B&nbsp;<b>bold</b> &#8217;quote&#x2019; <script>x()</script></p>')).toBe(
      'A & B bold ’quote’',
    );
  });
});

describe('TikTok One answers', () => {
  it('reads string counts and ids, and the success rule', () => {
    const items = fixtureHashtagItems().slice(0, 3);
    const ok = parseHashtagList(200, JSON.stringify({ BaseResp: { StatusCode: 0, StatusMessage: 'Success' }, items }));
    expect('items' in ok && ok.items[0]).toMatchObject({ name: 'starbucks', posts: 74323, views: null, rank: 1 });
    expect('items' in ok && ok.items[0].curve).toHaveLength(7);
    expect(parseHashtagList(200, '{"code":0,"msg":"deprecated","data":{}}')).toEqual({
      error: 'source answered "deprecated"',
    });
    expect(parseHashtagList(200, '{"code":40101,"msg":"no permission"}')).toEqual({
      error: 'status 40101 no permission',
    });
    expect(parseHashtagList(200, '{"BaseResp":{"StatusCode":0},"items":[]}')).toEqual({ error: 'no items' });
    expect(parseHashtagList(502, '<html>')).toEqual({ error: 'HTTP 502' });
    expect(parseHashtagList(200, '<html>')).toEqual({ error: 'answer is not JSON' });
  });
});

describe('collector configuration', () => {
  const env = (e: Record<string, string>) =>
    collectorsConfigFrom(loadConfig({ SESSION_SECRET: 'x'.repeat(32), DATA_DIR: '/tmp/smt-trends-cfg', ...e }));
  it('is on by default, off by default under NODE_ENV=test, and reads every TRENDS_* variable', () => {
    expect(env({ NODE_ENV: 'development' })).toMatchObject({
      enabled: true,
      tiktokOne: true,
      news: true,
      country: 'US',
      period: 7,
      feeds: DEFAULT_NEWS_FEEDS,
      intervalMs: 3_600_000,
    });
    expect(env({ NODE_ENV: 'test' }).enabled).toBe(false);
    expect(env({ NODE_ENV: 'test', TRENDS_COLLECTORS: 'on' }).enabled).toBe(true);
    expect(
      env({
        TRENDS_COUNTRY: 'GB',
        TRENDS_PERIOD: '30',
        TRENDS_NEWS_FEEDS: 'https://a.test/rss|https://a.test/feed, https://b.test/atom',
        TRENDS_INTERVAL_MINUTES: '15',
        TRENDS_NEWS: 'off',
      }),
    ).toMatchObject({
      country: 'GB',
      period: 30,
      feeds: ['https://a.test/rss|https://a.test/feed', 'https://b.test/atom'],
      intervalMs: 900_000,
      news: false,
    });
  });
  it('refuses bad values with the variable named', () => {
    expect(() => env({ TRENDS_COUNTRY: 'usa' })).toThrow(/TRENDS_COUNTRY/);
    expect(() => env({ TRENDS_PERIOD: '14' })).toThrow(/TRENDS_PERIOD/);
  });
});
