// Shared layout of the audio and captions tools: heading, a one-field URL form, Pro hint.
import type { FormEvent, ReactNode } from 'react';
import { Loader2 } from 'lucide-react';
import { useSubscriptionStatus } from '../../hooks/use-subscription';
import { ProUpsell, type UpsellInfo } from '../pro-upsell';

/**
 * upsell: a Pro tool. Free users open the screen by URL (decision 0092 'Navigation bar'); they see the one calm upsell
 * in place of the form (which could only end in the server's refusal).
 */
export function ToolPage({
  icon,
  title,
  subtitle,
  upsell,
  children,
}: {
  icon: ReactNode;
  title: string;
  subtitle: string;
  upsell?: UpsellInfo;
  children: ReactNode;
}) {
  const { data } = useSubscriptionStatus();
  const gated = !!upsell && !!data && !data.isProUser;
  return (
    <div className="min-h-screen bg-gradient-to-b from-violet-50 via-white to-pink-50">
      <main className="mx-auto max-w-3xl space-y-6 px-4 py-8 sm:py-12">
        <header className="text-center">
          <div
            className={
              'mx-auto mb-3 flex h-12 w-12 items-center ' +
              'justify-center rounded-2xl bg-gradient-to-br from-violet-600 to-pink-500 text-white shadow-md'
            }
          >
            {icon}
          </div>
          <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">{title}</h1>
          <p className="mt-2 text-slate-600">{subtitle}</p>
        </header>
        {gated ? <ProUpsell tool={title} {...upsell} /> : children}
      </main>
    </div>
  );
}

export function UrlToolForm(props: {
  id: string;
  label: string;
  type: 'url' | 'text';
  placeholder: string;
  value: string;
  onChange: (v: string) => void;
  onSubmit: () => void;
  pending: boolean;
  buttonLabel: string;
  pendingLabel: string;
  /** Where a long job stands (queued, running), announced to screen readers too. */
  note?: string;
}) {
  function submit(e: FormEvent) {
    e.preventDefault();
    if (!props.pending) props.onSubmit();
  }
  return (
    // noValidate: the screen shows its own messages (decision 0092) instead of the browser's bubbles.
    <form onSubmit={submit} noValidate className="rounded-2xl bg-white p-4 shadow-lg ring-1 ring-slate-200 sm:p-6">
      <label htmlFor={props.id} className="mb-2 block text-sm font-semibold text-slate-700">
        {props.label}
      </label>
      <div className="flex flex-col gap-3 sm:flex-row">
        <input
          id={props.id}
          type={props.type}
          inputMode="url"
          autoComplete="off"
          placeholder={props.placeholder}
          value={props.value}
          onChange={(e) => props.onChange(e.target.value)}
          className={
            'min-w-0 flex-1 rounded-lg border border-slate-300 bg-white px-3 py-3 ' +
            'text-base outline-none focus:border-violet-500 focus:ring-4 focus:ring-violet-200'
          }
        />
        <button
          type="submit"
          disabled={props.pending}
          className={
            'inline-flex items-center justify-center gap-2 rounded-lg bg-gradient-to-r ' +
            'from-violet-600 to-pink-500 px-6 py-3 font-semibold text-white shadow hover:opacity-95 ' +
            'disabled:cursor-not-allowed disabled:opacity-60'
          }
        >
          {props.pending && <Loader2 className="h-4 w-4 animate-spin" aria-hidden />}
          {props.pending ? props.pendingLabel : props.buttonLabel}
        </button>
      </div>
      <p role="status" data-testid="job-progress" className="mt-2 min-h-5 text-sm text-slate-600">
        {props.pending ? props.note : ''}
      </p>
    </form>
  );
}

/** Saves text as a file through a temporary object URL. */
export function saveTextFile(name: string, text: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
