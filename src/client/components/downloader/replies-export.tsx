// A post's replies as a file (issue 45, Pro): CSV (opens in a spreadsheet) or JSON, with every
// reply's author, text, time, counts, the reply it answers and its depth.
import { useState } from 'react';
import { FileSpreadsheet, Loader2 } from 'lucide-react';
import { attachmentName } from '@shared/file-names';
import { repliesExport } from '../../lib/api';
import { serverMessage } from '../../lib/api-error';
import { toast } from '../../hooks/use-toast';
import { saveBlob } from './use-video-download';

export function RepliesExport({ url }: { url: string }) {
  const [busy, setBusy] = useState<'csv' | 'json' | null>(null);

  async function save(format: 'csv' | 'json') {
    setBusy(format);
    try {
      const res = await repliesExport({ url, format });
      const blob = await res.blob();
      saveBlob(blob, attachmentName(res.headers.get('content-disposition')) ?? `replies.${format}`);
      toast({
        title: 'Replies saved',
        description: `${res.headers.get('x-reply-count') ?? 'All'} replies in the file.`,
      });
    } catch (err) {
      toast({ title: 'Export failed', description: serverMessage(err) ?? undefined, variant: 'destructive' });
    } finally {
      setBusy(null);
    }
  }

  return (
    <section
      aria-label="Export replies"
      className="flex flex-wrap items-center gap-3 rounded-2xl bg-white p-4 shadow ring-1 ring-slate-200"
    >
      <FileSpreadsheet className="h-5 w-5 text-violet-600" aria-hidden />
      <span className="mr-auto text-sm text-slate-700">This post's replies as a file</span>
      {(['csv', 'json'] as const).map((f) => (
        <button
          key={f}
          type="button"
          disabled={busy !== null}
          onClick={() => save(f)}
          className="inline-flex items-center gap-1.5 rounded-md px-3 py-1.5 text-sm font-semibold text-violet-700 ring-1 ring-violet-200 hover:bg-violet-50 disabled:opacity-50"
        >
          {busy === f && <Loader2 className="h-4 w-4 animate-spin" aria-hidden />}
          Export replies ({f.toUpperCase()})
        </button>
      ))}
    </section>
  );
}
