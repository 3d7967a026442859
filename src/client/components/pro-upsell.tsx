// The one Pro gate every premium screen shows a free user: what the tool does, a sample of its
// result, and Upgrade. Calm by design (issue 22): no red box, no "Try Again", no toast.
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { Crown } from 'lucide-react';
import { PRO_PRICE_USD } from '@shared/constants';

export interface UpsellInfo {
  /** One sentence: what the tool does for a creator. */
  what: string;
  /** What a result looks like (static example, labelled as such). */
  sample: ReactNode;
}

export function ProUpsell({ tool, what, sample }: { tool: string } & UpsellInfo) {
  return (
    <section
      data-testid="pro-upsell"
      aria-labelledby="pro-upsell-title"
      className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-violet-200 sm:p-6"
    >
      <h2 id="pro-upsell-title" className="flex items-center gap-2 text-lg font-bold text-slate-900">
        <Crown className="h-5 w-5 text-amber-500" aria-hidden />
        {tool} is part of Pro
      </h2>
      <p className="mt-2 text-sm text-slate-700">{what}</p>
      <figure className="mt-4 rounded-xl bg-slate-50 p-4 ring-1 ring-slate-200">
        <figcaption className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-500">
          Sample result
        </figcaption>
        <div className="text-sm text-slate-800">{sample}</div>
      </figure>
      <div className="mt-5 flex flex-col items-start gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-slate-600">This is a Pro feature. Upgrade to use it.</p>
        <Link
          href="/subscription"
          className={
            'inline-flex items-center gap-1.5 rounded-md bg-violet-600 px-4 py-2 text-sm ' +
            'font-semibold text-white hover:bg-violet-700'
          }
        >
          <Crown className="h-4 w-4" aria-hidden />
          Upgrade to Pro · ${PRO_PRICE_USD}/month
        </Link>
      </div>
    </section>
  );
}
