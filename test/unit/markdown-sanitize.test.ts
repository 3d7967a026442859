// Classic XSS payloads (OWASP filter-evasion cheat sheet and friends) through the blog renderer:
// whatever the author typed, no script, no event handler, no javascript:/data:/vbscript: URL.
import { describe, expect, it } from 'vitest';
import { plainText, renderMarkdown, renderPost } from '../../src/server/services/markdown.js';

const PAYLOADS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=https://xss.example/xss.js></SCRIPT>',
  '<img src=x onerror=alert(1)>',
  '<IMG SRC="javascript:alert(\'XSS\');">',
  '<IMG SRC=JaVaScRiPt:alert(1)>',
  '<IMG ' +
    'SRC=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#39;&#88;&#83;&#83;&#39;&#41;>',
  '<IMG SRC="jav&#x09;ascript:alert(1);">',
  '<svg onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<body onload=alert(1)>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<a href="javascript:alert(1)">click</a>',
  '<a href=" &#14;  javascript:alert(1)">click</a>',
  '<a href="vbscript:msgbox(1)">vb</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">data</a>',
  '[click](javascript:alert(1))',
  '[click](JAVASCRIPT:alert(1))',
  '[click](&#106;avascript:alert(1))',
  '[click](data:text/html,<script>alert(1)</script>)',
  '![x](javascript:alert(1))',
  '![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '<p style="x:expression(alert(1))">x</p>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<form action="javascript:alert(1)"><button>go</button></form>',
  '<input autofocus onfocus=alert(1)>',
  '<details open ontoggle=alert(1)>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  '<link rel=stylesheet href="javascript:alert(1)">',
  '<style>@import "javascript:alert(1)";</style>',
  '"><script>alert(1)</script>',
  '<<script>script>alert(1)<</script>/script>',
  '<a href="#" onclick="alert(1)">x</a>',
  '<video><source onerror="alert(1)"></video>',
  '<img src="https://ok.example/a.png" onload="alert(1)">',
  '`<script>alert(1)</script>`',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
];

function assertSafe(html: string) {
  expect(html).not.toMatch(/<script/i);
  expect(html).not.toMatch(
    /<(iframe|object|embed|form|input|svg|math|style|meta|base|link|body|video|source|details)\b/i,
  );
  // Any on* attribute inside a tag.
  expect(html).not.toMatch(/<[^>]*\son[a-z]+\s*=/i);
  expect(html).not.toMatch(/<[^>]*\sstyle\s*=/i);
  // No dangerous URL in any attribute.
  for (const m of html.matchAll(/\s(?:href|src)\s*=\s*"([^"]*)"/gi)) {
    // Decode entities and drop control characters and spaces, as a browser would when parsing a URL.
    const url = m[1]
      .replace(/&#x([0-9a-f]+);?/gi, (_, h) => String.fromCodePoint(parseInt(h, 16)))
      .replace(/&#(\d+);?/g, (_, d) => String.fromCodePoint(Number(d)))
      .replace(/&amp;/g, '&')
      // biome-ignore lint/suspicious/noControlCharactersInRegex: browsers ignore these in a URL scheme, so does the check
      .replace(/[\u0000-\u0020]/g, '');
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
    if (scheme) expect(['http', 'https', 'mailto']).toContain(scheme);
    expect(url.startsWith('//')).toBe(false);
  }
}

describe('blog Markdown sanitising', () => {
  it.each(PAYLOADS)('neutralises %s', (payload) => {
    assertSafe(renderMarkdown(payload));
    assertSafe(renderMarkdown(`Some intro\n\n${payload}\n\nmore text`));
  });

  it('still renders ordinary Markdown', () => {
    const html = renderMarkdown(
      '# Title\n\n**bold** _it_ `code`\n\n- a\n- b\n\n[site](https://example.com) ' +
        '![pic](https://example.com/p.png)\n\n```js\nlet x = 1 < 2;\n```',
    );
    expect(html).toContain('<h1>Title</h1>');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<em>it</em>');
    expect(html).toContain('<li>a</li>');
    expect(html).toContain('<img src="https://example.com/p.png" alt="pic" />');
    expect(html).toContain('href="https://example.com"');
    expect(html).toContain('<code class="language-js">let x = 1 &lt; 2;');
  });

  it('keeps text that merely mentions a tag, escaped', () => {
    const html = renderMarkdown('Use `<script>` tags carefully & wisely');
    expect(html).toContain('&lt;script&gt;');
  });

  it('makes a plain-text description without markup, cut to length', () => {
    expect(plainText('# Hi\n\n**bold** <script>x</script> & more')).toBe('Hi bold & more');
    const long = plainText('word '.repeat(100), 50);
    expect(long.length).toBeLessThanOrEqual(50);
    expect(long.endsWith('…')).toBe(true);
  });
});

// Issue 42, finding 8: a link in a public post to a GET that spends (a download, a media job) spent
// the reader's download on a click. Every way of writing such a link is made harmless at render.
describe("links to this site's spending routes", () => {
  const SITE = 'https://site.example';
  const VIDEO = 'https://www.tiktok.com/@a/video/123';
  const q = `url=${encodeURIComponent(VIDEO)}&quality=hd`;
  const relay = () => null;
  const render = (markdown: string, site = SITE) => {
    const out = renderPost(markdown, relay, site);
    if (!('html' in out)) throw new Error('refused');
    return out.html;
  };
  const hrefs = (html: string) =>
    [...html.matchAll(/\shref="([^"]*)"/g)].map((m) =>
      m[1]
        .replace(/&#x([0-9a-f]+);?/gi, (_, h) => String.fromCodePoint(parseInt(h, 16)))
        .replace(/&#(\d+);?/g, (_, d) => String.fromCodePoint(Number(d)))
        .replace(/&amp;/g, '&'),
    );
  /** Where a browser on the post's page would go, as the router reads it (decoded, lower case). */
  function pathOf(href: string, site: string) {
    const url = new URL(href, `${site}/blog/a-post`);
    let p = url.pathname;
    for (let i = 0; i < 5; i++) p = p.replace(/%([0-9a-f]{2})/gi, (_, h) => String.fromCharCode(parseInt(h, 16)));
    return { host: url.host, path: p.replace(/\\/g, '/').replace(/\/+/g, '/').toLowerCase() };
  }

  it.each([
    `[get it](/api/video/download?${q})`,
    `[get it](${SITE}/api/video/download?${q})`,
    `[get it](HTTPS://SITE.EXAMPLE/API/Video/DownLoad?${q})`,
    `[get it](/%61pi/video/download?${q})`,
    `[get it](/%2561pi/video/%64ownload?${q})`,
    `[get it](../api/video/download?${q})`,
    `[get it](./../../api/video/download/?${q})`,
    `<a href="//site.example/api/video/download?${q}">get it</a>`,
    `<a href="\\\\site.example\\api\\video\\download?${q}">get it</a>`,
    `<a href="/\\site.example/api/video/download?${q}">get it</a>`,
    `<a href="&#x2F;api&#x2F;video&#x2F;download?${q}">get it</a>`,
    `<a href=" /a&#9;pi/video/download?${q}">get it</a>`,
    `<a href="https://site.example./api/video/download?${q}">get it</a>`,
    `${SITE}/api/video/download?${q}`,
  ])('a download link becomes the downloader card for the video: %s', (markdown) => {
    const html = render(markdown);
    expect(hrefs(html)).toEqual([`/?url=${encodeURIComponent(VIDEO)}`]);
    expect(html).toContain('rel="nofollow noopener noreferrer ugc"');
  });

  it.each([
    '[watch](/api/video/stream/abc123)',
    '[watch](/API/VIDEO/STREAM/abc123?platform=bluesky)',
    '[watch](https://site.example/api/video/stream/abc123)',
    '[dl](/api/video/download?url=javascript:alert(1))',
    '[dl](/api/video/download)',
    '[out](/api/logout)',
    '[zip](/%41PI/batch/1/zip)',
    '[x](/api;x/video/download?url=https://a.example/v)',
  ])('any other link into the API loses its address: %s', (markdown) => {
    const html = render(markdown);
    expect(hrefs(html)).toEqual([]);
    expect(html).toMatch(/<a rel="nofollow noopener noreferrer ugc" target="_blank">/);
  });

  it('reads the loopback aliases of a local PUBLIC_URL as this site', () => {
    const site = 'http://localhost:5000';
    for (const host of ['http://127.0.0.1:5000', 'http://localhost:5000', 'http://[::1]:5000']) {
      for (const href of hrefs(render(`[a](${host}/api/video/download?${q}) [b](${host}/api/video/stream/x)`, site)))
        expect(pathOf(href, site).path).not.toMatch(/^\/api(\/|$)/);
    }
  });

  it('leaves links elsewhere as they are', () => {
    const kept = [
      `https://other.example/api/video/download?${q}`,
      '/blog/another-post',
      '/apis/are-fun',
      '/faq',
      `https://site.example/?url=${encodeURIComponent(VIDEO)}`,
    ];
    const html = render(kept.map((href, i) => `[l${i}](${href})`).join(' '));
    expect(hrefs(html)).toEqual(kept);
  });

  it('no variant of a spending link survives', () => {
    const variants = ['/api', '/API', '/%61pi', '/%2561pi', '/./api', '/blog/../api', '\\api', '/%2e%2e/api'].flatMap(
      (p) => [`${p}/video/download?${q}`, `${p}/video/stream/abc`],
    );
    const html = render(variants.map((v) => `<a href="${v}">x</a>`).join(' '));
    const paths = hrefs(html).map((h) => pathOf(h, SITE));
    expect(paths.length).toBeGreaterThan(0);
    for (const p of paths) expect(p.path, JSON.stringify(p)).not.toMatch(/^\/api(\/|;|$)/);
  });
});
