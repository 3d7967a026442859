// Downloads: look the video up (cached), reserve a quota slot, stream the CDN file through without
// buffering it, commit the slot once every byte was delivered, release it on any failure
// (upstream cut, client gone). History: the newest 20, and clearing hides rows only.
import type { Readable } from 'node:stream';
import type { Logger } from 'pino';
import { FREE_DOWNLOAD_LIMIT } from '../../shared/constants.js';
import type { RecentDownload } from '../../shared/contracts/index.js';
import type { DownloadsRepository } from '../db/repositories/downloads.repository.js';
import type { User } from '../db/repositories/users.repository.js';
import { isPro } from './entitlements.service.js';
import { quotaExhausted, type QuotaService } from './quota.service.js';
import type { VideoService } from './video.service.js';
import { MeteredBody } from './metered-body.js';

export interface DownloadStream {
  headers: Record<string, string>;
  body: Readable;
  /** Settles after the reservation was committed (true) or released (false). */
  settled: Promise<boolean>;
  /** Call with each chunk of `body` once it was written out (its buffer may then be reused). */
  release(chunk: Buffer): void;
}

/** ASCII-only, header-safe file name: tiktok-<author>-<id>.mp4 */
export function downloadFileName(author: string, id: string): string {
  const safeAuthor = author.replace(/[^A-Za-z0-9_.-]/g, '').slice(0, 40);
  return `tiktok-${safeAuthor ? `${safeAuthor}-` : ''}${id.replace(/\D/g, '')}.mp4`;
}

export function createDownloadService(deps: { video: VideoService; quota: QuotaService; downloads: DownloadsRepository; logger: Logger }) {
  return {
    async start(user: User, input: { url: string; quality: string }, signal?: AbortSignal): Promise<DownloadStream> {
      // Cheap refusal before any upstream work; the atomic check is the reservation below.
      if (!isPro(user) && user.downloadCount >= FREE_DOWNLOAD_LIMIT) throw quotaExhausted();
      const { info, video } = await deps.video.getInfo(input.url, signal);
      // The slot and the CDN file are asked for at once (each costs a round trip); whichever fails
      // undoes the other. No byte reaches the client before both succeeded.
      const [reserved, opened] = await Promise.allSettled([
        deps.quota.reserve(user, {
          url: info.url,
          videoId: info.videoId,
          title: info.title.slice(0, 5000),
          author: info.author.slice(0, 255),
          thumbnail: info.thumbnail,
          duration: info.duration,
          views: info.views,
          likes: info.likes,
          quality: input.quality.slice(0, 20),
        }),
        deps.video.openMedia(info.url, { kind: 'video', quality: input.quality }, signal, { bulk: true }),
      ]);
      if (reserved.status === 'rejected') {
        if (opened.status === 'fulfilled') opened.value.stream.destroy();
        throw reserved.reason;
      }
      const reservation = reserved.value;
      if (opened.status === 'rejected') {
        await reservation.release(0);
        throw opened.reason;
      }
      const media = opened.value;
      let resolveSettled!: (ok: boolean) => void;
      const settled = new Promise<boolean>((r) => (resolveSettled = r));
      const body = new MeteredBody(media.stream, media.contentLength, {
        commit: (bytes) => reservation.commit(bytes).then(resolveSettled),
        // Upstream cut, client disconnect or timeout: the slot goes back.
        release: (bytes) =>
          reservation.release(bytes).then(
            () => resolveSettled(false),
            (e) => {
              deps.logger.error({ err: e }, 'download release failed');
              resolveSettled(false);
            },
          ),
      });
      const headers: Record<string, string> = {
        'content-type': media.contentType.startsWith('video/') ? media.contentType : 'video/mp4',
        'content-disposition': `attachment; filename="${downloadFileName(video.video.author, video.video.id)}"`,
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      };
      if (media.contentLength !== null) headers['content-length'] = String(media.contentLength);
      return { headers, body, settled, release: media.release };
    },

    async recent(userId: string): Promise<RecentDownload[]> {
      const rows = await deps.downloads.recent(userId, 20);
      return rows.map((r) => ({
        id: r.id,
        url: r.url,
        videoId: r.videoId,
        title: r.title,
        author: r.author,
        thumbnail: r.thumbnail,
        duration: r.duration,
        views: r.views,
        likes: r.likes,
        quality: r.quality,
        createdAt: (r.completedAt ?? r.createdAt).toISOString(),
      }));
    },

    async clear(userId: string): Promise<{ cleared: number }> {
      return { cleared: await deps.downloads.hideAll(userId) };
    },
  };
}

export type DownloadService = ReturnType<typeof createDownloadService>;
