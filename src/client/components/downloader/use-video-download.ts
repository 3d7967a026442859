// Real download progress (decision 0092 'Honest product'): the file is read from the streamed response, so percent,
// MB of MB and speed come from the bytes actually received; then saved through a Blob URL under the
// name the server gave the file (one naming rule, decision 0094).
import { useCallback, useRef, useState } from 'react';
import { videoDownload } from '../../lib/api';
import { ApiError, errorCode, serverMessage } from '../../lib/api-error';
import { attachmentName, downloadFileName } from '@shared/file-names';

export interface DownloadProgress {
  /** True until the server answers: a slideshow or a 1080p file is made before its first byte. */
  preparing?: boolean;
  received: number;
  total: number | null; // null: the server did not announce a size
  /** `total` is the size the server expects (a file made while it is sent), not its exact size. */
  estimated?: boolean;
  bytesPerSecond: number;
}

/**
 * The size to show progress against: the exact Content-Length, else the size a file made while it is
 * sent is expected to have (`X-Expected-Length`, issue 38), marked as an estimate.
 */
export function announcedSize(headers: Headers): { total: number | null; estimated: boolean } {
  const exact = Number(headers.get('content-length'));
  if (headers.get('content-length') && exact > 0) return { total: exact, estimated: false };
  const expected = Number(headers.get('x-expected-length'));
  return headers.get('x-expected-length') && expected > 0
    ? { total: expected, estimated: true }
    : { total: null, estimated: false };
}

/** A failure on this side (a second download, a cut-off file); the server's own come as ApiError. */
export class DownloadError extends Error {}

/** What a failed download tells the person: the free plan's limit, or the text to show (if any). */
export function downloadFailure(err: unknown): { limitReached: boolean; message: string | undefined } {
  const message = err instanceof DownloadError ? err.message : serverMessage(err);
  return { limitReached: errorCode(err) === 'quota.exhausted', message: message || undefined };
}

/** Hands a file made in the page to the browser's downloads. */
export function saveBlob(blob: Blob, name: string) {
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}

export function useVideoDownload() {
  const [progress, setProgress] = useState<DownloadProgress | null>(null);
  const busy = useRef(false);

  const start = useCallback(
    async (url: string, quality: string, platform: string): Promise<{ fileName: string; bytes: number }> => {
      if (busy.current) throw new DownloadError('A download is already running.');
      busy.current = true;
      setProgress({ preparing: true, received: 0, total: null, bytesPerSecond: 0 });
      try {
        const res = await videoDownload({ url, quality });
        if (!res.body) throw new DownloadError('');
        const contentType = res.headers.get('content-type')?.split(';')[0] ?? 'video/mp4';
        const { total, estimated } = announcedSize(res.headers);
        setProgress({ received: 0, total, estimated, bytesPerSecond: 0 });
        const reader = res.body.getReader();
        const chunks: Uint8Array[] = [];
        const started = performance.now();
        let received = 0;
        let lastPaint = 0;
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          chunks.push(value);
          received += value.length;
          const now = performance.now();
          if (now - lastPaint > 100) {
            lastPaint = now;
            const seconds = Math.max(0.001, (now - started) / 1000);
            setProgress({ received, total, estimated, bytesPerSecond: received / seconds });
          }
        }
        // Only an exact size can say the file came short; a cut-off stream fails its read above.
        if (total !== null && !estimated && received !== total)
          throw new DownloadError('The download was interrupted. Please try again.');
        const seconds = Math.max(0.001, (performance.now() - started) / 1000);
        setProgress({ received, total: total ?? received, bytesPerSecond: received / seconds });
        // The name the server gave the file (shared/file-names.ts, decision 0094).
        const fileName =
          attachmentName(res.headers.get('content-disposition')) ??
          downloadFileName(platform, '', contentType === 'application/zip' ? 'photos' : 'video');
        saveBlob(new Blob(chunks as BlobPart[], { type: contentType }), fileName);
        return { fileName, bytes: received };
      } catch (err) {
        if (err instanceof DownloadError || err instanceof ApiError) throw err;
        throw new DownloadError('');
      } finally {
        busy.current = false;
        setProgress(null);
      }
    },
    [],
  );

  return { progress, start };
}
