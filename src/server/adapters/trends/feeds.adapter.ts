// RSS 2.0, RDF and Atom news feeds. A feed is accepted only when the answer is HTTP 200, parses as
// XML with an rss, feed or rdf root (not HTML) and has at least one item with a parseable date
// (docs/sources.md 'News feeds'). A configured entry may list alternative URLs ("a|b|c"), tried in order.
import { stripCode, stripTags } from '../../../shared/markup.js';
import { XMLParser } from 'fast-xml-parser';
import type { TrendsHttp } from './http.js';
import { BROWSER_UA } from './http.js';

export interface FeedItem {
  title: string;
  url: string | null;
  guid: string | null;
  summary: string | null;
  publishedAt: Date;
  /** The publisher, when the item names one (Google News `<source>`). */
  source: string | null;
}

export interface Feed {
  url: string;
  title: string;
  items: FeedItem[];
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  textNodeName: '#text',
  removeNSPrefix: false,
  processEntities: true,
  htmlEntities: true,
  parseTagValue: false,
  trimValues: true,
  isArray: (name) => ['item', 'entry', 'link', 'category'].includes(name),
});

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const first = (v: unknown): unknown => (Array.isArray(v) ? v[0] : v);

function text(v: unknown): string {
  v = first(v);
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  const t = obj(v)['#text'];
  return typeof t === 'string' ? t : typeof t === 'number' ? String(t) : '';
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/**
 * Plain text of an HTML fragment: script and style bodies and tags dropped, entities decoded, spaces
 * collapsed. Feeds come from other servers: each step is one pass over the text. The regexes this
 * replaces (/<(script|style)[\s\S]*?<\/\1>/gi, /<[^>]*>/g) rescanned to the end from every unclosed
 * `<script` or `<`: seconds for a feed item of 40,000 `<` (issue 42).
 */
export function htmlToText(html: string): string {
  return stripTags(stripCode(html), ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+\d*);/gi, (m, e: string) => {
      if (e[0] === '#') {
        const code = e[1].toLowerCase() === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
        return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : m;
      }
      return ENTITIES[e.toLowerCase()] ?? m;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

function date(v: string): Date | null {
  if (!v) return null;
  const d = new Date(v.trim());
  return Number.isNaN(d.getTime()) ? null : d;
}

function clip(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max - 1).trimEnd()}…` : s;
}

function atomLink(links: unknown): string | null {
  const list = (Array.isArray(links) ? links : [links]).map(obj);
  const alt = list.find((l) => !l['@_rel'] || l['@_rel'] === 'alternate') ?? list[0];
  const href = alt?.['@_href'];
  return typeof href === 'string' && href ? href : null;
}

/** Parses a feed document; throws with a short reason when it is not an acceptable feed. */
export function parseFeed(xml: string, url: string): Feed {
  if (/^\s*(<!doctype html|<html)/i.test(xml)) throw new Error('answer is HTML, not a feed');
  let doc: Obj;
  try {
    doc = obj(parser.parse(xml.replaceAll('\0', ''), true));
  } catch {
    throw new Error('not well-formed XML');
  }
  let title = '';
  let raw: Obj[] = [];
  let kind: 'rss' | 'atom';
  if (doc.rss) {
    const channel = obj(first(obj(doc.rss).channel));
    title = text(channel.title);
    raw = (channel.item as Obj[] | undefined) ?? [];
    kind = 'rss';
  } else if (doc.feed) {
    const feed = obj(doc.feed);
    title = text(feed.title);
    raw = (feed.entry as Obj[] | undefined) ?? [];
    kind = 'atom';
  } else if (doc['rdf:RDF']) {
    const rdf = obj(doc['rdf:RDF']);
    title = text(obj(rdf.channel).title);
    raw = (rdf.item as Obj[] | undefined) ?? [];
    kind = 'rss';
  } else {
    throw new Error('no rss, feed or rdf root');
  }
  const items: FeedItem[] = [];
  for (const it of raw.map(obj)) {
    const itemTitle = htmlToText(text(it.title));
    const published =
      kind === 'rss'
        ? (date(text(it.pubDate)) ?? date(text(it['dc:date'])) ?? date(text(it.published)))
        : (date(text(it.published)) ?? date(text(it.updated)));
    if (!itemTitle || !published) continue; // only dated items count
    const link = kind === 'rss' ? text(it.link) || null : atomLink(it.link);
    const summaryHtml =
      kind === 'rss' ? text(it.description) || text(it['content:encoded']) : text(it.summary) || text(it.content);
    const summary = summaryHtml ? clip(htmlToText(summaryHtml), 300) : '';
    items.push({
      title: clip(itemTitle, 300),
      url: link && /^https?:\/\//i.test(link) ? link.slice(0, 2000) : null,
      guid: (kind === 'rss' ? text(it.guid) : text(it.id)) || null,
      summary: summary || null,
      publishedAt: published,
      source: text(it.source) || null,
    });
  }
  if (items.length === 0) throw new Error('no dated items');
  let host = url;
  try {
    host = new URL(url).hostname;
  } catch {
    /* keep the url */
  }
  return { url, title: clip(htmlToText(title) || host, 200), items };
}

export function createFeedsAdapter(http: TrendsHttp, opts: { timeoutMs?: number } = {}) {
  async function fetchOne(url: string, signal?: AbortSignal): Promise<Feed> {
    const host = new URL(url).hostname;
    // The feed's own site (any subdomain), so a www/newsroom redirect within it is followed.
    const site = host.split('.').slice(-2).join('.');
    const res = await http.request(url, {
      method: 'GET',
      headers: {
        accept:
          'application/rss+xml, application/atom+xml, application/rdf+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.5',
        'user-agent': BROWSER_UA,
      },
      allowHosts: [host, `*.${site}`],
      timeoutMs: opts.timeoutMs ?? 15_000,
      maxBytes: 3 * 1024 * 1024,
      signal,
    });
    if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
    // Judged by the body, not the content type: some sites serve good feeds as text/html.
    return parseFeed(res.text, url);
  }
  return {
    /** Tries each alternative of one configured entry in order; the first acceptable feed wins. */
    async fetchFeed(entry: string, signal?: AbortSignal): Promise<Feed> {
      const reasons: string[] = [];
      for (const url of entry
        .split('|')
        .map((u) => u.trim())
        .filter(Boolean)) {
        if (signal?.aborted) break;
        try {
          return await fetchOne(url, signal);
        } catch (err) {
          reasons.push(`${url}: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
      throw new Error(reasons.join('; ') || 'no URL');
    },
  };
}

export type FeedsAdapter = ReturnType<typeof createFeedsAdapter>;
