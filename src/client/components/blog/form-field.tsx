// Label + control + optional hint or error, shared by the blog and trending forms. The label is
// tied to the control by id (not by nesting), so a <select>'s options never leak into its name.
import { cloneElement, isValidElement, useId, type ReactElement, type ReactNode } from 'react';

export const inputClass =
  'mt-1 w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 ' +
  'focus:border-violet-500 focus:outline-none focus:ring-2 focus:ring-violet-200';

export function Field({
  label,
  hint,
  error,
  children,
  className = '',
  id,
}: {
  label: string;
  hint?: ReactNode;
  error?: string | null;
  children: ReactNode;
  className?: string;
  id?: string;
}) {
  const autoId = useId();
  const controlId = id ?? autoId;
  const noteId = `${controlId}-note`;
  const note = error || hint;
  // With an explicit id the caller placed it on the control itself (e.g. an input beside a button).
  const control =
    !id && isValidElement(children)
      ? cloneElement(children as ReactElement<Record<string, unknown>>, {
          id: controlId,
          'aria-describedby': note ? noteId : undefined,
          'aria-invalid': error ? true : undefined,
        })
      : children;
  return (
    <div className={className}>
      <label htmlFor={controlId} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      {control}
      {error ? (
        <p id={noteId} role="alert" className="mt-1 text-xs text-red-600">
          {error}
        </p>
      ) : hint ? (
        <p id={noteId} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
