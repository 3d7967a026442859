// URL entry (decision 0092 'URL entry', 'Short-video URL'): empty, valid (green check), invalid
// (red cross + message); paste from the clipboard; the button waits for a valid URL.
import { useState, type FormEvent } from 'react';
import { CheckCircle2, ClipboardPaste, Loader2, Search, XCircle } from 'lucide-react';
import { extractLink, platformOfLink, profileOfLink } from '@shared/platform-links';
import { toast } from '../../hooks/use-toast';
import { usePlatforms } from '../../hooks/use-platforms';

/** The founding interface message (decision 0092 'Short-video URL'), naming the server's platforms. */
export const invalidUrlMessage = (names: string) => `Please enter a valid ${names} video URL`;

export function UrlForm({
  url,
  onUrlChange,
  onSubmit,
  pending,
}: {
  url: string;
  onUrlChange: (v: string) => void;
  onSubmit: (url: string) => void;
  pending: boolean;
}) {
  const [submittedInvalid, setSubmittedInvalid] = useState(false);
  const { platforms, names, example } = usePlatforms();
  // A post, or a whole profile whose posts are listed (issue 45).
  const valid = platformOfLink(url, platforms) !== null || profileOfLink(url, platforms) !== null;
  const state: 'empty' | 'valid' | 'invalid' = url.trim() === '' ? 'empty' : valid ? 'valid' : 'invalid';
  const showError = state === 'invalid' || (submittedInvalid && !valid);

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!valid) {
      setSubmittedInvalid(true);
      return;
    }
    setSubmittedInvalid(false);
    onSubmit(url.trim());
  }

  /** A pasted link (or shared text holding one) is fetched at once: paste is the action. */
  function takePasted(text: string): boolean {
    const link = extractLink(text, platforms);
    if (!link) return false;
    onUrlChange(link);
    setSubmittedInvalid(false);
    if (!pending) onSubmit(link);
    return true;
  }

  async function paste() {
    try {
      const text = await navigator.clipboard.readText();
      if (!takePasted(text)) onUrlChange(text.trim());
    } catch {
      toast({ title: 'Clipboard access denied', description: 'Please paste the URL manually', variant: 'destructive' });
    }
  }

  const ring =
    state === 'valid'
      ? 'border-emerald-500 focus:ring-emerald-200'
      : showError
        ? 'border-red-500 focus:ring-red-200'
        : 'border-slate-300 focus:ring-violet-200';
  return (
    <form
      onSubmit={submit}
      noValidate
      className="w-full rounded-2xl bg-white p-4 shadow-lg ring-1 ring-slate-200 sm:p-6"
    >
      <label htmlFor="video-url" className="mb-2 block text-sm font-semibold text-slate-700">
        {names} video URL
      </label>
      <div className="flex flex-col gap-3 sm:flex-row">
        <div className="relative flex-1">
          <input
            id="video-url"
            type="url"
            inputMode="url"
            autoComplete="off"
            placeholder={example}
            value={url}
            onChange={(e) => onUrlChange(e.target.value)}
            onPaste={(e) => {
              if (takePasted(e.clipboardData.getData('text'))) e.preventDefault();
            }}
            aria-invalid={showError}
            aria-describedby={showError ? 'video-url-error' : undefined}
            className={`w-full rounded-lg border bg-white py-3 pl-3 pr-20 text-base outline-none focus:ring-4 ${ring}`}
          />
          <div className="absolute inset-y-0 right-2 flex items-center gap-1">
            {state === 'valid' && (
              <CheckCircle2 data-testid="url-valid" className="h-5 w-5 text-emerald-500" aria-label="Valid URL" />
            )}
            {showError && (
              <XCircle data-testid="url-invalid" className="h-5 w-5 text-red-500" aria-label="Invalid URL" />
            )}
            <button
              type="button"
              onClick={paste}
              title="Paste from clipboard"
              aria-label="Paste from clipboard"
              className="rounded-md p-1.5 text-slate-500 hover:bg-slate-100 hover:text-slate-800"
            >
              <ClipboardPaste className="h-5 w-5" aria-hidden />
            </button>
          </div>
        </div>
        <button
          type="submit"
          disabled={!valid || pending}
          className={
            'inline-flex items-center justify-center gap-2 rounded-lg bg-gradient-to-r ' +
            'from-pink-500 to-violet-600 px-6 py-3 font-semibold text-white shadow hover:opacity-95 ' +
            'disabled:cursor-not-allowed disabled:opacity-50'
          }
        >
          {pending ? (
            <Loader2 className="h-5 w-5 animate-spin" aria-hidden />
          ) : (
            <Search className="h-5 w-5" aria-hidden />
          )}
          {pending ? 'Fetching...' : 'Fetch Video'}
        </button>
      </div>
      {showError && (
        <p id="video-url-error" role="alert" className="mt-2 text-sm text-red-600">
          {invalidUrlMessage(names)}
        </p>
      )}
    </form>
  );
}
