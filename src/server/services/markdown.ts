// Markdown to HTML for blog posts, then a strict allow-list sanitiser: whatever the author typed,
// the result carries no script, no event handler, no style and no javascript:/data: link.
import { Marked } from 'marked';
import sanitizeHtml from 'sanitize-html';

const marked = new Marked({ gfm: true, breaks: false, async: false });

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
  // Links written by authors must not pass reputation or reach window.opener.
  transformTags: {
    a: sanitizeHtml.simpleTransform('a', { rel: 'nofollow noopener noreferrer ugc', target: '_blank' }),
  },
};
// transformTags adds rel/target after the attribute filter, so they must be allowed too.
SANITIZE.allowedAttributes = {
  ...(SANITIZE.allowedAttributes as Record<string, string[]>),
  a: ['href', 'title', 'rel', 'target'],
};

/** `imageSrc` rewrites each image's address (decision 0906: pictures come through this site). */
export function renderMarkdown(markdown: string, imageSrc?: (src: string) => string | null): string {
  const html = marked.parse(markdown) as string;
  if (!imageSrc) return sanitizeHtml(html, SANITIZE);
  return sanitizeHtml(html, {
    ...SANITIZE,
    transformTags: {
      ...SANITIZE.transformTags,
      img: (tagName, attribs) => {
        const { src, ...rest } = attribs;
        const relayed = src ? imageSrc(src) : null;
        return { tagName, attribs: relayed ? { ...rest, src: relayed } : rest };
      },
    },
  });
}

/** Plain text of a post (for link-preview descriptions), whitespace collapsed, cut at max. */
export function plainText(markdown: string, max = 160): string {
  const html = marked.parse(markdown) as string;
  const text = sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} })
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}
