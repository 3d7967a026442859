import { LogIn } from 'lucide-react';
import { Logo } from './logo';
import { Static } from './static-html';

/** Header for signed-out visitors: the logo and Sign In. Runs nothing: kept as sent (decision 0078). */
export function PublicHeader() {
  return (
    <Static as="header" className="sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-3 px-4">
        <Logo />
        <a
          href="/api/login"
          className="flex items-center gap-1 rounded-md bg-violet-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-violet-700"
        >
          <LogIn className="h-4 w-4" aria-hidden /> Sign In
        </a>
      </div>
    </Static>
  );
}
