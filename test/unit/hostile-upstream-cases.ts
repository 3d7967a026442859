// Hostile shapes of what other servers send (issue 42), one per parser: each case builds `bytes` of
// input in its shape and runs the parser on it. Loaded by hostile-upstream-worker.ts in a worker
// thread, so a parser that takes minutes can be stopped (a synchronous parse cannot be interrupted).
import { normalizeSegments, parseWebVtt, spreadWords } from '../../src/shared/captions.js';
import { readVideoPage } from '../../src/server/platforms/tiktok/page-parser.js';
import { detectWafChallenge } from '../../src/server/platforms/tiktok/waf-challenge.js';
import { mapItemStruct } from '../../src/server/platforms/tiktok/item-mapper.js';
import { htmlToText, parseFeed } from '../../src/server/adapters/trends/feeds.adapter.js';
import { mapPost, type PostView } from '../../src/server/platforms/bluesky/post-mapper.js';
import { pdsOf } from '../../src/server/platforms/bluesky/identity.js';
import { readManifest } from '../../src/server/platforms/reddit/dash.js';
import { mapPost as mapRedditPost } from '../../src/server/platforms/reddit/post-mapper.js';
import { walkMp4 } from '../../src/server/lib/mp4-frame.js';
import { flattenReplies } from '../../src/server/platforms/bluesky/replies.js';
import { postMedia } from '../../src/server/platforms/bluesky/embeds.js';

const fill = (shape: string, bytes: number) => shape.repeat(Math.max(1, Math.floor(bytes / shape.length)));
const CUE = '00:00:00.000 --> 00:00:01.000\n';
const RSS = (items: string) =>
  `<?xml version="1.0"?><rss version="2.0"><channel><title>T</title>${items}</channel></rss>`;
const DATED = '<pubDate>Mon, 01 Jan 2024 00:00:00 GMT</pubDate>';
const tryFeed = (xml: string) => {
  try {
    parseFeed(xml, 'https://news.example/feed');
  } catch {
    // refused feeds are fine: only the time counts
  }
};
const scriptPage = (json: string) =>
  `<html><body><script id="__UNIVERSAL_DATA_FOR_REHYDRATION__" type="application/json">${json}</script></body></html>`;
/** About 100 bytes of JSON each. */
const gear = (i: number) => ({
  CodecType: 'h265',
  Format: 'dash',
  PlayAddr: { UrlList: [`https://v.tiktokcdn.com/${i}`], Width: 1080, Height: 1920 },
});

const MPD_URL = 'https://v.redd.it/a/DASHPlaylist.mpd';

export const CASES: Record<string, (bytes: number) => unknown> = {
  'captions: one cue of unclosed <': (n) => parseWebVtt(`WEBVTT\n\n${CUE}${fill('<', n)}`),
  'captions: small cues that all start at 0:00': (n) => {
    const cues = parseWebVtt(`WEBVTT\n\n${fill(`${CUE}a b\n\n`, n)}`);
    return normalizeSegments(
      cues.map((c) => ({ ...c, words: spreadWords(c) })),
      60,
    );
  },
  'captions: cue text of unclosed <b': (n) => parseWebVtt(`WEBVTT\n\n${CUE}${fill('<b', n)}`),
  'TikTok page: unclosed <script tags': (n) => readVideoPage(fill('<script ', n)),
  'TikTok page: rehydration scripts never closed': (n) =>
    readVideoPage(fill('<script id="__UNIVERSAL_DATA_FOR_REHYDRATION__">', n)),
  'TikTok page: unclosed <p id="wci" (bot check)': (n) => detectWafChallenge(fill('<p id="wci" ', n)),
  'TikTok page: unclosed <p class= (bot check)': (n) => detectWafChallenge(`<p id="wci" ${fill('class=', n)}`),
  'TikTok page: deeply nested JSON': (n) => readVideoPage(scriptPage(`${fill('[', n / 2)}${fill(']', n / 2)}`)),
  'TikTok page: thousands of gears at one resolution (DASH list)': (n) => {
    const count = Math.floor(n / 100);
    const item = {
      id: '1',
      video: {
        bitrateInfo: Array.from({ length: count }, (_, i) => gear(i)),
        bitrateAudioInfo: Array.from({ length: count }, (_, i) => ({ UrlList: [`https://v.tiktokcdn.com/a${i}`] })),
      },
    };
    return mapItemStruct(item, '1');
  },
  'feed: item title of escaped <': (n) => tryFeed(RSS(`<item><title>${fill('&lt;', n)}</title>${DATED}</item>`)),
  'feed: summary of unclosed <': (n) =>
    tryFeed(RSS(`<item><title>t</title>${DATED}<description><![CDATA[${fill('<', n)}]]></description></item>`)),
  'feed: summary of unclosed <script': (n) =>
    tryFeed(RSS(`<item><title>t</title>${DATED}<description><![CDATA[${fill('<script>', n)}]]></description></item>`)),
  'feed: unclosed tags': (n) => tryFeed(RSS(fill('<item ', n))),
  'feed: deeply nested tags': (n) => tryFeed(RSS(fill('<a>', n))),
  'feed: many items': (n) => tryFeed(RSS(fill(`<item><title>a</title>${DATED}</item>`, n))),
  'feed HTML: <style with no end': (n) => htmlToText(fill('<style', n)),
  'Reddit manifest: unclosed tags': (n) => readManifest(fill('<Representation ', n), MPD_URL),
  'Reddit manifest: deeply nested tags': (n) => readManifest(`<MPD>${fill('<Period>', n)}`, MPD_URL),
  'Reddit manifest: thousands of representations': (n) =>
    readManifest(
      `<MPD><Period><AdaptationSet>${fill('<Representation height="1"><BaseURL>a.mp4</BaseURL></Representation>', n)}</AdaptationSet></Period></MPD>`,
      MPD_URL,
    ),
  'Reddit post: a gallery of thousands of items': (n) => {
    const items = Array.from({ length: Math.floor(n / 40) }, (_, i) => ({ media_id: `m${i}` }));
    return mapRedditPost({ id: 'a', is_gallery: true, gallery_data: { items }, media_metadata: {} }, null);
  },
  'Bluesky thread: deeply nested JSON': (n) => {
    const post = JSON.parse(`{"uri":"at://x","record":{"text":"hi","embed":${fill('[', n / 2)}${fill(']', n / 2)}}}`);
    return mapPost(post as PostView, 'id', (cid) => cid);
  },
  'Bluesky thread: a huge text and caption list': (n) => {
    const post = {
      record: {
        text: fill('a ', n / 2),
        embed: {
          $type: 'app.bsky.embed.video',
          video: { ref: { $link: 'bafy' } },
          captions: Array.from({ length: n / 100 }, () => ({ lang: 'en', file: { ref: { $link: 'c' } } })),
        },
      },
    };
    return mapPost(post as PostView, 'id', (cid) => cid);
  },
  'MP4 header: a moov of many tiny boxes': (n) => {
    const boxes = Math.max(1, Math.floor(n / 8) - 2);
    const buf = Buffer.alloc(8 + boxes * 8);
    buf.writeUInt32BE(buf.length, 0);
    buf.write('moov', 4, 'latin1');
    for (let i = 0; i < boxes; i++) {
      buf.writeUInt32BE(8, 8 + i * 8);
      buf.write('trak', 12 + i * 8, 'latin1');
    }
    return walkMp4(buf, 0, buf.length);
  },
  'Bluesky thread: a huge reply list': (n) => {
    const reply = { post: { uri: 'at://did:plc:aaaaaaaaaaaaaaaaaaaaaaaa/app.bsky.feed.post/3aaaaaaaaaaa2' } };
    return flattenReplies({ replies: Array.from({ length: Math.floor(n / 80) }, () => reply) }, 'https://x');
  },
  'Bluesky embed: a gallery of many items': (n) =>
    postMedia({
      embed: { items: Array.from({ length: Math.floor(n / 40) }, () => ({ fullsize: 'https://cdn.bsky.app/a' })) },
    }),
  'DID document: a huge service list': (n) =>
    pdsOf(
      { id: 'did:plc:x', service: Array.from({ length: n / 50 }, (_, i) => ({ id: `#s${i}`, type: 'x' })) },
      'did:plc:x',
    ),
};
