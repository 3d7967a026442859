// A featured image that shows the founding 'Invalid Image URL' placeholder to the author (My Blog) when its
// URL cannot be loaded; readers of a public post (hideOnError) simply see no image.
import { useState } from 'react';
import { ImageOff } from 'lucide-react';

export function PostImage({
  src,
  alt,
  className = '',
  hideOnError = false,
}: {
  src: string;
  alt: string;
  className?: string;
  hideOnError?: boolean;
}) {
  const [failed, setFailed] = useState(false);
  if (failed && hideOnError) return null;
  if (failed) {
    return (
      <div
        data-testid="invalid-image"
        className={`flex flex-col items-center justify-center gap-1 bg-slate-100 text-sm text-slate-500 ${className}`}
      >
        <ImageOff className="h-6 w-6" aria-hidden />
        Invalid Image URL
      </div>
    );
  }
  return (
    <img
      src={src}
      alt={alt}
      className={`object-cover ${className}`}
      onError={() => setFailed(true)}
      referrerPolicy="no-referrer"
    />
  );
}
