// Tailwind classes shared by the studio's buttons and fields.
export const BUTTON = [
  'inline-flex items-center justify-center gap-1.5 rounded-lg px-3 py-2 text-sm font-medium',
  'focus:outline-none focus:ring-2 focus:ring-violet-300 disabled:opacity-60',
].join(' ');

export const FIELD = [
  'rounded-lg border border-slate-300 bg-white px-2 py-1.5 text-sm',
  'focus:border-violet-500 focus:outline-none focus:ring-2 focus:ring-violet-200',
].join(' ');
