// A stand-in for the outside trend sources on 127.0.0.1, speaking their real protocols:
// TikTok One `POST /CreativeOne/KnowledgeAPI/GetHashtagList` (docs/sources.md 'TikTok One hashtags') built from
// the fixture of a real collected list (test/fixtures/trends), and RSS 2.0 / Atom news feeds ('News feeds'), plus the
// failure modes: the legacy `"msg":"deprecated"` answer, a broken feed, an HTML page and a feed
// that never answers. Route hosts here with UPSTREAM_HOST_MAP.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures');
export const TIKTOK_ONE_FIXTURE = path.join(FIXTURES, 'trends', 'tiktok_one_hashtags_US_7d_2026-08-22T1850Z.json');

export const INDUSTRIES = [
  10000000000, 11000000000, 12000000000, 14000000000, 15000000000, 17000000000, 18000000000, 19000000000, 21000000000,
  22000000000, 23000000000, 25000000000, 27000000000, 28000000000, 29000000000,
];

interface FixtureTag {
  name: string;
  posts: number;
  rank: number;
  curve: number[];
}

export type TikTokOneMode = 'ok' | 'deprecated' | 'no_permission' | 'error' | 'hang';

/** The fixture's 44 hashtags as GetHashtagList items: ids, counts and ranks as strings, like TikTok. */
export function fixtureHashtagItems(): Array<Record<string, unknown>> {
  const fixture = JSON.parse(fs.readFileSync(TIKTOK_ONE_FIXTURE, 'utf8')) as {
    generated_at: string;
    hashtags: FixtureTag[];
  };
  const day = Math.floor(Date.parse(fixture.generated_at) / 86_400_000) * 86_400;
  return fixture.hashtags.map((h, i) => ({
    hashtagID: String(7_000_000_000_000_000_000n + BigInt(i * 7919 + h.name.length)),
    hashtagName: h.name,
    // The anonymous view serves 3 per view: the first 3 on the all-industries view, then 3 per industry.
    industryIDs: i < 3 ? [] : [String(INDUSTRIES[Math.floor((i - 3) / 3) % INDUSTRIES.length])],
    popularityCurve: h.curve.map((value, k) => ({ timestamp: String(day - (h.curve.length - 1 - k) * 86_400), value })),
    publishCnt: String(h.posts),
    rankIndex: String(h.rank),
    topCreators: [],
  }));
}

function rss(now: number): string {
  const item = (title: string, link: string, desc: string, hoursAgo: number, guid = link) => `
    <item>
      <title><![CDATA[${title}]]></title>
      <link>${link}</link>
      <guid isPermaLink="true">${guid}</guid>
      <description><![CDATA[<p>${desc}</p>]]></description>
      <pubDate>${new Date(now - hoursAgo * 3_600_000).toUTCString()}</pubDate>
      <category>News</category>
    </item>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
  <channel>
    <title>Newsroom | TikTok</title>
    <link>https://newsroom.tiktok.com/en-us</link>
    <description>Official TikTok newsroom</description>
    <item><title>Undated item is ignored</title><link>https://newsroom.tiktok.com/en-us/undated</link></item>${item(
      'Introducing new tools to help creators earn on TikTok',
      'https://newsroom.tiktok.com/en-us/new-tools-for-creators',
      'Creators can now apply to the Creator Rewards Program &amp; reach more fans.',
      3,
    )}${item(
      'New Spotify integration lets you save songs from TikTok',
      'https://newsroom.tiktok.com/en-us/save-songs',
      'Music fans can save a sound to their playlists.',
      30,
    )}${item(
      'An update on our safety features for teens',
      'https://newsroom.tiktok.com/en-us/teen-safety-update?utm_source=rss',
      'We are rolling out new app settings.',
      50,
    )}
  </channel>
</rss>`;
}

function atom(now: number): string {
  const entry = (title: string, href: string, summary: string, hoursAgo: number) => `
  <entry>
    <author><name>Staff</name></author>
    <title type="html">${title}</title>
    <link rel="alternate" type="text/html" href="${href}"/>
    <id>${href}</id>
    <updated>${new Date(now - hoursAgo * 3_600_000).toISOString()}</updated>
    <published>${new Date(now - hoursAgo * 3_600_000).toISOString()}</published>
    <category scheme="https://www.theverge.com" term="TikTok"/>
    <summary type="html">&lt;p&gt;${summary}&lt;/p&gt;</summary>
  </entry>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en-US">
  <title type="text">TikTok | The Verge</title>
  <id>https://www.theverge.com/rss/tiktok/index.xml</id>
  <updated>${new Date(now).toISOString()}</updated>${entry(
    'TikTok Shop pushes brands toward live shopping ads',
    'https://www.theverge.com/tiktok/1/tiktok-shop-ads',
    'Advertisers get new formats.',
    5,
  )}${entry(
    'The &amp;quot;silent review&amp;quot; challenge goes viral on TikTok',
    'https://www.theverge.com/tiktok/2/silent-review',
    'A new trend.',
    8,
  )}${entry(
    // Same story as the Newsroom item (same canonical URL): stored once.
    'Introducing new tools to help creators earn on TikTok',
    'https://newsroom.tiktok.com/en-us/new-tools-for-creators/',
    'Duplicate of a Newsroom post.',
    4,
  )}
</feed>`;
}

function general(now: number): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Social Media Today</title>
  <item><title>Instagram tests a new feed layout</title><link>https://www.socialmediatoday.com/news/instagram-feed/1/</link>
    <pubDate>${new Date(now - 2 * 3_600_000).toUTCString()}</pubDate><description>Not about the short-video app.</description></item>
  <item><title>TikTok adds longer uploads for all users</title>
    <link>https://www.socialmediatoday.com/news/tiktok-longer-uploads/2/</link>
    <pubDate>${new Date(now - 6 * 3_600_000).toUTCString()}</pubDate><description>Uploads up to 60 minutes.</description></item>
</channel></rss>`;
}

export interface FakeTrendSources {
  origin: string;
  /** UPSTREAM_HOST_MAP value routing every trend source host here. */
  hostMap: Record<string, string>;
  tiktokOneMode: TikTokOneMode;
  /** Request bodies received by GetHashtagList. */
  hashtagRequests: Array<Record<string, unknown>>;
  hits: Map<string, number>;
  close(): Promise<void>;
}

export async function startFakeTrendSources(opts: { now?: () => number } = {}): Promise<FakeTrendSources> {
  const now = opts.now ?? Date.now;
  const items = fixtureHashtagItems();
  const state = {
    tiktokOneMode: 'ok' as TikTokOneMode,
    hashtagRequests: [] as Array<Record<string, unknown>>,
    hits: new Map<string, number>(),
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    state.hits.set(url.pathname, (state.hits.get(url.pathname) ?? 0) + 1);
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, { 'content-type': type });
      res.end(body);
    };
    if (url.pathname === '/CreativeOne/KnowledgeAPI/GetHashtagList') {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        if (req.method !== 'POST')
          return send(405, 'application/json', '{"BaseResp":{"StatusCode":405,"StatusMessage":"method not allowed"}}');
        let body: Record<string, unknown>;
        try {
          body = JSON.parse(raw);
        } catch {
          return send(400, 'application/json', '{"BaseResp":{"StatusCode":40000,"StatusMessage":"invalid json"}}');
        }
        state.hashtagRequests.push(body);
        const mode = state.tiktokOneMode;
        if (mode === 'hang') return; // never answers
        if (mode === 'error') return send(502, 'text/html', '<html><body>Bad gateway</body></html>');
        if (mode === 'deprecated') return send(200, 'application/json', '{"code":0,"msg":"deprecated","data":{}}');
        if (mode === 'no_permission')
          return send(200, 'application/json', '{"code":40101,"msg":"no permission","data":{}}');
        if (![7, 30, 90].includes(Number(body.timeRange)) || typeof body.countryCode !== 'string') {
          return send(
            200,
            'application/json',
            '{"BaseResp":{"StatusCode":40002,"StatusMessage":"invalid params"},"items":[]}',
          );
        }
        // industryID must be an int; anything else is ignored like TikTok does (all-industries view).
        const industry = typeof body.industryID === 'number' ? String(body.industryID) : null;
        const view = items
          .filter((it) =>
            industry ? (it.industryIDs as string[]).includes(industry) : (it.industryIDs as string[]).length === 0,
          )
          .slice(0, 3);
        send(
          200,
          'application/json',
          JSON.stringify({
            BaseResp: { StatusCode: 0, StatusMessage: 'Success' },
            items: view,
            pagination: {
              page: Number(body.page ?? 1),
              limit: Number(body.limit ?? 20),
              totalCount: view.length,
              hasMore: false,
            },
          }),
        );
      });
      return;
    }
    if (url.pathname === '/en-us/rss') return send(200, 'application/rss+xml; charset=utf-8', rss(now()));
    if (url.pathname === '/rss/tiktok/index.xml') return send(200, 'application/atom+xml; charset=utf-8', atom(now()));
    if (url.pathname === '/feeds/news/') return send(200, 'application/rss+xml', general(now()));
    if (url.pathname === '/broken')
      return send(
        200,
        'application/rss+xml',
        '<?xml version="1.0"?><rss><channel><title>Broken</title><item><title>Half',
      );
    if (url.pathname === '/html')
      return send(
        200,
        'text/html',
        '<!doctype html><html><head><title>Not a feed</title></head><body>Hello</body></html>',
      );
    if (url.pathname === '/undated')
      return send(
        200,
        'application/rss+xml',
        '<rss version="2.0"><channel><title>Undated</title><item><title>No date</title></item></channel></rss>',
      );
    if (url.pathname === '/hang') return; // keeps the socket open without answering
    send(404, 'text/html', '<html><body>Not found</body></html>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const fake: FakeTrendSources = {
    origin,
    hostMap: {
      'ads.tiktok.com': origin,
      'newsroom.tiktok.com': origin,
      'www.theverge.com': origin,
      'www.socialmediatoday.com': origin,
      'feeds.example.com': origin,
    },
    get tiktokOneMode() {
      return state.tiktokOneMode;
    },
    set tiktokOneMode(m: TikTokOneMode) {
      state.tiktokOneMode = m;
    },
    hashtagRequests: state.hashtagRequests,
    hits: state.hits,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
  return fake;
}

/** The feed list used by tests: two good feeds, a general one, an HTML page, a broken one, a hanging one. */
export const TEST_FEEDS = [
  'https://newsroom.tiktok.com/missing|https://newsroom.tiktok.com/en-us/rss',
  'https://www.theverge.com/rss/tiktok/index.xml',
  'https://www.socialmediatoday.com/feeds/news/',
  'https://feeds.example.com/html',
  'https://feeds.example.com/broken',
  'https://feeds.example.com/hang',
];
