// The footer's FAQ, Contact, Privacy Policy and Terms pages: the operator's Markdown files from
// SITE_PAGES_DIR (faq.md, contact.md, privacy.md, terms.md), read once at start, else the defaults.
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
  const pages = {} as Record<SitePageName, SitePage>;
  for (const name of SITE_PAGES) {
    const file = opts.dir ? path.join(opts.dir, `${name}.md`) : null;
    const own = file && fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
    const markdown = own ?? defaultSitePage(name, opts);
    pages[name] = { name, title: TITLES[name], html: renderMarkdown(markdown, opts.imageSrc), custom: own !== null };
  }
  return { get: (name: SitePageName): SitePage => pages[name] };
}
export type SitePages = ReturnType<typeof createSitePages>;
