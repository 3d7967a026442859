// A published post at /blog/<slug>, readable signed in or out. The HTML comes from the server,
// rendered from Markdown and sanitised there (decision 0801); nothing else is rendered as HTML.
import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'wouter';
import { CalendarDays } from 'lucide-react';
import { blogPublicGet } from '../lib/api';
import { Spinner } from '../components/ui/spinner';
import { PostImage } from '../components/blog/post-image';

const PROSE =
  'break-words text-slate-800 leading-relaxed [&_a]:text-violet-700 [&_a]:underline ' +
  '[&_blockquote]:my-4 [&_blockquote]:border-l-4 [&_blockquote]:border-slate-200 [&_blockquote]:pl-4 ' +
  '[&_blockquote]:text-slate-600 [&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 [&_h1]:mb-3 ' +
  '[&_h1]:mt-6 [&_h1]:text-2xl [&_h1]:font-bold [&_h2]:mb-2 [&_h2]:mt-5 [&_h2]:text-xl ' +
  '[&_h2]:font-semibold [&_h3]:mb-2 [&_h3]:mt-4 [&_h3]:text-lg [&_h3]:font-semibold [&_img]:my-4 ' +
  '[&_img]:max-w-full [&_img]:rounded-lg [&_li]:my-1 [&_ol]:my-3 [&_ol]:list-decimal [&_ol]:pl-6 ' +
  '[&_p]:my-3 [&_pre]:my-4 [&_pre]:overflow-x-auto [&_pre]:rounded-lg [&_pre]:bg-slate-900 ' +
  '[&_pre]:p-4 [&_pre]:text-slate-100 [&_pre_code]:bg-transparent [&_table]:my-4 [&_td]:border ' +
  '[&_td]:px-2 [&_th]:border [&_th]:px-2 [&_ul]:my-3 [&_ul]:list-disc [&_ul]:pl-6';

export default function BlogPostPage() {
  const { slug = '' } = useParams<{ slug: string }>();
  const post = useQuery({ queryKey: ['/api/blog/public', slug], queryFn: () => blogPublicGet(slug) });

  useEffect(() => {
    if (post.data) document.title = `${post.data.title} | Social Media Toolkit`;
  }, [post.data]);

  if (post.isLoading) {
    return (
      <div className="flex min-h-[50vh] items-center justify-center">
        <Spinner label="Loading post..." />
      </div>
    );
  }
  if (!post.data) {
    return (
      <main className="mx-auto max-w-3xl px-4 py-16 text-center">
        <h1 className="text-2xl font-bold text-slate-900">Post not found</h1>
        <p className="mt-2 text-slate-600">This post does not exist or is not published.</p>
        <Link
          href="/"
          className="mt-6 inline-block rounded-md bg-violet-600 px-4 py-2 font-semibold text-white hover:bg-violet-700"
        >
          Go home
        </Link>
      </main>
    );
  }
  const p = post.data;
  return (
    <main className="mx-auto max-w-3xl px-4 py-8">
      <article>
        {p.featuredImage && (
          <PostImage
            src={p.featuredImageSrc ?? ''}
            alt=""
            hideOnError
            className="mb-6 aspect-[2/1] w-full rounded-xl"
          />
        )}
        <h1 className="break-words text-3xl font-bold text-slate-900 sm:text-4xl">{p.title}</h1>
        <div className="mt-3 flex flex-wrap items-center gap-2 text-sm text-slate-500">
          <span className="flex items-center gap-1">
            <CalendarDays className="h-4 w-4" aria-hidden />
            <time dateTime={p.createdAt}>
              {new Date(p.createdAt).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' })}
            </time>
          </span>
          {p.tags.map((t) => (
            <span key={t} data-testid="post-tag" className="rounded bg-violet-50 px-1.5 py-0.5 text-xs text-violet-700">
              {t}
            </span>
          ))}
        </div>
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised on the server with a strict allow-list
            (src/server/services/markdown.ts) */}
        <div data-testid="post-content" className={`mt-6 ${PROSE}`} dangerouslySetInnerHTML={{ __html: p.html }} />
      </article>
    </main>
  );
}
