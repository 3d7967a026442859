// Small pieces shared by the hashtag generator and the content tools screens.
import { useState } from 'react';
import { Check, Copy, Sparkles } from 'lucide-react';
import type { EngineSource } from '@shared/contracts/hashtags';
import { toast } from '../../hooks/use-toast';

/** Copies text with the async clipboard API and confirms with the founding 'Copied!' toast (decision 0092 'Toasts'). */
export function CopyButton({ text, label, what }: { text: string; label: string; what: string }) {
  const [done, setDone] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setDone(true);
      setTimeout(() => setDone(false), 1500);
      toast({ title: 'Copied!', description: `${what} copied to clipboard` });
    } catch {
      toast({
        title: 'Copy failed',
        description: 'Clipboard access denied: please select the text and copy it manually.',
        variant: 'destructive',
      });
    }
  }
  return (
    <button
      type="button"
      onClick={copy}
      aria-label={label}
      className={
        'inline-flex shrink-0 items-center gap-1.5 rounded-md border border-slate-200 ' +
        'bg-white px-2.5 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50'
      }
    >
      {done ? <Check className="h-4 w-4 text-green-600" aria-hidden /> : <Copy className="h-4 w-4" aria-hidden />}
      Copy
    </button>
  );
}

/** Decision 0092 'Honest product': AI text is labelled as a suggestion, with the engine that wrote it. */
export function SuggestionBadge({ source }: { source: EngineSource }) {
  return (
    <span
      data-testid="suggestion-badge"
      className={
        'inline-flex items-center gap-1 rounded-full bg-amber-50 px-2.5 py-1 text-xs ' +
        'font-medium text-amber-800 ring-1 ring-amber-200'
      }
    >
      <Sparkles className="h-3.5 w-3.5" aria-hidden />
      Suggestion · {source === 'llm' ? 'AI model' : 'built-in engine'}
    </span>
  );
}

export function HashtagChips({ tags }: { tags: string[] }) {
  if (tags.length === 0) return <p className="text-sm text-slate-500">No hashtags.</p>;
  return (
    <ul className="flex flex-wrap gap-1.5">
      {tags.map((t) => (
        <li key={t} className="break-all rounded-full bg-violet-50 px-2.5 py-1 text-sm text-violet-800">
          {t}
        </li>
      ))}
    </ul>
  );
}

export const fieldClass =
  'w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-base outline-none ' +
  'focus:border-violet-500 focus:ring-4 focus:ring-violet-200';
export const primaryButtonClass =
  'inline-flex w-full items-center justify-center gap-2 rounded-lg bg-gradient-to-r from-violet-600 ' +
  'to-pink-500 px-6 py-3 font-semibold text-white shadow hover:opacity-95 ' +
  'disabled:cursor-not-allowed disabled:opacity-60 sm:w-auto';
