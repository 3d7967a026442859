import { Link } from 'wouter';
import { Video } from 'lucide-react';

export function Logo() {
  return (
    // The visible name is the link's accessible name (an aria-label differing from it trips speech users).
    <Link href="/" data-testid="logo" className="flex min-w-0 items-center gap-2">
      <span
        className={
          'flex h-9 w-9 flex-none items-center ' +
          'justify-center rounded-lg bg-gradient-to-br from-pink-500 to-violet-600 text-white'
        }
      >
        <Video className="h-5 w-5" aria-hidden />
      </span>
      <span className="min-w-0 whitespace-nowrap leading-tight">
        <span className="block text-sm font-bold text-slate-900 sm:text-base">Social Media Toolkit</span>
        <span className="block text-[11px] text-slate-500 sm:text-xs">Complete Content Suite</span>
      </span>
    </Link>
  );
}
