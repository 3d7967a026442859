import { Link } from 'wouter';
import { Video } from 'lucide-react';

export function Logo() {
  return (
    <Link href="/" className="flex items-center gap-2" aria-label="Social Media Toolkit home">
      <span className="flex h-9 w-9 items-center justify-center rounded-lg bg-gradient-to-br from-pink-500 to-violet-600 text-white">
        <Video className="h-5 w-5" aria-hidden />
      </span>
      <span className="leading-tight">
        <span className="block text-base font-bold text-slate-900">Social Media Toolkit</span>
        <span className="block text-xs text-slate-500">Complete Content Suite</span>
      </span>
    </Link>
  );
}
