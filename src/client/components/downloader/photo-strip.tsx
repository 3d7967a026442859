// A photo post's slides as a strip (issue 20): each shown from this product's own endpoint (a platform's
// links are signed and expire) with its own Save link; the ZIP and the slideshow are download options.
import { Download, Images } from 'lucide-react';
import type { PhotoSlide } from '@shared/contracts/video';

/** `download=1` after the link's own query: another platform's by-id links carry `?platform=`. */
const saveLink = (url: string) => `${url}${url.includes('?') ? '&' : '?'}download=1`;

export function PhotoStrip({ images }: { images: PhotoSlide[] }) {
  return (
    <section aria-label="Photos in this post" className="border-t border-slate-200 p-4 sm:p-6">
      <h3 className="flex items-center gap-2 text-sm font-semibold text-slate-800">
        <Images className="h-4 w-4" aria-hidden />
        {images.length === 1 ? '1 photo' : `${images.length} photos`}
      </h3>
      <ol data-testid="photo-strip" className="mt-3 flex snap-x gap-3 overflow-x-auto pb-2">
        {images.map((img, i) => (
          <li key={img.url} className="w-32 shrink-0 snap-start sm:w-36">
            <div className="aspect-[3/4] overflow-hidden rounded-lg bg-slate-100 ring-1 ring-slate-200">
              <img
                src={img.url}
                alt={`Slide ${i + 1} of ${images.length}`}
                loading="lazy"
                referrerPolicy="no-referrer"
                className="h-full w-full object-contain"
              />
            </div>
            <a
              href={saveLink(img.url)}
              download
              aria-label={`Save photo ${i + 1}`}
              className={
                'mt-1.5 flex items-center justify-center gap-1 rounded-md border ' +
                'border-slate-300 px-2 py-1 text-xs font-medium text-slate-700 hover:bg-slate-50'
              }
            >
              <Download className="h-3.5 w-3.5" aria-hidden />
              Save {String(i + 1).padStart(2, '0')}
            </a>
          </li>
        ))}
      </ol>
    </section>
  );
}
