import { describe, expect, it } from 'vitest';
import { injectPostPreview } from '../../src/server/services/blog-page-html.js';
import { slugify, splitTags } from '../../src/shared/slug.js';

const INDEX = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <title>Social Media Toolkit - Complete Content Suite</title>
    <meta name="description" content="Generic description." />
    <script type="module" src="/assets/index-abc.js"></script>
  </head>
  <body><div id="root"></div></body>
</html>`;

describe('link-preview tags for /blog/<slug>', () => {
  const preview = {
    title: 'Tips </title><script>alert(1)</script> & "quotes" $&',
    description: `It's <b>bold</b> & "quoted"`,
    image: 'https://cdn.example/a.png?x=1&y=2',
    slug: 'tips',
    publishedAt: '2026-01-02T03:04:05.000Z',
  };
  const html = injectPostPreview(INDEX, preview, 'https://toolkit.example');

  it('replaces the title and description with escaped ones, once', () => {
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html).toContain(
      '<title>Tips &lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot; $&amp; | Social Media Toolkit</title>',
    );
    expect(html.match(/name="description"/g)).toHaveLength(1);
    expect(html).toContain(
      '<meta name="description" content="It&#39;s &lt;b&gt;bold&lt;/b&gt; &amp; &quot;quoted&quot;" />',
    );
    expect(html).not.toContain('Generic description.');
    expect(html).not.toContain('<script>alert(1)');
  });

  it('adds og: tags with the absolute URL and image', () => {
    expect(html).toContain('<meta property="og:url" content="https://toolkit.example/blog/tips" />');
    expect(html).toContain('<meta property="og:image" content="https://cdn.example/a.png?x=1&amp;y=2" />');
    expect(html).toContain('<meta property="og:type" content="article" />');
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image" />');
    // The app's script tag and body are untouched.
    expect(html).toContain('<script type="module" src="/assets/index-abc.js"></script>');
    expect(html).toContain('<div id="root"></div>');
  });

  it('leaves out image tags without an image', () => {
    const plain = injectPostPreview(INDEX, { ...preview, image: null }, 'https://toolkit.example');
    expect(plain).not.toContain('og:image');
    expect(plain).toContain('<meta name="twitter:card" content="summary" />');
  });
});

describe('slug and tag rules of decision 0092', () => {
  it.each([
    ['Hello World', 'hello-world'],
    ['  --Hello,   World!!--  ', 'hello-world'],
    ['10 Tips: TikTok & Reels (2024)', '10-tips-tiktok-reels-2024'],
    ['Café déjà vu', 'caf-d-j-vu'],
    ['!!!', ''],
  ])('slugify(%j) = %j', (input, expected) => {
    expect(slugify(input)).toBe(expected);
  });

  it('splits comma-separated tags, trimming and dropping blanks', () => {
    expect(splitTags(' a, b ,, ,c,')).toEqual(['a', 'b', 'c']);
    expect(splitTags('')).toEqual([]);
  });
});
