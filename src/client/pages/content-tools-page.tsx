// Content repurposing (decision 0092 'Content repurposing screen', 'Content optimise input', 'Toasts'): text and
// platforms in; one card per platform with the caption, hashtags, tips and posting times.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { CalendarClock, Lightbulb, Loader2, Wand2 } from 'lucide-react';
import {
  CONTENT_MAX,
  type ContentPlatform,
  type OptimizeResult,
  type PlatformOptimization,
} from '@shared/contracts/content';
import { PLATFORM_LIMITS } from '@shared/platform-limits';
import { contentOptimize } from '../lib/api';
import { serverMessage } from '../lib/api-error';
import { toast } from '../hooks/use-toast';
import { ToolPage } from '../components/media-tools/tool-shell';
import {
  CopyButton,
  fieldClass,
  HashtagChips,
  primaryButtonClass,
  SuggestionBadge,
} from '../components/text-tools/text-tools-ui';

/** Decision 0092 'Constants': the screen offers tiktok only (the API accepts more). */
const OFFERED: ContentPlatform[] = ['tiktok'];

function PlatformCard({ result, source }: { result: PlatformOptimization; source: OptimizeResult['source'] }) {
  const label = PLATFORM_LIMITS[result.platform]?.label ?? result.platform;
  return (
    <article
      data-testid={`optimized-${result.platform}`}
      className="space-y-4 rounded-2xl bg-white p-4 shadow ring-1 ring-slate-200 sm:p-6"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-lg font-bold text-slate-900">{label}</h3>
        <SuggestionBadge source={source} />
      </div>
      <div>
        <div className="mb-1.5 flex items-center justify-between gap-2">
          <h4 className="text-sm font-semibold text-slate-700">Optimized caption</h4>
          <CopyButton text={result.optimizedCaption} label={`Copy ${label} caption`} what="Caption" />
        </div>
        {/* Plain text only: the caption is never rendered as HTML. */}
        <p
          data-testid="optimized-caption"
          className="whitespace-pre-wrap break-words rounded-lg bg-slate-50 p-3 text-sm text-slate-800 ring-1 ring-slate-200"
        >
          {result.optimizedCaption}
        </p>
        <p className="mt-1 text-right text-xs text-slate-500">
          {result.optimizedCaption.length.toLocaleString('en-US')} / {result.characterLimit.toLocaleString('en-US')}{' '}
          characters
        </p>
      </div>
      <div>
        <h4 className="mb-1.5 text-sm font-semibold text-slate-700">Hashtags</h4>
        <HashtagChips tags={result.hashtags} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <h4 className="mb-1.5 flex items-center gap-1.5 text-sm font-semibold text-slate-700">
            <Lightbulb className="h-4 w-4 text-amber-500" aria-hidden /> Tips
          </h4>
          <ul className="list-disc space-y-1 pl-5 text-sm text-slate-700">
            {result.tips.map((tip) => (
              <li key={tip}>{tip}</li>
            ))}
          </ul>
        </div>
        <div>
          <h4 className="mb-1.5 flex items-center gap-1.5 text-sm font-semibold text-slate-700">
            <CalendarClock className="h-4 w-4 text-violet-600" aria-hidden /> Best posting times{' '}
            <span className="font-normal text-slate-500">(general guidance)</span>
          </h4>
          <ul className="list-disc space-y-1 pl-5 text-sm text-slate-700">
            {result.bestPostingTimes.map((time) => (
              <li key={time}>{time}</li>
            ))}
          </ul>
        </div>
      </div>
    </article>
  );
}

export default function ContentToolsPage() {
  const [content, setContent] = useState('');
  const [platforms, setPlatforms] = useState<ContentPlatform[]>(['tiktok']);
  const [result, setResult] = useState<OptimizeResult | null>(null);
  const resultsRef = useRef<HTMLElement>(null);
  // Bring new results into view: on a phone they start below the form.
  useEffect(() => {
    if (result) resultsRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  }, [result]);

  const optimize = useMutation({
    mutationFn: (body: { content: string; platforms: ContentPlatform[] }) => contentOptimize(body),
    onSuccess: (data) => {
      if (!data || !Array.isArray(data.platforms)) {
        toast({
          title: 'Optimization failed',
          description: 'Invalid optimization response format',
          variant: 'destructive',
        });
        return;
      }
      setResult(data);
      toast({ title: 'Content optimized!', description: `Optimized for ${data.platforms.length} platform(s)` });
    },
    onError: (err) => {
      toast({
        title: 'Optimization failed',
        description: serverMessage(err) ?? 'Failed to optimize content. Please try again.',
        variant: 'destructive',
      });
    },
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    if (optimize.isPending) return;
    if (!content.trim()) {
      toast({
        title: 'Content required',
        description: 'Please enter some content to optimize',
        variant: 'destructive',
      });
      return;
    }
    if (platforms.length === 0) {
      toast({ title: 'Platform required', description: 'Please select at least one platform', variant: 'destructive' });
      return;
    }
    optimize.mutate({ content, platforms });
  }

  const toggle = (p: ContentPlatform, on: boolean) =>
    setPlatforms((list) => (on ? [...new Set([...list, p])] : list.filter((x) => x !== p)));

  return (
    <ToolPage
      icon={<Wand2 className="h-6 w-6" aria-hidden />}
      title="Content Repurposing"
      subtitle="Turn your text into a caption that fits each platform's limits."
    >
      <form
        onSubmit={submit}
        noValidate
        className="space-y-4 rounded-2xl bg-white p-4 shadow-lg ring-1 ring-slate-200 sm:p-6"
      >
        <div>
          <label htmlFor="content" className="mb-1.5 block text-sm font-semibold text-slate-700">
            Content
          </label>
          <textarea
            id="content"
            value={content}
            onChange={(e) => setContent(e.target.value)}
            maxLength={CONTENT_MAX}
            rows={7}
            placeholder="Paste your caption, script or post..."
            className={fieldClass}
          />
          <p className="mt-1 text-right text-xs text-slate-500">
            {content.length.toLocaleString('en-US')} / {CONTENT_MAX.toLocaleString('en-US')}
          </p>
        </div>
        <fieldset>
          <legend className="mb-1.5 text-sm font-semibold text-slate-700">Platforms</legend>
          <div className="flex flex-wrap gap-3">
            {OFFERED.map((p) => (
              <label
                key={p}
                className={
                  'inline-flex cursor-pointer items-center gap-2 rounded-lg border ' +
                  'border-slate-200 px-3 py-2 text-sm text-slate-800 hover:bg-slate-50'
                }
              >
                <input
                  type="checkbox"
                  checked={platforms.includes(p)}
                  onChange={(e) => toggle(p, e.target.checked)}
                  className="h-4 w-4 accent-violet-600"
                />
                {p}
              </label>
            ))}
          </div>
        </fieldset>
        <button type="submit" disabled={optimize.isPending} className={primaryButtonClass}>
          {optimize.isPending && <Loader2 className="h-4 w-4 animate-spin" aria-hidden />}
          {optimize.isPending ? 'Optimizing...' : 'Optimize'}
        </button>
      </form>

      {result && (
        <section ref={resultsRef} aria-label="Optimized content" className="scroll-mt-24 space-y-4">
          {result.platforms.map((r) => (
            <PlatformCard key={r.platform} result={r} source={result.source} />
          ))}
        </section>
      )}
    </ToolPage>
  );
}
