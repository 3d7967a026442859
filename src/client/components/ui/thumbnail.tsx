// A video thumbnail that never shows the browser's broken-image icon: no URL, or one that fails to
// load, gives the same placeholder the trending cards use (VideoOff icon, optional label).
// `align="top"` keeps the placeholder clear of a centred control laid over it (the card's play button).
import { useState } from 'react';
import { VideoOff } from 'lucide-react';

export function Thumbnail({
  src,
  className = '',
  label = 'No thumbnail',
  compact = false,
  align = 'center',
}: {
  src: string | null | undefined;
  className?: string;
  label?: string;
  compact?: boolean;
  align?: 'center' | 'top';
}) {
  const [failed, setFailed] = useState<string | null>(null);
  if (src && failed !== src) {
    return (
      <img
        src={src}
        alt=""
        referrerPolicy="no-referrer"
        onError={() => setFailed(src)}
        className={`h-full w-full object-cover ${className}`}
      />
    );
  }
  return (
    <span
      data-testid="thumbnail-placeholder"
      className={`flex h-full w-full flex-col items-center gap-1 bg-slate-100 text-sm text-slate-500 ${
        align === 'top' ? 'justify-start pt-[18%]' : 'justify-center'
      }`}
    >
      <VideoOff className={compact ? 'h-4 w-4' : 'h-8 w-8'} aria-hidden />
      {!compact && <span>{label}</span>}
    </span>
  );
}
