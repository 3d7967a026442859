// Real download progress (DECISIONS 4): the file is read from the streamed response, so percent,
// MB of MB and speed come from the bytes actually received; then saved through a Blob URL under a
// timestamp-based .mp4 name (SPEC 7), or .zip for a photo post's photos.
import { useCallback, useRef, useState } from 'react';
import { messageFor } from '../../lib/query-client';

export interface DownloadProgress {
  /** True until the server answers: a slideshow or a 1080p file is made before its first byte. */
  preparing?: boolean;
  received: number;
  total: number | null; // null: the server did not announce a size
  bytesPerSecond: number;
}

export class DownloadError extends Error {
  constructor(
    message: string,
    readonly body: Record<string, unknown> | null,
    readonly status: number,
  ) {
    super(message);
  }
}

/** SPEC 7's timestamped name, after the video's platform: `<platform>-video-<ms>.mp4`, `<platform>-photos-<ms>.zip`. */
export function downloadFileName(platform: string, now = new Date(), contentType = 'video/mp4'): string {
  const stem = platform.replace(/[^a-z0-9-]/g, '') || 'video';
  if (contentType === 'application/zip') return `${stem}-photos-${now.getTime()}.zip`;
  // The original sound, as the platform stores it (AAC in MP4, or MP3).
  if (contentType === 'audio/mpeg') return `${stem}-sound-${now.getTime()}.mp3`;
  if (contentType.startsWith('audio/')) return `${stem}-sound-${now.getTime()}.m4a`;
  return `${stem}-video-${now.getTime()}.mp4`;
}

function saveBlob(blob: Blob, name: string) {
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
      if (busy.current) throw new DownloadError('A download is already running.', null, 0);
      busy.current = true;
      setProgress({ preparing: true, received: 0, total: null, bytesPerSecond: 0 });
      try {
        const res = await fetch('/api/video/download', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ url, quality }),
          credentials: 'include',
        });
        if (!res.ok || !res.body) {
          const text = await res.text().catch(() => '');
          let body: Record<string, unknown> | null = null;
          try {
            body = JSON.parse(text);
          } catch {
            /* not JSON */
          }
          throw new DownloadError(messageFor(body) ?? '', body, res.status);
        }
        const contentType = res.headers.get('content-type')?.split(';')[0] ?? 'video/mp4';
        const lengthHeader = res.headers.get('content-length');
        const total = lengthHeader && Number(lengthHeader) > 0 ? Number(lengthHeader) : null;
        setProgress({ received: 0, total, bytesPerSecond: 0 });
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
            setProgress({ received, total, bytesPerSecond: received / seconds });
          }
        }
        if (total !== null && received !== total)
          throw new DownloadError('The download was interrupted. Please try again.', null, 0);
        const seconds = Math.max(0.001, (performance.now() - started) / 1000);
        setProgress({ received, total: total ?? received, bytesPerSecond: received / seconds });
        const fileName = downloadFileName(platform, new Date(), contentType);
        saveBlob(new Blob(chunks as BlobPart[], { type: contentType }), fileName);
        return { fileName, bytes: received };
      } catch (err) {
        if (err instanceof DownloadError) throw err;
        throw new DownloadError('', null, 0);
      } finally {
        busy.current = false;
        setProgress(null);
      }
    },
    [],
  );

  return { progress, start };
}
