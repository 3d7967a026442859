// Hashtag generator (decision 0092 'Hashtag generator screen', 'Hashtags input', 'Toasts'): title, description
// and niche in; Trending, Niche and Mixed Strategy cards with Copy, plus Optimization Tips.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Hash, Lightbulb, Loader2 } from 'lucide-react';
import type { HashtagRequest, HashtagResult } from '@shared/contracts/hashtags';
import { hashtagsGenerate } from '../lib/api';
import { serverMessage } from '../lib/api-error';
import { toast } from '../hooks/use-toast';
import { ToolPage } from '../components/media-tools/tool-shell';
import { HASHTAGS_UPSELL } from '../components/upsell-samples';
import {
  CopyButton,
  fieldClass,
  HashtagChips,
  primaryButtonClass,
  SuggestionBadge,
} from '../components/text-tools/text-tools-ui';

const CARDS = [
  {
    key: 'trending',
    title: 'Trending Hashtags',
    note: 'High-reach tags (source in the tips)',
    testId: 'hashtags-trending',
  },
  // Decision 0092 'Constants' (niche hashtag description): the size band niche tags aim at (not a measurement).
  { key: 'niche', title: 'Niche Hashtags', note: '50K-500K uses', testId: 'hashtags-niche' },
  { key: 'mixed', title: 'Mixed Strategy', note: 'A 5-tag blend for one post', testId: 'hashtags-mixed' },
] as const;

export default function HashtagGeneratorPage() {
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [niche, setNiche] = useState('');
  const [result, setResult] = useState<HashtagResult | null>(null);
  const resultsRef = useRef<HTMLElement>(null);
  // Bring new results into view: on a phone they start below the form.
  useEffect(() => {
    if (result) resultsRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  }, [result]);

  const generate = useMutation({
    mutationFn: (body: HashtagRequest) => hashtagsGenerate(body),
    onSuccess: (data) => {
      setResult(data);
      toast({ title: 'Hashtags generated!', description: 'Pick the ones that fit your video.' });
    },
    onError: (err) => {
      toast({
        title: 'Generation failed',
        description: serverMessage(err) ?? 'Unable to generate hashtags. Please try again.',
        variant: 'destructive',
      });
    },
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    if (generate.isPending) return;
    if (!title.trim()) {
      toast({
        title: 'Video title required',
        description: 'Please enter a video title to generate hashtags',
        variant: 'destructive',
      });
      return;
    }
    // Decision 0092 'Hashtags input': description and niche omitted when empty; the platform is always 'social media'.
    const body: HashtagRequest = { videoTitle: title.trim(), platform: 'social media' };
    if (description.trim()) body.videoDescription = description.trim();
    if (niche.trim()) body.niche = niche.trim();
    generate.mutate(body);
  }

  return (
    <ToolPage
      icon={<Hash className="h-6 w-6" aria-hidden />}
      title="AI Hashtag Generator"
      subtitle="Hashtags for your next video: trending, niche and a ready-to-post mix."
      upsell={HASHTAGS_UPSELL}
    >
      <form
        onSubmit={submit}
        noValidate
        className="space-y-4 rounded-2xl bg-white p-4 shadow-lg ring-1 ring-slate-200 sm:p-6"
      >
        <div>
          <label htmlFor="video-title" className="mb-1.5 block text-sm font-semibold text-slate-700">
            Video Title <span className="text-pink-600">*</span>
          </label>
          <input
            id="video-title"
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            maxLength={300}
            placeholder="e.g. Easy 15-minute garlic butter pasta"
            className={fieldClass}
          />
        </div>
        <div>
          <label htmlFor="video-description" className="mb-1.5 block text-sm font-semibold text-slate-700">
            Description <span className="font-normal text-slate-500">(optional)</span>
          </label>
          <textarea
            id="video-description"
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            maxLength={5000}
            rows={3}
            placeholder="What happens in the video?"
            className={fieldClass}
          />
        </div>
        <div>
          <label htmlFor="video-niche" className="mb-1.5 block text-sm font-semibold text-slate-700">
            Niche <span className="font-normal text-slate-500">(optional)</span>
          </label>
          <input
            id="video-niche"
            value={niche}
            onChange={(e) => setNiche(e.target.value)}
            maxLength={100}
            placeholder="e.g. cooking, fitness, gaming"
            className={fieldClass}
          />
        </div>
        <button type="submit" disabled={generate.isPending} className={primaryButtonClass}>
          {generate.isPending && <Loader2 className="h-4 w-4 animate-spin" aria-hidden />}
          {generate.isPending ? 'Generating...' : 'Generate Hashtags'}
        </button>
      </form>

      {result && (
        <section ref={resultsRef} aria-label="Hashtag suggestions" className="scroll-mt-24 space-y-4">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 className="text-xl font-bold text-slate-900">Your hashtags</h2>
            <SuggestionBadge source={result.source} />
          </div>
          <div className="grid gap-4 md:grid-cols-3">
            {CARDS.map((card) => (
              <article
                key={card.key}
                data-testid={card.testId}
                className="flex flex-col gap-3 rounded-2xl bg-white p-4 shadow ring-1 ring-slate-200"
              >
                <div className="flex items-start justify-between gap-2">
                  <div className="min-w-0">
                    <h3 className="font-semibold text-slate-900">{card.title}</h3>
                    <p className="text-xs text-slate-500">{card.note}</p>
                  </div>
                  <CopyButton text={result[card.key].join(' ')} label={`Copy ${card.title}`} what="Hashtags" />
                </div>
                <HashtagChips tags={result[card.key]} />
              </article>
            ))}
          </div>
          <article data-testid="hashtag-tips" className="rounded-2xl bg-white p-4 shadow ring-1 ring-slate-200 sm:p-6">
            <h3 className="mb-3 flex items-center gap-2 font-semibold text-slate-900">
              <Lightbulb className="h-5 w-5 text-amber-500" aria-hidden /> Optimization Tips
            </h3>
            <ul className="list-disc space-y-1.5 pl-5 text-sm text-slate-700">
              {result.tips.map((tip) => (
                <li key={tip}>{tip}</li>
              ))}
            </ul>
          </article>
        </section>
      )}
    </ToolPage>
  );
}
