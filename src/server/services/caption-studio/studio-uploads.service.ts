// Video uploads for the caption studio (issue 29) over the tus protocol (@tus/server + @tus/file-store,
// decision 0033): streamed to disk in chunks, a dropped connection resumes at the last byte. The
// size limit (MEDIA_MAX_INPUT_MB) is enforced by tus while the bytes arrive; once whole, the file is
// checked (a video, with sound, at most 10 minutes, not cut off) and moved into the media store,
// where it expires after MEDIA_RESULT_TTL_HOURS like every result. A refused file is deleted at once.
// Uploads are their owner's: anyone else gets a 404 for them.
import { AsyncLocalStorage } from 'node:async_hooks';
import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import type http from 'node:http';
import path from 'node:path';
import { FileStore } from '@tus/file-store';
import { Server, type Upload } from '@tus/server';
import { STUDIO_LIMITS } from '../../../shared/contracts/caption-studio.js';
import { AppError, fail } from '../../errors.js';
import { checkUploadedVideo, looksLikeVideo } from '../../adapters/media/upload-check.js';
import type { CaptionProjectsRepository } from '../../db/repositories/caption-projects.repository.js';
import type { MediaResultsService } from '../media-results.service.js';
import type { ScheduledTask } from '../schedules.service.js';

export const UPLOADS_PATH = '/api/uploads';
const EXTENSIONS: Record<string, { ext: string; type: string }> = {
  mp4: { ext: 'mp4', type: 'video/mp4' },
  m4v: { ext: 'mp4', type: 'video/mp4' },
  mov: { ext: 'mov', type: 'video/quicktime' },
  webm: { ext: 'webm', type: 'video/webm' },
};

export interface StudioUploadsDeps {
  repo: CaptionProjectsRepository;
  results: MediaResultsService;
  dir: string;
  bins: { ffmpeg: string; ffprobe: string };
  maxBytes: number;
  ttlMs: number;
  timeoutMs: number;
  logger: { warn(obj: object, msg: string): void };
}

/** An AppError as tus answers it: its status and our JSON error envelope. */
const tusError = (e: AppError) => ({
  status_code: e.status,
  body: JSON.stringify({ message: e.message, code: e.code, ...(e.params ? { params: e.params } : {}) }),
});

export function createStudioUploads(deps: StudioUploadsDeps) {
  const caller = new AsyncLocalStorage<{ userId: string }>();
  const store = new FileStore({ directory: deps.dir, expirationPeriodInMilliseconds: deps.ttlMs });
  const kindOf = (name: string) => EXTENSIONS[path.extname(name).slice(1).toLowerCase()];

  /** The file and tus's record of it, whichever is still there (the media store may have moved the file). */
  const discard = async (id: string) => {
    await fsp.rm(path.join(deps.dir, id), { force: true });
    await store.configstore.delete(id).catch(() => undefined);
  };
  async function refuse(id: string, e: AppError): Promise<never> {
    await discard(id);
    await deps.repo.deleteUpload(id);
    throw tusError(e);
  }

  const tus = new Server({
    path: UPLOADS_PATH,
    datastore: store,
    maxSize: deps.maxBytes,
    relativeLocation: true,
    // 32 hex characters: unguessable, and it fits the media results' video id column.
    namingFunction: () => crypto.randomBytes(16).toString('hex'),
    async onUploadCreate(_req, upload) {
      const who = caller.getStore();
      if (!who) throw tusError(fail('auth.required'));
      const name = String(upload.metadata?.filename ?? upload.metadata?.name ?? '').slice(0, 255);
      if (!kindOf(name)) throw tusError(fail('upload.not_video'));
      // The length is declared up front (no Upload-Defer-Length): the limit is known before a byte.
      if (upload.size === undefined)
        throw tusError(fail('upload.too_large', { mb: Math.round(deps.maxBytes / 1048576) }));
      await deps.repo.insertUpload({
        id: upload.id,
        userId: who.userId,
        fileName: name,
        size: upload.size,
        status: 'receiving',
        expiresAt: new Date(Date.now() + deps.ttlMs),
      });
      return {};
    },
    async onUploadFinish(_req, upload: Upload) {
      const row = await deps.repo.findUpload(upload.id);
      if (!row) throw tusError(fail('upload.not_found'));
      const file = path.join(deps.dir, upload.id);
      let probed: Awaited<ReturnType<typeof checkUploadedVideo>>;
      try {
        probed = await checkUploadedVideo(deps.bins, file, {
          maxSeconds: STUDIO_LIMITS.maxUploadSeconds,
          timeoutMs: deps.timeoutMs,
        });
      } catch (err) {
        if (err instanceof AppError && err.status < 500) return refuse(upload.id, err);
        throw err;
      }
      const kind = kindOf(row.fileName);
      const key = `upload:${upload.id}`;
      const meta = { width: probed.width, height: probed.height, duration: probed.duration, title: row.fileName };
      await deps.results.save({
        key,
        kind: 'studio-upload',
        platform: 'upload',
        videoId: upload.id,
        file,
        ext: kind.ext,
        contentType: kind.type,
        size: row.size,
        meta,
      });
      await deps.repo.markUploadReady(upload.id, key, meta);
      await discard(upload.id); // the media store has it now
      return {};
    },
    onResponseError(_req, err) {
      if (err instanceof AppError) return tusError(err);
      // tus's own size answer (declared or streamed past the limit), in our words and envelope.
      if ('status_code' in err && err.status_code === 413)
        return tusError(fail('upload.too_large', { mb: Math.round(deps.maxBytes / 1048576) }));
      if (!('status_code' in err)) deps.logger.warn({ err: err.message }, 'upload failed');
      return undefined;
    },
  });

  /** Up to `n` bytes from the start of a request body, put back so tus reads them again (the stream stays open). */
  function peek(req: http.IncomingMessage, n: number): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let got = 0;
      const done = () => {
        req.off('readable', onReadable);
        req.off('end', done);
        req.off('error', reject);
        const head = Buffer.concat(chunks);
        if (head.length) req.unshift(head);
        resolve(head.subarray(0, n));
      };
      const onReadable = () => {
        for (let c = req.read() as Buffer | null; c !== null; c = req.read() as Buffer | null) {
          chunks.push(c);
          got += c.length;
          if (got >= n) return done();
        }
      };
      req.on('readable', onReadable);
      req.once('end', done);
      req.once('error', reject);
    });
  }

  return {
    /**
     * The first chunk of a file (PATCH at offset 0) must start like a video: anything else is refused
     * and deleted now, before the rest is sent. True when the request may go on to tus.
     */
    async firstChunkIsVideo(id: string, req: http.IncomingMessage): Promise<boolean> {
      if (req.method !== 'PATCH' || req.headers['upload-offset'] !== '0') return true;
      if (looksLikeVideo(await peek(req, 12))) return true;
      await discard(id);
      await deps.repo.deleteUpload(id);
      return false;
    },
    /** Hands a request under /api/uploads to tus as `userId` (the route checked sign-in, Pro and ownership). */
    handle(userId: string, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
      return caller.run({ userId }, () => tus.handle(req, res));
    },
    /** The id in a tus URL (`/api/uploads/<id>`), if any. */
    idOf: (url: string) => /^\/api\/uploads\/([0-9a-f]{32})(?:[/?]|$)/.exec(url)?.[1] ?? null,

    /** 404 unless the upload exists and is the user's. */
    async owned(userId: string, id: string) {
      const row = await deps.repo.findUpload(id);
      if (!row || row.userId !== userId) throw fail('upload.not_found');
      return row;
    },

    /** A finished, checked upload of the user: what the transcription and the project read. */
    async ready(user: { id: string }, id: string) {
      const row = await deps.repo.findUpload(id);
      if (!row || row.userId !== user.id || row.expiresAt.getTime() <= Date.now()) throw fail('upload.not_found');
      if (row.status !== 'ready' || !row.resultKey) throw fail('upload.not_finished');
      return { url: `upload:${id}`, title: row.fileName, resultKey: row.resultKey };
    },

    /** Expired uploads: half-sent files on disk and their rows (the stored copies expire with the media results). */
    cleanupTask: {
      name: 'studio-uploads-cleanup',
      intervalMs: 15 * 60 * 1000,
      async run() {
        let removed = await store.deleteExpired().catch(() => 0);
        for (;;) {
          const batch = await deps.repo.listExpiredUploads(new Date());
          if (!batch.length) return removed;
          for (const row of batch) {
            await discard(row.id);
            await deps.repo.deleteUpload(row.id);
            removed++;
          }
        }
      },
    } satisfies ScheduledTask,
  };
}
export type StudioUploads = ReturnType<typeof createStudioUploads>;
