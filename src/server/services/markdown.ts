// Markdown to HTML for blog posts, then a strict allow-list sanitiser: whatever the author typed,
// the result carries no script, no event handler, no style and no javascript:/data: link.
// markdown-it, not marked: its parse time grows with the length (marked took 7 s on '*a' x 50,000
// and overflowed the stack on '> ' x 50,000), and it stops nesting at `maxNesting` (decision 0042).
// Both are loaded by the first render (required then, not imported): a server's start renders
// nothing, and they are not small (decision 0077).
import { createRequire } from 'node:module';
import type MarkdownIt from 'markdown-it';
import type sanitizeHtml from 'sanitize-html';
import { isLoopbackHost } from '../config.js';

const load = createRequire(import.meta.url);

/** Block nesting (a quote or a list item is one level, a list two) a post may reach. */
export const MAX_NESTING = 40;

const LINK_REL = { rel: 'nofollow noopener noreferrer ugc', target: '_blank' };

let loaded: { md: InstanceType<typeof MarkdownIt>; sanitize: typeof sanitizeHtml } | null = null;
function lib() {
  if (!loaded) {
    const sanitize = load('sanitize-html') as typeof sanitizeHtml;
    // GitHub's flavour: tables, ~~strikethrough~~ and bare links; raw HTML goes on to the sanitiser.
    const md = new (load('markdown-it') as typeof MarkdownIt)({
      html: true,
      linkify: true,
      breaks: false,
      maxNesting: MAX_NESTING,
    });
    // Links written by authors must not pass reputation or reach window.opener.
    SANITIZE.transformTags = { a: sanitize.simpleTransform('a', LINK_REL) };
    loaded = { md, sanitize };
  }
  return loaded;
}

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'p',
    'br',
    'hr',
    'blockquote',
    'pre',
    'code',
    'strong',
    'em',
    'b',
    'i',
    'del',
    's',
    'ul',
    'ol',
    'li',
    'a',
    'img',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'sup',
    'sub',
  ],
  allowedAttributes: {
    a: ['href', 'title'],
    img: ['src', 'alt', 'title'],
    ol: ['start'],
    th: ['align'],
    td: ['align'],
    code: ['class'],
  },
  allowedClasses: { code: [/^language-[a-z0-9_+-]+$/] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // transformTags (links) is set by lib(), with the sanitiser.
};
// transformTags adds rel/target after the attribute filter, so they must be allowed too.
SANITIZE.allowedAttributes = {
  ...(SANITIZE.allowedAttributes as Record<string, string[]>),
  a: ['href', 'title', 'rel', 'target'],
};

/** HTML of one image: its src rewritten by `imageSrc` (decision 0906), or dropped when that gives null. */
function withImages(imageSrc: (src: string) => string | null): sanitizeHtml.IOptions {
  lib();
  return {
    ...SANITIZE,
    transformTags: {
      ...SANITIZE.transformTags,
      img: (tagName, attribs) => {
        const { src, ...rest } = attribs;
        const relayed = src ? imageSrc(src) : null;
        return { tagName, attribs: relayed ? { ...rest, src: relayed } : rest };
      },
    },
  };
}

/** Where a post is read from: relative links resolve against it (a post's page is /blog/<slug>). */
const PLACEHOLDER_SITE = 'http://this-site.invalid';

/** A path as this site's router may read it: percent-decoding undone (repeatedly), slashes folded, lower case. */
function routedPath(pathname: string): string {
  let p = pathname;
  for (let i = 0; i < 4; i++) {
    // Byte by byte: a malformed escape is kept, never an exception; only ASCII matters for the match.
    const decoded = p.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    if (decoded === p) break;
    p = decoded;
  }
  // Dot segments and backslashes again, as they may have come out of the decoding.
  p = p.replace(/\\/g, '/').replace(/\/{2,}/g, '/');
  try {
    p = new URL(p, PLACEHOLDER_SITE).pathname.replace(/\/{2,}/g, '/');
  } catch {
    /* kept as decoded */
  }
  return p.toLowerCase();
}

/**
 * A post's link to this site's API (decision 0088): a GET there may spend the reader's download or
 * start media work (`/api/video/download`, `/api/video/stream/:id`), and a reader's click sends their
 * cookie. A download link becomes the downloader's card for the same video (`/?url=`), which spends
 * nothing until the reader asks; any other link into `/api/` loses its href. The href is read the
 * way a browser resolves it from the post's page (relative, `..`, backslashes, tabs, any case or
 * percent-encoding); `site` is PUBLIC_URL, whose host (with its loopback aliases when it is one)
 * is this site's.
 */
export function postLink(href: string, site?: string): string | null {
  const origin = new URL(site ?? PLACEHOLDER_SITE);
  let url: URL;
  try {
    url = new URL(href, new URL('/blog/post', origin));
  } catch {
    return href; // not a URL at all: the allow-list decides
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return href;
  const host = (h: string) => h.toLowerCase().replace(/\.$/, '');
  const ours =
    host(url.hostname) === host(origin.hostname) || (isLoopbackHost(origin.hostname) && isLoopbackHost(url.hostname));
  if (!ours) return href;
  const path = routedPath(url.pathname);
  if (!/^\/api(?:[/;]|$)/.test(path)) return href;
  if (/^\/api\/video\/download\/?$/.test(path)) {
    const video = url.searchParams.get('url');
    if (video && /^https?:\/\//i.test(video)) return `/?url=${encodeURIComponent(video)}`;
  }
  return null;
}

/** A link's tag: rel/target for authors' links, its href made safe for readers by postLink. */
function withLinks(options: sanitizeHtml.IOptions, site?: string): sanitizeHtml.IOptions {
  return {
    ...options,
    transformTags: {
      ...options.transformTags,
      a: (tagName, attribs) => {
        const { href, ...rest } = attribs;
        const safe = href === undefined ? null : postLink(href, site);
        return { tagName, attribs: { ...rest, ...(safe === null ? {} : { href: safe }), ...LINK_REL } };
      },
    },
  };
}

/** `imageSrc` rewrites each image's address (decision 0906: pictures come through this site). */
export function renderMarkdown(markdown: string, imageSrc?: (src: string) => string | null): string {
  const { md, sanitize } = lib();
  const html = md.render(markdown);
  return sanitize(html, imageSrc ? withImages(imageSrc) : SANITIZE);
}

/** Pieces (markdown-it tokens: a tag, a run of text) a post may have: what rendering costs grows with them. */
export const MAX_PIECES = 20_000;

export type RenderedPost = { html: string; summary: string } | { refused: 'too_deep' | 'too_complex' };

/**
 * A blog post as stored (rendered once, on save): the sanitised HTML and a plain-text summary for
 * link previews. Images only through `relay` (an http(s) picture as a relay link; anything else,
 * such as a path to this site's own routes, loses its src), so a post never makes its readers'
 * browsers call this site; links into its API are made harmless by postLink (`site`: PUBLIC_URL).
 * A post nested deeper than markdown-it parses, or with more pieces than MAX_PIECES, is refused
 * rather than cut or left to run for seconds.
 */
export function renderPost(markdown: string, relay: (src: string) => string | null, site?: string): RenderedPost {
  const { md, sanitize } = lib();
  const env = {};
  const tokens = md.parse(markdown, env);
  let pieces = tokens.length;
  for (const token of tokens) {
    if (token.level >= MAX_NESTING - 1) return { refused: 'too_deep' };
    pieces += token.children?.length ?? 0;
  }
  if (pieces > MAX_PIECES) return { refused: 'too_complex' };
  const html = sanitize(md.renderer.render(tokens, md.options, env), withLinks(withImages(relay), site));
  return { html, summary: textOf(html) };
}

/** Plain text of a post (for link-preview descriptions), whitespace collapsed, cut at max. */
export function plainText(markdown: string, max = 160): string {
  return textOf(lib().md.render(markdown), max);
}

function textOf(html: string, max = 160): string {
  const text = lib()
    .sanitize(html, { allowedTags: [], allowedAttributes: {} })
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}
