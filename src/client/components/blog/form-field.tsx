// Label + control + optional hint or error, shared by the blog and trending forms.
import type { ReactNode } from 'react';

export const inputClass =
  'mt-1 w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 focus:border-violet-500 focus:outline-none focus:ring-2 focus:ring-violet-200';

export function Field({ label, hint, error, children, className = '' }: { label: string; hint?: ReactNode; error?: string | null; children: ReactNode; className?: string }) {
  // The hint sits outside the <label> so the control's accessible name is the label alone.
  return (
    <div className={className}>
      <label className="block text-sm font-medium text-slate-700">
        {label}
        {children}
      </label>
      {error ? (
        <p role="alert" className="mt-1 text-xs text-red-600">
          {error}
        </p>
      ) : hint ? (
        <p className="mt-1 text-xs text-slate-500">{hint}</p>
      ) : null}
    </div>
  );
}
