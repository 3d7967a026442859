// Link previews: bots do not run JavaScript, so the title, description and og: tags of a published
// post are written into the served index.html itself. Every value is HTML-escaped.
import type { PostPreview } from './blog.service.js';

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const SITE = 'Social Media Toolkit';

export function injectPostPreview(indexHtml: string, post: PostPreview, publicUrl: string): string {
  const title = `${post.title} | ${SITE}`;
  const url = `${publicUrl}/blog/${encodeURIComponent(post.slug)}`;
  const meta: Array<[string, string, string]> = [
    ['name', 'description', post.description],
    ['property', 'og:type', 'article'],
    ['property', 'og:site_name', SITE],
    ['property', 'og:title', post.title],
    ['property', 'og:description', post.description],
    ['property', 'og:url', url],
    ['property', 'article:published_time', post.publishedAt],
    ['name', 'twitter:card', post.image ? 'summary_large_image' : 'summary'],
    ['name', 'twitter:title', post.title],
    ['name', 'twitter:description', post.description],
  ];
  if (post.image) meta.push(['property', 'og:image', post.image], ['name', 'twitter:image', post.image]);
  const tags = [
    `<title>${escapeHtml(title)}</title>`,
    ...meta.map(([attr, key, value]) => `<meta ${attr}="${key}" content="${escapeHtml(value)}" />`),
    `<link rel="canonical" href="${escapeHtml(url)}" />`,
  ].join('\n    ');
  // Drop the generic title and description, then put the post's in their place.
  const stripped = indexHtml
    .replace(/<title>[\s\S]*?<\/title>\s*/i, '')
    .replace(/<meta\s+name=["']description["'][^>]*>\s*/i, '');
  // A function replacement, so '$' in a title is never read as a replacement pattern.
  return stripped.replace(/<\/head>/i, () => `  ${tags}\n  </head>`);
}
