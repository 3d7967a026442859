/**
 * A site may not hold a transfer by sending slowly (issue 42). The idle timeout only catches total
 * silence: a server sending 1 KB every 20 s kept a media slot for the whole media timeout. Two
 * limits, over any body of either transport (undici's or the bulk one):
 *
 *  - a floor: in each window of `windowMs` after the headers, at least `minBytesPerSecond` on
 *    average, judged only in windows where we never held the site back. A reader that falls
 *    behind (a phone downloading over a slow link) fills our buffer, and a full buffer stops the
 *    upstream: that window is not the site's fault and is not judged;
 *  - a deadline for the whole transfer, from the request to the last body byte.
 *
 * Either cut destroys the body with `upstream.timeout` (variant `slow` / `deadline`): the consumer
 * gets the error, the socket goes, and whatever slot the transfer held is freed by its owner.
 *
 * It watches the body rather than piping it through a Transform: relayed files move hundreds of
 * chunks, and a second stream per transfer costs per-chunk work (decision 0104). It wraps the
 * body's own `push` (bytes in, and whether the reader is behind) and `_read` (the reader asks).
 */
import type { Readable } from 'node:stream';
import { HttpClientError } from './http-errors.js';

export interface TransferLimits {
  /** Least average rate over a window in which our buffer never filled; 0: no floor. */
  minBytesPerSecond: number;
  windowMs: number;
  /** Longest whole transfer, headers included; 0: none. */
  deadlineMs: number;
}

/** Applies `limits` to `body` from now; `startedAt` is when the request was sent (Date.now()). */
export function guardTransfer(body: Readable, limits: TransferLimits, startedAt: number): void {
  const floor = (limits.minBytesPerSecond * limits.windowMs) / 1000;
  if ((floor <= 0 && limits.deadlineMs <= 0) || body.destroyed || body.readableEnded) return;
  let bytes = 0;
  let behind = false; // the buffer is full: the reader, not the site, is the slow one
  let behindThisWindow = false;

  const push = body.push;
  body.push = function guardedPush(this: Readable, chunk: unknown, encoding?: BufferEncoding) {
    if (chunk === null) stop(); // the site sent it all: what the reader does now is not its doing
    if (chunk) bytes += (chunk as Buffer).length;
    const more = push.call(this, chunk, encoding);
    if (!more && chunk) behind = behindThisWindow = true;
    return more;
  };
  const read = body._read;
  body._read = function guardedRead(this: Readable, size: number) {
    behind = false;
    return read.call(this, size);
  };

  const cut = (variant: 'slow' | 'deadline') => body.destroy(new HttpClientError('timeout', variant));
  const ticker =
    floor > 0
      ? setInterval(() => {
          const judged = !behindThisWindow;
          behindThisWindow = behind;
          if (judged && bytes < floor) return cut('slow');
          bytes = 0;
        }, limits.windowMs)
      : undefined;
  const deadline =
    limits.deadlineMs > 0
      ? setTimeout(() => cut('deadline'), Math.max(0, startedAt + limits.deadlineMs - Date.now()))
      : undefined;
  ticker?.unref();
  deadline?.unref();
  function stop() {
    clearInterval(ticker);
    clearTimeout(deadline);
  }
  body.once('close', stop);
}
