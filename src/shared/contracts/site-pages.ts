import { z } from 'zod';

/** The footer's pages: the operator's own texts (SITE_PAGES_DIR), else the product's defaults. */
export const SITE_PAGES = ['faq', 'contact', 'privacy', 'terms'] as const;
export type SitePageName = (typeof SITE_PAGES)[number];

export const sitePageParams = z.object({ name: z.string().max(40) });
export const isSitePage = (name: string): name is SitePageName => (SITE_PAGES as readonly string[]).includes(name);

export const sitePage = z.object({
  name: z.enum(SITE_PAGES),
  title: z.string(),
  /** Markdown rendered to sanitised HTML on the server. */
  html: z.string(),
  /** True when the operator wrote this text; false for the product's default. */
  custom: z.boolean(),
});
export type SitePage = z.infer<typeof sitePage>;
