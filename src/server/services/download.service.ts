// Downloads: look the video up (cached), reserve a quota slot, stream the CDN file through without
// buffering it (or, from the store: a split file joined with its sound, a photo post's ZIP or
// slideshow), commit the slot once
// every byte was delivered, release it on any failure (upstream cut, client gone). History: the
// newest 20, and clearing hides rows only.
import type { Readable } from 'node:stream';
import type { Logger } from 'pino';
import { DEFAULT_QUALITY, FREE_DOWNLOAD_LIMIT } from '../../shared/constants.js';
import type { RecentDownload } from '../../shared/contracts/index.js';
import type { DownloadsRepository } from '../db/repositories/downloads.repository.js';
import type { User } from '../db/repositories/users.repository.js';
import { isPro, mediaJobOwner } from './entitlements.service.js';
import { quotaExhausted, type QuotaService, type Reservation } from './quota.service.js';
import { isGone, type RemuxService } from './remux.service.js';
import type { PhotoPostService } from './photo-post.service.js';
import type { JobOwner } from '../jobs/catalogue.js';
import { fail } from '../errors.js';
import type { FetchedVideo, MediaOption } from '../platforms/platform.js';
import { defaultOption, playsAsItIs } from '../platforms/video-model.js';
import { PHOTO_QUALITIES, type PhotoQuality, type VideoService } from './video.service.js';

/** A photo post downloads as 'images' (ZIP) or 'slideshow'; the default label (DEFAULT_QUALITY) means the slideshow. */
function photoQuality(video: FetchedVideo, quality: string): PhotoQuality {
  const q = quality.toLowerCase();
  if (q === DEFAULT_QUALITY) return 'slideshow';
  if ((PHOTO_QUALITIES as readonly string[]).includes(q)) return q as PhotoQuality;
  throw fail('video.quality_unavailable', { variant: 'photo_post', slides: video.video.images.length });
}
import { MeteredBody } from './metered-body.js';
import { peekSound } from '../adapters/media/mp4-head.js';
import { downloadHeaders } from '../lib/download-headers.js';
import { VIDEO_LINKS } from '../platforms/default.js';
import { downloadFileName, fileStem } from '../../shared/file-names.js';

/** The file's name: the default file's is plain, another option's carries its label (file-names.ts). */
function optionFileName(video: FetchedVideo, option: MediaOption): string {
  const v = video.video;
  const plain = defaultOption(v.options, DEFAULT_QUALITY) === option;
  return downloadFileName(video.ref.platform, v.author, v.id, plain ? undefined : option.quality);
}

export interface DownloadStream {
  headers: Record<string, string>;
  body: Readable;
  /** Settles after the reservation was committed (true) or released (false). */
  settled: Promise<boolean>;
  /** Call with each chunk of `body` once it was written out (its buffer may then be reused). */
  release(chunk: Buffer): void;
}

export function createDownloadService(deps: {
  video: VideoService;
  quota: QuotaService;
  remux: RemuxService;
  photos: PhotoPostService;
  downloads: DownloadsRepository;
  logger: Logger;
}) {
  /** The response: the file passed through, its slot committed when the last byte goes (decision 0102). */
  function metered(
    reservation: Reservation,
    file: {
      stream: Readable;
      length: number | null;
      /** A file made while it is sent: its size expected from its parts (progress and the half rule). */
      expectedLength?: number | null;
      contentType: string;
      release(chunk: Buffer): void;
    },
    name: string,
    quality: string,
  ): DownloadStream {
    let resolveSettled!: (ok: boolean) => void;
    const settled = new Promise<boolean>((r) => (resolveSettled = r));
    const body = new MeteredBody(
      file.stream,
      file.length,
      {
        commit: (bytes) =>
          reservation.commit(bytes).then(resolveSettled, (e) => {
            deps.logger.error({ err: e, downloadId: reservation.downloadId }, 'download commit failed');
            throw e;
          }),
        // Upstream cut, client disconnect or timeout: the slot goes back.
        release: (bytes) =>
          reservation.release(bytes).then(
            () => resolveSettled(false),
            (e) => {
              deps.logger.error({ err: e }, 'download release failed');
              resolveSettled(false);
            },
          ),
      },
      undefined,
      file.length ?? file.expectedLength ?? null,
    );
    const contentType =
      /^(video|audio)\//.test(file.contentType) || file.contentType === 'application/zip'
        ? file.contentType
        : 'video/mp4';
    const headers: Record<string, string> = {
      ...downloadHeaders({
        fileName: name,
        contentType,
        length: file.length,
        expectedLength: file.expectedLength,
        cache: 'no-store',
      }),
      // Which option was sent: a sharper gear the platform would not give falls back (decision 0014).
      'x-video-quality': quality,
    };
    return { headers, body, settled, release: file.release };
  }

  /**
   * A file that does not play as it is (video-model.ts `playsAsItIs`): a whole MP4 of another codec
   * relayed once its head shows its sound, or a split one joined with its sound (or taken from the
   * store); when it is gone or silent, the next file of that size, then the next size, then the
   * files that play as they are. Never a silent file (unless the post has no sound), never the
   * watermarked one; when every file fails, one 424 naming what was tried, and the slot goes back.
   */
  async function sharpest(
    owner: JobOwner,
    reservation: Reservation,
    video: FetchedVideo,
    option: MediaOption,
    signal?: AbortSignal,
  ): Promise<DownloadStream> {
    const options = video.video.options;
    const area = (o: MediaOption) => (o.width ?? 0) * (o.height ?? 0);
    // Each file as (quality, alternate): a page fetched again (expired links) gives its fresh URLs.
    const chain = [
      ...options
        .filter((o) => !playsAsItIs(o) && area(o) <= area(option))
        .flatMap((o) =>
          [o, ...(o.alternates ?? [])].map((file, alternate) => ({ file, alternate, quality: o.quality })),
        ),
      ...options.filter(playsAsItIs).map((file) => ({ file, alternate: 0, quality: file.quality })),
    ];
    const byLabel = new Map(options.map((o) => [o.quality, o]));
    const name = (q: string) => optionFileName(video, byLabel.get(q) ?? option);
    try {
      for (const { file: candidate, alternate, quality } of chain) {
        try {
          if (candidate.form === 'split') {
            const file = await deps.remux.open(video, candidate, signal, owner, alternate);
            return metered(
              reservation,
              {
                stream: file.stream,
                length: file.size,
                expectedLength: file.expectedBytes,
                contentType: 'video/mp4',
                release: () => undefined,
              },
              name(candidate.quality),
              candidate.quality,
            );
          }
          const media = await deps.video.openMedia(video.ref.url, { kind: 'video', quality, alternate }, signal, {
            bulk: true,
          });
          // A whole file that should carry sound but has no sound track is skipped like a missing one.
          const head = await peekSound(media.stream, media.release).catch(() => {
            media.stream.destroy();
            throw fail('upstream.incomplete'); // cut before its head arrived: the next file
          });
          if (head.sound === false && !candidate.silent) {
            head.stream.destroy();
            throw fail('media.unreadable');
          }
          return metered(
            reservation,
            {
              stream: head.stream,
              length: media.contentLength,
              contentType: media.contentType,
              release: media.release,
            },
            name(candidate.quality),
            candidate.quality,
          );
        } catch (err) {
          if (signal?.aborted || !isGone(err)) throw err;
          deps.logger.warn(
            { videoId: video.video.id, quality: candidate.quality, code: (err as { code?: string }).code },
            'file unavailable or silent, falling back',
          );
        }
      }
      const tried = [...new Set(chain.map((o) => o.quality))].join(', ');
      throw fail('upstream.unavailable', {
        variant: 'files',
        tried,
        platform: deps.video.platformName(video.ref.platform),
      });
    } catch (err) {
      await reservation.release(0);
      throw err;
    }
  }

  /**
   * The post's sound as the platform stores it (issue 28): relayed byte for byte, never re-encoded;
   * the next source when one is gone. One download, like any other.
   */
  async function originalSound(reservation: Reservation, video: FetchedVideo, signal?: AbortSignal) {
    const sources = video.video.originalSound?.sources ?? [];
    try {
      for (const [i, source] of sources.entries()) {
        try {
          const media = await deps.video.openMedia(video.ref.url, { kind: 'sound', source: i }, signal, { bulk: true });
          const file = {
            stream: media.stream,
            length: media.contentLength,
            contentType: source.ext === 'mp3' ? 'audio/mpeg' : 'audio/mp4',
            release: media.release,
          };
          return metered(
            reservation,
            file,
            `${fileStem(video.ref.platform, video.video.author, video.video.id)}-sound.${source.ext}`,
            'sound',
          );
        } catch (err) {
          if (signal?.aborted || !isGone(err)) throw err;
        }
      }
      throw fail('video.sound_unavailable', { variant: 'post', platform: deps.video.platformName(video.ref.platform) });
    } catch (err) {
      await reservation.release(0);
      throw err;
    }
  }

  /** A photo post's ZIP or slideshow, from the store or made now; the slot goes back on any failure. */
  async function photoPost(
    user: User,
    reservation: Reservation,
    video: FetchedVideo,
    quality: PhotoQuality,
    signal?: AbortSignal,
  ): Promise<DownloadStream> {
    try {
      const file = await deps.photos.open(video, quality, signal, mediaJobOwner(user));
      return metered(
        reservation,
        { stream: file.stream, length: file.size, contentType: file.contentType, release: () => undefined },
        downloadFileName(video.ref.platform, video.video.author, video.video.id, quality),
        quality,
      );
    } catch (err) {
      await reservation.release(0);
      throw err;
    }
  }

  return {
    async start(user: User, input: { url: string; quality: string }, signal?: AbortSignal): Promise<DownloadStream> {
      // Cheap refusal before any upstream work; the atomic check is the reservation below.
      if (!isPro(user) && user.downloadCount >= FREE_DOWNLOAD_LIMIT) throw quotaExhausted();
      const { info, video } = await deps.video.getInfo(input.url, signal);
      const meta = (quality: string) => ({
        url: info.url,
        platform: video.ref.platform,
        videoId: info.videoId,
        title: info.title.slice(0, 5000),
        author: info.author.slice(0, 255),
        hasThumbnail: info.thumbnail !== null,
        duration: info.duration,
        views: info.views,
        likes: info.likes,
        quality: quality.slice(0, 20),
      });
      // One download is one slot whatever the option: reserved before any work.
      if (input.quality.toLowerCase() === 'sound') {
        if (!video.video.originalSound) throw fail('video.quality_unavailable', { quality: 'sound' });
        return originalSound(await deps.quota.reserve(user, meta('sound')), video, signal);
      }
      if (video.video.isPhotoPost) {
        const quality = photoQuality(video, input.quality);
        return photoPost(user, await deps.quota.reserve(user, meta(quality)), video, quality, signal);
      }
      const option = deps.video.pickOption(video, input.quality);
      if (!playsAsItIs(option))
        return sharpest(
          mediaJobOwner(user),
          await deps.quota.reserve(user, meta(option.quality)),
          video,
          option,
          signal,
        );
      // The slot and the CDN file are asked for at once (each costs a round trip); whichever fails
      // undoes the other. No byte reaches the client before both succeeded.
      const [reserved, opened] = await Promise.allSettled([
        deps.quota.reserve(user, meta(option.quality)),
        deps.video.openMedia(info.url, { kind: 'video', quality: option.quality }, signal, { bulk: true }),
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
      const file = {
        stream: media.stream,
        length: media.contentLength,
        contentType: media.contentType,
        release: media.release,
      };
      return metered(reservation, file, optionFileName(video, option), option.quality);
    },

    async recent(userId: string): Promise<RecentDownload[]> {
      const rows = await deps.downloads.recent(userId, 20);
      return rows.map((r) => ({
        id: r.id,
        url: r.url,
        videoId: r.videoId,
        title: r.title,
        author: r.author,
        thumbnail: r.hasThumbnail && r.videoId ? VIDEO_LINKS.thumbnail(r.videoId, r.platform) : null,
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
