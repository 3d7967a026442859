// Decision 0092 'Blog management screen' (/blog): 'My Blog', the 'Write New Post' form and your posts.
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { useState } from 'react';
import { CalendarDays, ExternalLink, Pencil, Trash2 } from 'lucide-react';
import type { BlogPost } from '@shared/contracts/blog';
import { blogPostDelete, blogPostsList } from '../lib/api';
import { serverMessage } from '../lib/api-error';
import { queryClient } from '../lib/query-client';
import { toast } from '../hooks/use-toast';
import { Spinner } from '../components/ui/spinner';
import { BlogPostForm } from '../components/blog/blog-post-form';
import { PostImage } from '../components/blog/post-image';

export function formatPostDate(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}

function PostRow({ post, onEdit }: { post: BlogPost; onEdit: () => void }) {
  const remove = useMutation({
    mutationFn: () => blogPostDelete(post.id),
    onSuccess: () => {
      toast({ title: 'Post deleted' });
      void queryClient.invalidateQueries({ queryKey: ['/api/blog/posts'] });
    },
    onError: (err) =>
      toast({
        title: 'Error deleting post',
        description: serverMessage(err) ?? 'Failed to delete blog post',
        variant: 'destructive',
      }),
  });
  const published = post.status === 'published';
  return (
    <li
      data-testid="blog-post"
      className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:flex-row"
    >
      {post.featuredImage && (
        <PostImage
          src={post.featuredImageSrc ?? ''}
          alt=""
          className="h-32 w-full shrink-0 rounded-lg sm:h-24 sm:w-36"
        />
      )}
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <h3 className="break-words text-base font-semibold text-slate-900">{post.title}</h3>
          <span
            className={`rounded-full px-2 py-0.5 text-xs font-medium ${
              published ? 'bg-green-100 text-green-800' : 'bg-slate-100 text-slate-700'
            }`}
          >
            {published ? 'Published' : 'Draft'}
          </span>
        </div>
        {post.excerpt && <p className="mt-1 line-clamp-2 break-words text-sm text-slate-600">{post.excerpt}</p>}
        <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-500">
          <span className="flex items-center gap-1">
            <CalendarDays className="h-3.5 w-3.5" aria-hidden /> {formatPostDate(post.createdAt)}
          </span>
          <span className="break-all">/blog/{post.slug}</span>
          {post.tags.map((t) => (
            <span key={t} className="rounded bg-violet-50 px-1.5 py-0.5 text-violet-700">
              {t}
            </span>
          ))}
        </div>
      </div>
      <div className="flex shrink-0 flex-wrap items-start gap-2">
        {published && (
          <Link
            href={`/blog/${post.slug}`}
            className="flex items-center gap-1 rounded-md border border-slate-200 px-3 py-1.5 text-sm text-slate-700 hover:bg-slate-100"
          >
            <ExternalLink className="h-4 w-4" aria-hidden /> View
          </Link>
        )}
        <button
          type="button"
          onClick={onEdit}
          aria-label={`Edit ${post.title}`}
          className="flex items-center gap-1 rounded-md border border-slate-200 px-3 py-1.5 text-sm text-slate-700 hover:bg-slate-100"
        >
          <Pencil className="h-4 w-4" aria-hidden /> Edit
        </button>
        <button
          type="button"
          aria-label={`Delete ${post.title}`}
          disabled={remove.isPending}
          onClick={() => {
            if (window.confirm(`Delete "${post.title}"? This cannot be undone.`)) remove.mutate();
          }}
          className={
            'flex items-center gap-1 rounded-md border border-red-200 px-3 py-1.5 text-sm ' +
            'text-red-700 hover:bg-red-50 disabled:opacity-60'
          }
        >
          <Trash2 className="h-4 w-4" aria-hidden /> Delete
        </button>
      </div>
    </li>
  );
}

export default function BlogPage() {
  const posts = useQuery({ queryKey: ['/api/blog/posts'], queryFn: blogPostsList });
  const [editing, setEditing] = useState<BlogPost | null>(null);
  return (
    <main className="mx-auto max-w-4xl space-y-6 px-4 py-8">
      <div>
        <h1 className="text-3xl font-bold text-slate-900">My Blog</h1>
        <p className="mt-1 text-slate-600">
          Write posts for your audience. Published posts get a public page anyone can open.
        </p>
      </div>
      {/* key: a fresh form for each post edited, and an empty one after. */}
      <BlogPostForm key={editing?.id ?? 'new'} editing={editing} onDone={() => setEditing(null)} />
      <section aria-labelledby="my-posts" className="space-y-3">
        <h2 id="my-posts" className="text-lg font-semibold text-slate-900">
          Your Posts {posts.data ? `(${posts.data.length})` : ''}
        </h2>
        {posts.isLoading ? (
          <Spinner label="Loading posts..." />
        ) : posts.isError ? (
          <p role="alert" className="text-sm text-red-700">
            {serverMessage(posts.error) ?? 'Failed to load blog posts'}
          </p>
        ) : posts.data && posts.data.length > 0 ? (
          <ul className="space-y-3">
            {posts.data.map((p) => (
              <PostRow
                key={p.id}
                post={p}
                onEdit={() => {
                  setEditing(p);
                  window.scrollTo({ top: 0, behavior: 'smooth' });
                }}
              />
            ))}
          </ul>
        ) : (
          <p className="rounded-xl border border-dashed border-slate-300 p-6 text-center text-sm text-slate-500">
            No posts yet. Write your first one above.
          </p>
        )}
      </section>
    </main>
  );
}
