// The one-pass scanners that replaced regexes over upstream text (issue 42) answer exactly what the
// regexes answered, on strings made of the pieces that matter (tags, unclosed tags, closing tags
// in either case, the ids looked for, entities); the regexes stay here as the reference.
import { describe, expect, it } from 'vitest';
import { stripCode, stripTags } from '../../src/shared/markup.js';
import { stripMarkup } from '../../src/server/services/hashtag-text.js';
import { htmlToText } from '../../src/server/adapters/trends/feeds.adapter.js';
import { scriptById } from '../../src/server/platforms/tiktok/page-parser.js';
import { detectWafChallenge } from '../../src/server/platforms/tiktok/waf-challenge.js';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };
const regexHtmlToText = (html: string) =>
  html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+\d*);/gi, (m, e: string) => {
      if (e[0] === '#') {
        const code = e[1].toLowerCase() === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
        return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : m;
      }
      return ENTITIES[e.toLowerCase()] ?? m;
    })
    .replace(/\s+/g, ' ')
    .trim();
const regexScript = (html: string) =>
  /<script\b[^>]*\bid=["']__X__["'][^>]*>([\s\S]*?)<\/script>/i.exec(html)?.[1] ?? null;

const PIECES = [
  '<',
  '>',
  'a',
  ' ',
  '\n',
  '<b>',
  '</',
  '<script',
  '<SCRIPT',
  '</script>',
  '</Script>',
  '<style',
  '</style>',
  '<scripts',
  ' id="__X__"',
  "id='__X__'",
  'id="__X__"',
  '&amp;',
  '&#x41;',
  '&lt;',
];

/** A small seeded generator, so a failure names strings that can be found again. */
function* strings(count: number, seed = 42): Generator<string> {
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state;
  };
  for (let i = 0; i < count; i++) {
    let s = '';
    for (let n = next() % 12; n > 0; n--) s += PIECES[next() % PIECES.length];
    yield s;
  }
}

describe('scanners of upstream text', () => {
  it('strip tags as /<[^>]*>/g did', () => {
    for (const s of strings(20_000)) expect(stripTags(s), JSON.stringify(s)).toBe(s.replace(/<[^>]*>/g, ''));
  });
  it("turn a feed's HTML into text as the regexes did", () => {
    for (const s of strings(20_000, 7)) expect(htmlToText(s), JSON.stringify(s)).toBe(regexHtmlToText(s));
  });
  it("find a page's script by id as the regex did", () => {
    for (const s of strings(20_000, 11)) expect(scriptById(s, '__X__'), JSON.stringify(s)).toBe(regexScript(s));
  });
  it("read TikTok's bot check from its paragraphs, in any attribute order of the tag's other attributes", () => {
    const cs = Buffer.from(JSON.stringify({ v: { a: 'YQ', c: 'Yw' } })).toString('base64');
    const page = (p: string) => `<html><body><p>Please wait...</p>${p}<p id="cs" class="${cs}"></p></body></html>`;
    for (const p of ['<p id="wci" class="_wafchallengeid">', "<P data-x=1 id='wci' lang=en class='_wafchallengeid'>"])
      expect(detectWafChallenge(page(p))?.cookieName).toBe('_wafchallengeid');
    expect(detectWafChallenge(page('<p class="_wafchallengeid" id="wci">'))).toBeNull(); // class before id: never read
    expect(detectWafChallenge(page('<p id="wci"><span class="_wafchallengeid">'))).toBeNull(); // another tag's class
  });
});

describe('markup a language model sends (stripMarkup)', () => {
  // The regexes stripMarkup used before, as the reference for what it keeps and drops.
  const regexStripMarkup = (text: string) =>
    text.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ').replace(/<\/?[a-zA-Z!][^>]*>/g, ' ');

  it('drops only tag-like runs, as the regexes did, in one pass', () => {
    const pieces = ['<', '>', '</', '<b', '<!', '< ', '2 < 3', 'x', ' ', '<script>', '</script>', '<style', '</style>'];
    let seed = 11;
    const pick = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return pieces[seed % pieces.length];
    };
    for (let i = 0; i < 20_000; i++) {
      const s = Array.from({ length: 1 + (i % 12) }, pick).join('');
      expect(stripTags(stripCode(s), ' ', { tagLike: true }), JSON.stringify(s)).toBe(regexStripMarkup(s));
    }
  });

  it('reads 1 MB of unclosed tags in linear time', () => {
    const text = '<a'.repeat(500_000);
    const started = performance.now();
    expect(stripMarkup(text)).toBe(text);
    // The regex took minutes on this; one pass takes milliseconds (a busy machine: generous bound).
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
