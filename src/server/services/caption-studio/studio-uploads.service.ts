// Video uploads for the caption studio (issue 29) over the tus protocol (@tus/server + @tus/file-store,
// decision 0033): streamed to disk in chunks, a dropped connection resumes at the last byte. The
// size limit (MEDIA_MAX_INPUT_MB) is enforced by tus while the bytes arrive; once whole, the file is
// checked (a video, with sound, at most 10 minutes, not cut off) and moved into the media store,
// where it expires after MEDIA_RESULT_TTL_HOURS like every result. A refused file is deleted at once.
// Uploads are their owner's: anyone else gets a 404 for them. Each person has at most UPLOADS_MAX_OPEN
// unfinished uploads declaring UPLOADS_MAX_OPEN_MB in all; one without a byte for
// UPLOADS_STALE_MINUTES is removed (issue 34, decision 0047). Every refusal is our JSON envelope.
import { AsyncLocalStorage } from 'node:async_hooks';
import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import type http from 'node:http';
import path from 'node:path';
import { FileStore } from '@tus/file-store';
import { Metadata, Server, type Upload } from '@tus/server';
import { STUDIO_LIMITS } from '../../../shared/contracts/caption-studio.js';
import { AppError, fail, infrastructureError, loggableError } from '../../errors.js';
import { checkUploadedVideo, looksLikeVideo } from '../../adapters/media/upload-check.js';
import type { CaptionProjectsRepository } from '../../db/repositories/caption-projects.repository.js';
import type { MediaResultsService } from '../media-results.service.js';
import type { ScheduledTask } from '../schedules.service.js';
import type { OwnedUpload } from '../media-source.js';

export const UPLOADS_PATH = '/api/uploads';
/** The one shape of an upload's URL: no query, no further segment, nothing encoded (issue 34). */
const UPLOAD_URL = /^\/api\/uploads\/([0-9a-f]{32})$/;
const DIGITS = /^\d{1,16}$/;
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
  /** How long a finished upload is kept (MEDIA_RESULT_TTL_HOURS). */
  ttlMs: number;
  /** How long an unfinished upload may go without a byte (UPLOADS_STALE_MINUTES). */
  staleMs: number;
  /** Per person, at once: unfinished uploads and their declared bytes (UPLOADS_MAX_OPEN, UPLOADS_MAX_OPEN_MB). */
  maxOpen: number;
  maxOpenBytes: number;
  timeoutMs: number;
  logger: { warn(obj: object, msg: string): void };
}

/** An AppError as tus answers it: its status and our JSON error envelope (hooks throw AppErrors; onResponseError maps). */
const tusError = (e: AppError) => ({
  status_code: e.status,
  body: JSON.stringify({ message: e.message, code: e.code, ...(e.params ? { params: e.params } : {}) }),
});

/** tus's own refusals (status and a constant English line) in our catalogue's words. */
function fromTus(status: number, body: string, maxMb: number): AppError {
  if (status === 404 || status === 410) return fail('upload.not_found');
  if (status === 409) return fail('upload.offset_conflict');
  if (status === 412) return fail('upload.protocol');
  if (status === 413) return fail('upload.too_large', { mb: maxMb });
  if (status >= 500) return fail('upload.failed');
  return fail('upload.bad_request', { reason: body.trim().split('\n')[0].slice(0, 200) || 'bad request' });
}

/** The uploads' own header rules, checked before tus so that tus never answers in plain text. */
export function checkTusHeaders(method: string, headers: http.IncomingHttpHeaders): void {
  const h = (name: string) => {
    const v = headers[name];
    return Array.isArray(v) ? v.join(',') : v;
  };
  const bad = (reason: string) => fail('upload.bad_request', { reason });
  if (h('tus-resumable') !== '1.0.0') throw fail('upload.protocol');
  if (h('upload-defer-length') !== undefined) throw bad('the length must be declared (Upload-Length).');
  if (h('upload-concat') !== undefined) throw bad('parallel uploads are not supported.');
  const proto = h('x-forwarded-proto');
  if (proto !== undefined && proto !== 'http' && proto !== 'https') throw bad('X-Forwarded-Proto is not http(s).');
  if (method === 'POST' && !DIGITS.test(h('upload-length') ?? '')) throw bad('Upload-Length must be a byte count.');
  if (method === 'PATCH') {
    if (!DIGITS.test(h('upload-offset') ?? '')) throw bad('Upload-Offset must be a byte count.');
    if (h('content-type') !== 'application/offset+octet-stream')
      throw bad('Content-Type must be application/offset+octet-stream.');
  }
  const meta = h('upload-metadata');
  if (meta === undefined) return;
  let parsed: Record<string, string | null>;
  try {
    parsed = Metadata.parse(meta);
  } catch {
    throw bad('Upload-Metadata is not valid (key and base64 value pairs).');
  }
  if (Object.values(parsed).some((v) => v?.includes('\0'))) throw fail('request.nul_character');
}

export function createStudioUploads(deps: StudioUploadsDeps) {
  const caller = new AsyncLocalStorage<{ userId: string }>();
  const maxMb = Math.round(deps.maxBytes / 1048576);
  const idOf = (pathAndQuery: string) => UPLOAD_URL.exec(pathAndQuery)?.[1] ?? null;
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
    throw e;
  }

  const tus = new Server({
    path: UPLOADS_PATH,
    datastore: store,
    maxSize: deps.maxBytes,
    relativeLocation: true,
    // Same-origin only: no CORS header at all (tus's default is `*`).
    allowedOrigins: () => false,
    // tus acts on exactly the id the route checked (the path, whole: no query, no other segment).
    getFileIdFromRequest: (req) => {
      const url = new URL(req.url);
      return idOf(url.pathname + url.search) ?? undefined;
    },
    // 32 hex characters: unguessable, and it fits the media results' video id column.
    namingFunction: () => crypto.randomBytes(16).toString('hex'),
    async onUploadCreate(_req, upload) {
      const who = caller.getStore();
      if (!who) throw fail('auth.required');
      const name = String(upload.metadata?.filename ?? upload.metadata?.name ?? '').slice(0, 255);
      if (!kindOf(name)) throw fail('upload.not_video');
      // The length is declared up front (no Upload-Defer-Length): the limit is known before a byte.
      if (upload.size === undefined) throw fail('upload.too_large', { mb: maxMb });
      const now = new Date();
      const placed = await deps.repo.insertUpload(
        {
          id: upload.id,
          userId: who.userId,
          fileName: name,
          size: upload.size,
          status: 'receiving',
          expiresAt: new Date(now.getTime() + deps.staleMs),
        },
        { maxOpen: deps.maxOpen, maxBytes: deps.maxOpenBytes, now },
      );
      if (placed === 'too_many') throw fail('upload.too_many_open', { max: deps.maxOpen });
      if (placed === 'too_large') throw fail('upload.open_bytes', { mb: Math.round(deps.maxOpenBytes / 1048576) });
      return {};
    },
    async onUploadFinish(_req, upload: Upload) {
      const row = await deps.repo.findUpload(upload.id);
      if (!row) throw fail('upload.not_found');
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
      const meta = {
        width: probed.width,
        height: probed.height,
        duration: probed.duration,
        audioCodec: probed.audioCodec,
        title: row.fileName,
      };
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
      await deps.repo.markUploadReady(upload.id, key, meta, new Date(Date.now() + deps.ttlMs));
      await discard(upload.id); // the media store has it now
      return {};
    },
    // Every error in our envelope: ours as they are, tus's own in our words, anything else logged
    // without its text (a database error carries the statement) and answered as our fault.
    onResponseError(_req, err) {
      if (err instanceof AppError) return tusError(err);
      if ('status_code' in err && typeof err.status_code === 'number') {
        if (err.status_code >= 500) deps.logger.warn({ status: err.status_code, err: err.body }, 'upload failed');
        return tusError(fromTus(err.status_code, String(err.body ?? ''), maxMb));
      }
      const ours = infrastructureError(err);
      if (ours) return tusError(ours);
      deps.logger.warn({ err: loggableError(err) }, 'upload failed');
      return tusError(fail('upload.failed'));
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
    /** The id of a tus URL that is exactly `/api/uploads/<id>` (path and query as sent), else null. */
    idOf,
    /**
     * An unfinished upload's row, before tus acts (so the next request already sees it): a PATCH is
     * progress (another UPLOADS_STALE_MINUTES); a termination frees its place among the owner's
     * unfinished uploads at once (tus then removes the file).
     */
    async arriving(method: string, row: { id: string; status: string }): Promise<void> {
      if (row.status !== 'receiving') return;
      if (method === 'PATCH') await deps.repo.touchUpload(row.id, new Date(Date.now() + deps.staleMs));
      if (method === 'DELETE') await deps.repo.deleteUpload(row.id);
    },

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
      const source: OwnedUpload = { upload: id };
      return { source, title: row.fileName, resultKey: row.resultKey };
    },

    /** Expired uploads: half-sent files on disk and their rows (the stored copies expire with the media results). */
    cleanupTask: {
      name: 'studio-uploads-cleanup',
      // Often enough that an upload left without progress goes within a quarter of its allowance.
      intervalMs: Math.min(15 * 60 * 1000, Math.max(60_000, deps.staleMs / 4)),
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
