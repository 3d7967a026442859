// Repost kit (issue 47): a link on any supported platform, or a caption-studio project
// (`?project=<id>`), to a post ready for each ticked target. The cards show each target's text as
// it will be posted and can be edited; the cover is picked on a scrubber; the kit is a media job
// whose result is one ZIP (a folder per target) and every file on its own.
import { useMemo, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Download, Loader2, Repeat2 } from 'lucide-react';
import { REPOST_TARGET_LIMITS, REPOST_TARGETS, type RepostTarget } from '@shared/platform-limits';
import type { RepostPreview } from '@shared/contracts/repost-kits';
import { platformOfLink } from '@shared/platform-links';
import { type MediaJob, repostKitCreate, repostKitPreview } from '../lib/api';
import { serverMessage } from '../lib/api-error';
import { usePlatforms } from '../hooks/use-platforms';
import { SUBSCRIPTION_STATUS_KEY } from '../hooks/use-subscription';
import { progressLabel, progressNote, useMediaJob } from '../hooks/use-media-job';
import { toast } from '../hooks/use-toast';
import { formatFileSize } from '../lib/format';
import { ToolPage, UrlToolForm } from '../components/media-tools/tool-shell';
import { TargetCard } from '../components/repost-kit/target-card';
import { CoverScrubber } from '../components/repost-kit/cover-scrubber';

const projectFromQuery = () =>
  typeof window === 'undefined' ? null : new URLSearchParams(window.location.search).get('project');
/** A done job carries the whole kit: its ZIP link and each target's files. */
const kitOf = (job: MediaJob) => (job.state === 'done' && job.result ? job : undefined);

export default function RepostKitPage() {
  const { platforms, names, example } = usePlatforms();
  const [url, setUrl] = useState('');
  const projectId = useMemo(projectFromQuery, []);
  const [targets, setTargets] = useState<Set<RepostTarget>>(new Set(REPOST_TARGETS));
  const [preview, setPreview] = useState<RepostPreview | null>(null);
  const [texts, setTexts] = useState<Partial<Record<RepostTarget, string>>>({});
  const [coverAt, setCoverAt] = useState(0);
  const [credit, setCredit] = useState(true);
  const [burn, setBurn] = useState(false);
  const job = useMediaJob(repostKitCreate, 1000, kitOf);
  const queryClient = useQueryClient();
  const chosen = REPOST_TARGETS.filter((t) => targets.has(t));
  const source = projectId ? { projectId } : { url: url.trim() };

  const prepare = useMutation({
    mutationFn: () => repostKitPreview({ ...source, targets: [...REPOST_TARGETS] }),
    onSuccess: (p) => {
      setPreview(p);
      setTexts(Object.fromEntries(p.cards.map((c) => [c.target, c.text])));
      setCoverAt(Math.min(1, p.duration / 2));
    },
    onError: (err) =>
      toast({ title: 'Could not read the post', description: serverMessage(err) ?? '', variant: 'destructive' }),
  });
  const make = useMutation({
    mutationFn: () =>
      job.run({ ...source, targets: chosen, coverAt, credit, burnCaptions: burn, texts: pick(texts, chosen) }),
    onSuccess: () => {
      // A free account's kit counted as one download: the plan badge's count changes.
      void queryClient.invalidateQueries({ queryKey: SUBSCRIPTION_STATUS_KEY });
      toast({ title: 'Your repost kit is ready', description: 'Download the ZIP or each file.' });
    },
    onError: (err) =>
      toast({ title: 'The kit was not made', description: serverMessage(err) ?? '', variant: 'destructive' }),
  });
  const kit = job.status.state === 'done' ? job.status.result : null;

  function submitLink() {
    if (!projectId && !platformOfLink(url.trim(), platforms)) {
      toast({ title: 'Invalid URL', description: `Please enter a valid ${names} URL`, variant: 'destructive' });
      return;
    }
    prepare.mutate();
  }
  const toggle = (t: RepostTarget) =>
    setTargets((s) => {
      const next = new Set(s);
      if (next.has(t)) next.delete(t);
      else next.add(t);
      return next;
    });

  return (
    <ToolPage
      icon={<Repeat2 className="h-6 w-6" aria-hidden />}
      title="Repost Kit"
      subtitle={`One post, ready for ${REPOST_TARGETS.map((t) => REPOST_TARGET_LIMITS[t].label).join(', ')}: the video each accepts, its text, hashtags and cover.`}
    >
      {projectId ? (
        <p className="rounded-2xl bg-white p-4 text-sm shadow ring-1 ring-slate-200">
          From your caption project.{' '}
          <button type="button" className="font-semibold text-violet-700 underline" onClick={() => prepare.mutate()}>
            Prepare the cards
          </button>
        </p>
      ) : (
        <UrlToolForm
          id="repost-url"
          label={`${names} video URL`}
          type="text"
          placeholder={example}
          value={url}
          onChange={setUrl}
          onSubmit={submitLink}
          pending={prepare.isPending}
          buttonLabel="Prepare"
          pendingLabel="Reading the post..."
        />
      )}
      {preview && (
        <>
          <fieldset className="rounded-2xl bg-white p-4 shadow ring-1 ring-slate-200">
            <legend className="px-1 text-base font-semibold text-slate-900">Targets</legend>
            <div className="flex flex-wrap gap-4">
              {REPOST_TARGETS.map((t) => (
                <label key={t} className="flex items-center gap-2 text-sm">
                  <input type="checkbox" checked={targets.has(t)} onChange={() => toggle(t)} />
                  {REPOST_TARGET_LIMITS[t].label}
                </label>
              ))}
            </div>
            {preview.credit && (
              <p className="mt-3 text-sm text-slate-700" data-testid="credit-line">
                Credit: {preview.credit}
              </p>
            )}
            {preview.creditOptional && (
              <label className="mt-3 flex items-center gap-2 text-sm">
                <input type="checkbox" checked={credit} onChange={(e) => setCredit(e.target.checked)} /> Credit line
              </label>
            )}
            {projectId && (
              <label className="mt-3 flex items-center gap-2 text-sm">
                <input type="checkbox" checked={burn} onChange={(e) => setBurn(e.target.checked)} /> Burn in the
                captions (the project's style)
              </label>
            )}
          </fieldset>
          <CoverScrubber
            videoUrl={preview.videoUrl}
            duration={preview.duration}
            value={coverAt}
            onChange={setCoverAt}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            {preview.cards
              .filter((c) => targets.has(c.target))
              .map((c) => (
                <TargetCard
                  key={c.target}
                  card={c}
                  text={texts[c.target] ?? c.text}
                  onText={(v) => setTexts((s) => ({ ...s, [c.target]: v }))}
                  part={kit?.parts?.find((p) => p.name === c.target)}
                />
              ))}
          </div>
          <div className="rounded-2xl bg-white p-4 text-center shadow ring-1 ring-slate-200">
            {kit?.result ? (
              <a
                href={kit.result.url}
                download
                data-testid="kit-zip"
                className="inline-flex items-center gap-2 rounded-lg bg-gradient-to-r from-violet-600 to-pink-500 px-6 py-3 font-semibold text-white"
              >
                <Download className="h-4 w-4" aria-hidden /> Download the kit (ZIP, {formatFileSize(kit.result.size)})
              </a>
            ) : (
              <button
                type="button"
                disabled={make.isPending || !chosen.length}
                onClick={() => make.mutate()}
                className="inline-flex items-center gap-2 rounded-lg bg-gradient-to-r from-violet-600 to-pink-500 px-6 py-3 font-semibold text-white disabled:opacity-60"
              >
                {make.isPending && <Loader2 className="h-4 w-4 animate-spin" aria-hidden />}
                {make.isPending ? progressLabel(job.status, 'Making the kit...') : 'Make the kit'}
              </button>
            )}
            <p role="status" className="mt-2 min-h-5 text-sm text-slate-600">
              {make.isPending ? progressNote(job.status) : 'A free account’s kit counts as one download.'}
            </p>
            {make.isPending && (
              <button type="button" onClick={job.cancel} className="text-sm text-slate-600 underline">
                Cancel
              </button>
            )}
          </div>
        </>
      )}
    </ToolPage>
  );
}

function pick(texts: Partial<Record<RepostTarget, string>>, chosen: RepostTarget[]) {
  return Object.fromEntries(chosen.filter((t) => texts[t] !== undefined).map((t) => [t, texts[t] as string]));
}
