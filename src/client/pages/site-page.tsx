// FAQ, Contact Us, Privacy Policy and Terms (the footer's links): the operator's texts, rendered from
// Markdown and sanitised on the server (GET /api/pages/<name>); readable signed in or out.
import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { sitePageGet } from '../lib/api';
import { Spinner } from '../components/ui/spinner';
import { SiteFooter } from '../components/site-footer';

const PROSE =
  'break-words leading-relaxed text-slate-800 [&_a]:text-violet-700 [&_a]:underline [&_code]:rounded ' +
  '[&_code]:bg-slate-100 [&_code]:px-1 [&_h2]:mb-2 [&_h2]:mt-6 [&_h2]:text-xl [&_h2]:font-semibold [&_h3]:mb-2 ' +
  '[&_h3]:mt-4 [&_h3]:font-semibold [&_li]:my-1 [&_ol]:my-3 [&_ol]:list-decimal [&_ol]:pl-6 [&_p]:my-3 [&_ul]:my-3 ' +
  '[&_ul]:list-disc [&_ul]:pl-6';

export default function SitePage() {
  const [path] = useLocation();
  const name = path.replace(/^\/+|\/+$/g, '');
  const page = useQuery({ queryKey: ['/api/pages', name], queryFn: () => sitePageGet(name) });

  useEffect(() => {
    if (page.data) document.title = `${page.data.title} | Social Media Toolkit`;
  }, [page.data]);

  return (
    <>
      <main className="mx-auto max-w-3xl px-4 py-8 sm:py-12">
        {page.isLoading ? (
          <div className="flex min-h-[40vh] items-center justify-center">
            <Spinner label="Loading..." />
          </div>
        ) : page.data ? (
          <article>
            <h1 className="text-3xl font-extrabold tracking-tight text-slate-900">{page.data.title}</h1>
            {/* Sanitised on the server with a strict allow-list (src/server/services/markdown.ts). */}
            <div
              data-testid="site-page-text"
              className={`mt-4 ${PROSE}`}
              // biome-ignore lint/security/noDangerouslySetInnerHtml: server-sanitised Markdown
              dangerouslySetInnerHTML={{ __html: page.data.html }}
            />
          </article>
        ) : (
          <p className="text-slate-600">This page could not be loaded. Please try again later.</p>
        )}
      </main>
      <SiteFooter className="mx-auto max-w-3xl" />
    </>
  );
}
