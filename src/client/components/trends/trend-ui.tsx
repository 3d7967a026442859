// Small building blocks of the Trends screen: category colours (each of decision 0092 'Trend categories' has its
// own), section cards with their source line, and number cells that show '—' for nulls.
import type { ReactNode } from 'react';
import type { NewsCategory, SectionSource, TrendCategory } from '@shared/contracts/trends';
import { formatNumber } from '../../lib/format';

const CATEGORY_COLOURS: Record<TrendCategory, string> = {
  Dance: 'bg-pink-100 text-pink-800',
  Music: 'bg-purple-100 text-purple-800',
  Comedy: 'bg-yellow-100 text-yellow-800',
  Food: 'bg-orange-100 text-orange-800',
  Fashion: 'bg-rose-100 text-rose-800',
  Educational: 'bg-blue-100 text-blue-800',
  Entertainment: 'bg-indigo-100 text-indigo-800',
  General: 'bg-slate-100 text-slate-700',
  Lifestyle: 'bg-emerald-100 text-emerald-800',
  Pets: 'bg-amber-100 text-amber-800',
};

const NEWS_COLOURS: Record<NewsCategory, string> = {
  creator: 'bg-violet-100 text-violet-800',
  platform: 'bg-sky-100 text-sky-800',
  music: 'bg-purple-100 text-purple-800',
  viral: 'bg-red-100 text-red-800',
  business: 'bg-green-100 text-green-800',
};

export function CategoryBadge({ category }: { category: TrendCategory }) {
  return (
    <span
      className={`inline-block whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium
        ${CATEGORY_COLOURS[category] ?? CATEGORY_COLOURS.General}`}
    >
      {category}
    </span>
  );
}

export function NewsBadge({ category }: { category: NewsCategory }) {
  return (
    <span
      className={`inline-block rounded-full px-2 py-0.5 text-xs font-medium capitalize ${NEWS_COLOURS[category] ?? NEWS_COLOURS.platform}`}
    >
      {category}
    </span>
  );
}

export const dash = (v: string | number | null | undefined) =>
  v === null || v === undefined || v === '' ? '—' : String(v);
export const num = (v: number | null | undefined) => formatNumber(v ?? null);

export function Growth({ value }: { value: number | null }) {
  if (value === null) return <span>—</span>;
  const up = value >= 0;
  return (
    <span className={`font-semibold ${up ? 'text-emerald-600' : 'text-red-600'}`}>{`${up ? '+' : ''}${value}%`}</span>
  );
}

/** "Nov 20, 2026, 12:00 PM UTC" */
export function formatStamp(iso: string | null): string {
  if (!iso) return '—';
  return `${new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' })} UTC`;
}

export function formatDay(iso: string): string {
  return new Date(iso).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

export function Section(props: {
  title: string;
  icon: ReactNode;
  source: SectionSource;
  empty: boolean;
  testId: string;
  children: ReactNode;
}) {
  return (
    <section
      data-testid={props.testId}
      className="flex min-w-0 flex-col rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
    >
      <h2 className="flex items-center gap-2 text-lg font-semibold text-slate-900">
        {props.icon}
        {props.title}
      </h2>
      <div className="mt-3 flex-1">
        {props.empty ? <p className="py-4 text-sm text-slate-500">No data from any source yet.</p> : props.children}
      </div>
      <p className="mt-3 border-t border-slate-100 pt-2 text-xs text-slate-500">
        {props.source.source
          ? `Source: ${props.source.source} · collected ${formatStamp(props.source.collectedAt)}`
          : 'Source: no current source'}
      </p>
    </section>
  );
}

/** A list row: a main line, a sub line and figures on the right (stacks under at 375px). */
export function Row(props: { main: ReactNode; sub?: ReactNode; figures: Array<[string, ReactNode]> }) {
  return (
    <li className="flex flex-col gap-1 py-2 sm:flex-row sm:items-center sm:justify-between sm:gap-3">
      <div className="min-w-0">
        <div className="truncate font-medium text-slate-900">{props.main}</div>
        {props.sub && <div className="flex flex-wrap items-center gap-1 text-xs text-slate-500">{props.sub}</div>}
      </div>
      <dl className="flex shrink-0 gap-4 text-right text-sm">
        {props.figures.map(([label, value]) => (
          <div key={label}>
            <dt className="text-xs text-slate-500">{label}</dt>
            <dd className="font-semibold text-slate-800">{value}</dd>
          </div>
        ))}
      </dl>
    </li>
  );
}
