// Markdown to HTML for blog posts, then a strict allow-list sanitiser: whatever the author typed,
// the result carries no script, no event handler, no style and no javascript:/data: link.
// markdown-it, not marked: its parse time grows with the length (marked took 7 s on '*a' x 50,000
// and overflowed the stack on '> ' x 50,000), and it stops nesting at `maxNesting` (decision 0042).
// Both are loaded by the first render (required then, not imported): a server's start renders
// nothing, and they are not small (decision 0077).
import { createRequire } from 'node:module';
import type MarkdownIt from 'markdown-it';
import type sanitizeHtml from 'sanitize-html';

const load = createRequire(import.meta.url);

/** Block nesting (a quote or a list item is one level, a list two) a post may reach. */
export const MAX_NESTING = 40;

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
    SANITIZE.transformTags = {
      a: sanitize.simpleTransform('a', { rel: 'nofollow noopener noreferrer ugc', target: '_blank' }),
    };
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
 * browsers call this site. A post nested deeper than markdown-it parses, or with more pieces
 * than MAX_PIECES, is refused rather than cut or left to run for seconds.
 */
export function renderPost(markdown: string, relay: (src: string) => string | null): RenderedPost {
  const { md, sanitize } = lib();
  const env = {};
  const tokens = md.parse(markdown, env);
  let pieces = tokens.length;
  for (const token of tokens) {
    if (token.level >= MAX_NESTING - 1) return { refused: 'too_deep' };
    pieces += token.children?.length ?? 0;
  }
  if (pieces > MAX_PIECES) return { refused: 'too_complex' };
  const html = sanitize(md.renderer.render(tokens, md.options, env), withImages(relay));
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
