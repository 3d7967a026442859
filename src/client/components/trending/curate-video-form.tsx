// The 'Curate Video' form (decision 0092 'Trending Videos screen', 'Trending video form').
import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Loader2, Wand2 } from 'lucide-react';
import { TRENDING_LOOKUP_MIN_URL } from '@shared/constants';
import {
  TRENDING_LIMITS,
  TRENDING_PLATFORMS,
  TRENDING_STATUSES,
  type TrendingPlatform,
} from '@shared/contracts/trending-videos';
import { splitTags } from '@shared/slug';
import { trendingVideoCreate, videoInfoFetch } from '../../lib/api';
import { serverMessage } from '../../lib/api-error';
import { queryClient } from '../../lib/query-client';
import { toast } from '../../hooks/use-toast';
import { usePlatforms } from '../../hooks/use-platforms';
import { Field, inputClass } from '../blog/form-field';

const DEFAULTS = {
  videoUrl: '',
  title: '',
  description: '',
  platform: 'tiktok' as TrendingPlatform,
  status: 'active' as (typeof TRENDING_STATUSES)[number],
  thumbnailUrl: '',
  author: '',
  tags: '',
  viewCount: 0,
  likeCount: 0,
};

export function CurateVideoForm({ onClose }: { onClose: () => void }) {
  const [form, setForm] = useState(DEFAULTS);
  const { example } = usePlatforms();
  const set = (k: keyof typeof DEFAULTS) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [k]: e.target.value }));
  const fetchFailed = () =>
    toast({
      title: 'Could not fetch video info',
      description: 'Please fill in the details manually',
      variant: 'destructive',
    });

  const fetchInfo = useMutation({
    mutationFn: (url: string) => videoInfoFetch({ url }),
    onSuccess: (info) => {
      setForm((f) => ({
        ...f,
        title: info.title.slice(0, TRENDING_LIMITS.title) || f.title,
        // The description stays the curator's own words (the title is not repeated into it).
        author: info.author.slice(0, TRENDING_LIMITS.author) || f.author,
        // A CDN address longer than the column allows is left for the person to fill in.
        thumbnailUrl:
          info.thumbnail && info.thumbnail.length <= TRENDING_LIMITS.thumbnailUrl ? info.thumbnail : f.thumbnailUrl,
        // The list's platforms are the founding social networks; a looked-up video names its own when it is one.
        platform: (TRENDING_PLATFORMS as readonly string[]).includes(info.platform)
          ? (info.platform as TrendingPlatform)
          : f.platform,
        viewCount: info.views ?? 0,
        likeCount: info.likes ?? 0,
      }));
      toast({ title: 'Video info loaded' });
    },
    onError: fetchFailed,
  });

  const save = useMutation({
    mutationFn: () =>
      trendingVideoCreate({
        title: form.title,
        description: form.description,
        videoUrl: form.videoUrl,
        platform: form.platform,
        thumbnailUrl: form.thumbnailUrl,
        author: form.author,
        tags: splitTags(form.tags),
        status: form.status,
        viewCount: form.viewCount,
        likeCount: form.likeCount,
      }),
    onSuccess: () => {
      toast({ title: 'Video added successfully' });
      setForm(DEFAULTS);
      onClose();
      void queryClient.invalidateQueries({ queryKey: ['/api/trending-videos'] });
    },
    onError: (err) =>
      toast({
        title: 'Error adding video',
        description: serverMessage(err) ?? 'Failed to add trending video',
        variant: 'destructive',
      }),
  });

  function onFetch() {
    const url = form.videoUrl.trim();
    // Decision 0092 'Trending video rules': the lookup only runs from 10 characters of URL.
    if (url.length < TRENDING_LOOKUP_MIN_URL) return fetchFailed();
    fetchInfo.mutate(url);
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!form.title.trim() || !form.videoUrl.trim() || !form.platform) {
      toast({
        title: 'Missing required fields',
        description: 'Please fill in title, video URL, and platform',
        variant: 'destructive',
      });
      return;
    }
    save.mutate();
  }

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-labelledby="curate-title"
      className="space-y-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6"
    >
      <h2 id="curate-title" className="text-lg font-semibold text-slate-900">
        Curate Video
      </h2>
      <Field label="Video URL" id="curate-video-url">
        <div className="flex flex-col gap-2 sm:flex-row">
          <input
            id="curate-video-url"
            type="url"
            value={form.videoUrl}
            onChange={set('videoUrl')}
            maxLength={TRENDING_LIMITS.videoUrl}
            className={inputClass}
            placeholder={example}
          />
          <button
            type="button"
            onClick={onFetch}
            disabled={!form.videoUrl.trim() || fetchInfo.isPending}
            className={
              'mt-1 flex shrink-0 items-center justify-center gap-1 rounded-md border ' +
              'border-violet-300 px-3 py-2 text-sm font-medium text-violet-700 hover:bg-violet-50 ' +
              'disabled:cursor-not-allowed disabled:opacity-50'
            }
          >
            {fetchInfo.isPending ? (
              <Loader2 className="h-4 w-4 animate-spin" aria-hidden />
            ) : (
              <Wand2 className="h-4 w-4" aria-hidden />
            )}
            {fetchInfo.isPending ? 'Fetching...' : 'Fetch Info'}
          </button>
        </div>
      </Field>
      <Field label="Title">
        <input
          value={form.title}
          onChange={set('title')}
          maxLength={TRENDING_LIMITS.title}
          className={inputClass}
          placeholder="Video title"
        />
      </Field>
      <Field label="Description">
        <textarea
          value={form.description}
          onChange={set('description')}
          rows={3}
          maxLength={TRENDING_LIMITS.description}
          className={inputClass}
          placeholder="What makes it trend?"
        />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Platform">
          <select value={form.platform} onChange={set('platform')} className={inputClass}>
            {TRENDING_PLATFORMS.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Status">
          <select value={form.status} onChange={set('status')} className={inputClass}>
            {TRENDING_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Author">
          <input
            value={form.author}
            onChange={set('author')}
            maxLength={TRENDING_LIMITS.author}
            className={inputClass}
            placeholder="Creator name"
          />
        </Field>
        <Field label="Thumbnail URL">
          <input
            type="text"
            inputMode="url"
            value={form.thumbnailUrl}
            onChange={set('thumbnailUrl')}
            maxLength={TRENDING_LIMITS.thumbnailUrl}
            className={inputClass}
            placeholder="https://..."
          />
        </Field>
      </div>
      <Field label="Tags" hint="Separate tags with commas">
        <input value={form.tags} onChange={set('tags')} className={inputClass} placeholder="dance, challenge, viral" />
      </Field>
      <div className="flex flex-col gap-2 sm:flex-row">
        <button
          type="submit"
          disabled={save.isPending}
          className="rounded-md bg-violet-600 px-4 py-2 font-semibold text-white hover:bg-violet-700 disabled:opacity-60"
        >
          {save.isPending ? 'Adding...' : 'Save'}
        </button>
        <button
          type="button"
          onClick={() => {
            setForm(DEFAULTS);
            onClose();
          }}
          className="rounded-md border border-slate-200 px-4 py-2 font-medium text-slate-700 hover:bg-slate-100"
        >
          Cancel
        </button>
      </div>
    </form>
  );
}
