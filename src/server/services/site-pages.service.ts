// The footer's FAQ, Contact, Privacy Policy and Terms pages: the operator's Markdown files from
// SITE_PAGES_DIR (faq.md, contact.md, privacy.md, terms.md), read once at start, else the defaults;
// each rendered when first asked for, then kept (the start renders nothing: decision 0077).
import fs from 'node:fs';
import path from 'node:path';
import { SITE_PAGES, type SitePage, type SitePageName } from '../../shared/contracts/site-pages.js';
import { renderMarkdown } from './markdown.js';
import { defaultSitePage } from './site-pages.defaults.js';

const TITLES: Record<SitePageName, string> = {
  faq: 'FAQ',
  contact: 'Contact Us',
  privacy: 'Privacy Policy',
  terms: 'Terms',
};

export function createSitePages(opts: {
  dir: string | undefined;
  contactEmail: string | undefined;
  mediaResultHours: number;
  imageSrc?: (src: string) => string | null;
}) {
  const sources = {} as Record<SitePageName, { markdown: string; custom: boolean }>;
  for (const name of SITE_PAGES) {
    const file = opts.dir ? path.join(opts.dir, `${name}.md`) : null;
    const own = file && fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
    sources[name] = { markdown: own ?? defaultSitePage(name, opts), custom: own !== null };
  }
  const pages: Partial<Record<SitePageName, SitePage>> = {};
  const render = (name: SitePageName): SitePage => {
    const { markdown, custom } = sources[name];
    return { name, title: TITLES[name], html: renderMarkdown(markdown, opts.imageSrc), custom };
  };
  return { get: (name: SitePageName): SitePage => (pages[name] ??= render(name)) };
}
export type SitePages = ReturnType<typeof createSitePages>;
