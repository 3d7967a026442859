// "Share" on a phone (issue 47): the target's video and text handed to the target's app through
// the Web Share API with files; the text also goes to the clipboard, since some apps drop shared
// text. Shown only where the browser can share files and the screen is touch-first.
import { useEffect, useState } from 'react';
import { Share2 } from 'lucide-react';
import type { MediaJob } from '../../lib/api';
import { toast } from '../../hooks/use-toast';

type Part = NonNullable<MediaJob['parts']>[number];

const canShareFiles = () =>
  typeof navigator !== 'undefined' &&
  typeof navigator.canShare === 'function' &&
  typeof window.matchMedia === 'function' &&
  window.matchMedia('(pointer: coarse)').matches &&
  navigator.canShare({ files: [new File([''], 'x.mp4', { type: 'video/mp4' })] });

export function ShareButton({ part, label }: { part: Part; label: string }) {
  const [able, setAble] = useState(false);
  useEffect(() => setAble(canShareFiles()), []);
  if (!able) return null;
  const video = part.files.find((f) => f.name.endsWith('.mp4'));
  const caption = part.files.find((f) => f.name === 'caption.txt');
  async function share() {
    const text = caption ? await (await fetch(caption.url, { credentials: 'same-origin' })).text() : '';
    await navigator.clipboard?.writeText(text).catch(() => undefined);
    const files = video
      ? [
          new File([await (await fetch(video.url, { credentials: 'same-origin' })).blob()], video.name, {
            type: 'video/mp4',
          }),
        ]
      : [];
    try {
      await navigator.share({ files, text, title: label });
    } catch {
      toast({ title: 'Not shared', description: 'The text is on your clipboard: paste it in the app.' });
    }
  }
  return (
    <button
      type="button"
      onClick={share}
      className="mt-2 inline-flex items-center gap-2 rounded-lg bg-slate-900 px-3 py-2 text-sm font-semibold text-white"
    >
      <Share2 className="h-4 w-4" aria-hidden /> Share to {label}
    </button>
  );
}
