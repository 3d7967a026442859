// A featured image that shows SPEC's 'Invalid Image URL' placeholder when its URL cannot be loaded.
import { useState } from 'react';
import { ImageOff } from 'lucide-react';

export function PostImage({ src, alt, className = '' }: { src: string; alt: string; className?: string }) {
  const [failed, setFailed] = useState(false);
  if (failed) {
    return (
      <div data-testid="invalid-image" className={`flex flex-col items-center justify-center gap-1 bg-slate-100 text-sm text-slate-500 ${className}`}>
        <ImageOff className="h-6 w-6" aria-hidden />
        Invalid Image URL
      </div>
    );
  }
  return <img src={src} alt={alt} className={`object-cover ${className}`} onError={() => setFailed(true)} referrerPolicy="no-referrer" />;
}
