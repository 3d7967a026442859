// Decision 0092 'Blog management screen': the 'Write New Post' form with its seven fields; the same form edits a
// post (draft or published) when `editing` is given.
import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { BLOG_LIMITS, type BLOG_STATUSES, type BlogPost } from '@shared/contracts/blog';
import { slugify, splitTags } from '@shared/slug';
import { blogPostCreate, blogPostUpdate } from '../../lib/api';
import { errorCode, serverMessage } from '../../lib/api-error';
import { queryClient } from '../../lib/query-client';
import { toast } from '../../hooks/use-toast';
import { Field, inputClass } from './form-field';

const EMPTY = {
  title: '',
  content: '',
  excerpt: '',
  slug: '',
  status: 'draft' as (typeof BLOG_STATUSES)[number],
  featuredImage: '',
  tags: '',
};

const formOf = (p: BlogPost): typeof EMPTY => ({
  title: p.title,
  content: p.content,
  excerpt: p.excerpt ?? '',
  slug: p.slug,
  status: p.status === 'published' ? 'published' : 'draft',
  featuredImage: p.featuredImage ?? '',
  tags: p.tags.join(', '),
});

export function BlogPostForm({ editing = null, onDone }: { editing?: BlogPost | null; onDone?: () => void }) {
  const [form, setForm] = useState(() => (editing ? formOf(editing) : EMPTY));
  const [slugError, setSlugError] = useState<string | null>(null);
  const set = (k: keyof typeof EMPTY) => (e: { target: { value: string } }) => {
    setForm((f) => ({ ...f, [k]: e.target.value }));
    if (k === 'slug' || k === 'title') setSlugError(null);
  };

  const create = useMutation({
    mutationFn: () => {
      const body = {
        title: form.title,
        content: form.content,
        excerpt: form.excerpt,
        slug: form.slug,
        status: form.status,
        featuredImage: form.featuredImage,
        tags: splitTags(form.tags),
      };
      return editing ? blogPostUpdate(editing.id, body) : blogPostCreate(body);
    },
    onSuccess: () => {
      toast({ title: editing ? 'Post updated' : 'Post created successfully' });
      setForm(EMPTY);
      onDone?.();
      void queryClient.invalidateQueries({ queryKey: ['/api/blog/posts'] });
    },
    onError: (err) => {
      if (errorCode(err) === 'blog.slug_taken') setSlugError(serverMessage(err) ?? null);
      toast({
        title: editing ? 'Error updating post' : 'Error creating post',
        description: serverMessage(err) ?? (editing ? 'Failed to update blog post' : 'Failed to create blog post'),
        variant: 'destructive',
      });
    },
  });

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!form.title.trim() || !form.content.trim()) {
      toast({
        title: 'Missing required fields',
        description: 'Please fill in title and content',
        variant: 'destructive',
      });
      return;
    }
    create.mutate();
  }

  const slugPreview = slugify(form.slug || form.title);
  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="space-y-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6"
      aria-labelledby="write-new-post"
    >
      <h2 id="write-new-post" className="text-lg font-semibold text-slate-900">
        {editing ? 'Edit Post' : 'Write New Post'}
      </h2>
      <Field label="Title">
        <input
          value={form.title}
          onChange={set('title')}
          maxLength={BLOG_LIMITS.title}
          className={inputClass}
          placeholder="Enter post title"
        />
      </Field>
      <Field label="Content" hint="Markdown is supported: **bold**, _italic_, # headings, lists and links.">
        <textarea
          value={form.content}
          onChange={set('content')}
          rows={8}
          className={inputClass}
          placeholder="Write your post content..."
        />
      </Field>
      <Field label="Excerpt">
        <textarea
          value={form.excerpt}
          onChange={set('excerpt')}
          rows={2}
          maxLength={BLOG_LIMITS.excerpt}
          className={inputClass}
          placeholder="Brief description of your post"
        />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Slug"
          error={slugError}
          hint={slugPreview ? `Address: /blog/${slugPreview}` : 'Generated from the title when left blank'}
        >
          <input
            value={form.slug}
            onChange={set('slug')}
            maxLength={BLOG_LIMITS.slug}
            className={inputClass}
            placeholder="post-url-slug"
          />
        </Field>
        <Field label="Status">
          <select value={form.status} onChange={set('status')} className={inputClass}>
            <option value="draft">Draft</option>
            <option value="published">Published</option>
          </select>
        </Field>
      </div>
      <Field label="Featured Image URL">
        <input
          type="url"
          value={form.featuredImage}
          onChange={set('featuredImage')}
          maxLength={BLOG_LIMITS.featuredImage}
          className={inputClass}
          placeholder="https://example.com/image.jpg"
        />
      </Field>
      <Field label="Tags" hint="Separate tags with commas">
        <input value={form.tags} onChange={set('tags')} className={inputClass} placeholder="tips, growth, editing" />
      </Field>
      <div className="flex flex-col gap-2 sm:flex-row">
        <button
          type="submit"
          disabled={create.isPending}
          className="w-full rounded-md bg-violet-600 px-4 py-2 font-semibold text-white hover:bg-violet-700 disabled:opacity-60 sm:w-auto"
        >
          {create.isPending ? (editing ? 'Saving...' : 'Creating...') : editing ? 'Save Changes' : 'Create Post'}
        </button>
        {editing && (
          <button
            type="button"
            onClick={onDone}
            className="w-full rounded-md border border-slate-300 px-4 py-2 font-semibold text-slate-700 hover:bg-slate-50 sm:w-auto"
          >
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
