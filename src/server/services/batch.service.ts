// Batch downloads (issue 21, Pro): many links at once. Each valid link is a job on the queue
// `batch.item` (any worker node takes it); its file is fetched like a single download (the H.264
// file, a remux, or a photo post's ZIP/slideshow) and kept in the media store until the batch
// expires, so any node can serve it. A ZIP of every finished file is streamed from there.
import crypto from 'node:crypto';
import path from 'node:path';
import type { Logger } from 'pino';
import type { BatchCreateRequest, BatchItem, BatchList, BatchView } from '../../shared/contracts/batch.js';
import { DEFAULT_QUALITY } from '../../shared/constants.js';
import type { MediaProcessor } from '../adapters/media/media-processor.js';
import type { JobOwner } from '../jobs/catalogue.js';
import { streamZip } from '../adapters/media/zip-archive.js';
import { mediaLinkSignature, verifyMediaLink } from '../adapters/storage/signed-links.js';
import type { BatchesRepository, BatchItemRow } from '../db/repositories/batches.repository.js';
import type { User } from '../db/repositories/users.repository.js';
import { AppError, fail } from '../errors.js';
import type { JobDispatcher } from '../jobs/dispatcher.js';
import { downloadFileName } from '../../shared/file-names.js';
import { defaultOption, isSplit } from '../platforms/video-model.js';
import type { MediaResultsService } from './media-results.service.js';
import type { PhotoPostService } from './photo-post.service.js';
import type { RemuxService } from './remux.service.js';
import type { ScheduledTask } from './schedules.service.js';
import type { VideoService } from './video.service.js';
import { batchZipUrl } from '../../shared/api-paths.js';

const notFound = () => fail('batch.not_found');

export interface BatchDeps {
  repo: BatchesRepository;
  jobs: JobDispatcher;
  video: VideoService;
  remux: RemuxService;
  photos: PhotoPostService;
  media: MediaProcessor;
  results: MediaResultsService;
  secret: string;
  ttlMs: number;
  concurrency: number;
  logger: Logger;
}

export function createBatchService(deps: BatchDeps) {
  // Fair share: the priority of the n-th item of a batch falls with n (jobs/catalogue.ts), so every
  // batch's first items go before anyone's long tail; a second user's batch never waits behind the
  // whole of a first one.
  const enqueue = (ids: number[]) =>
    Promise.all(
      ids.map((id, n) => deps.jobs.send('batch.item', { itemId: id }, { singletonKey: `batch-item-${id}`, place: n })),
    );

  /**
   * The stored file of one item, made like a single download: a photo post's slideshow (or ZIP) and
   * a split file joined with its sound are kept results already (their own pool jobs, shared with single
   * downloads); an H.264 file is fetched into the store in a pool job of its own. Never a pool job
   * inside another, which could wait for a slot it holds.
   */
  async function storeItem(item: BatchItemRow, quality: string, batchId: string, signal: AbortSignal, owner: JobOwner) {
    const { video } = await deps.video.getInfo(item.url, signal);
    const v = video.video;
    const title = v.title.slice(0, 500);
    if (v.isPhotoPost) {
      const q = quality === 'images' ? 'images' : 'slideshow';
      const row = await deps.photos.ensure(video, q, signal, owner);
      return { title, fileName: downloadFileName(video.ref.platform, v.author, v.id, q), resultKey: row.key };
    }
    const option = deps.video.pickOption(video, quality);
    // Named like the single download: the default file plainly, another with its label.
    const plain = defaultOption(v.options, DEFAULT_QUALITY) === option;
    const fileName = downloadFileName(video.ref.platform, v.author, v.id, plain ? undefined : option.quality);
    // A split file is joined with its sound (decided from the model, never from a label or codec).
    if (isSplit(option)) {
      const row = await deps.remux.ensure(video, option, signal, owner);
      return { title, fileName, resultKey: row.key };
    }
    const resultKey = `batch:${batchId}:${item.id}`;
    await deps.media.job(signal, async (dir) => {
      const m = await deps.video.openMedia(video.ref.url, { kind: 'video', quality: option.quality }, signal, {
        bulk: true,
      });
      const file = path.join(dir, 'item.mp4');
      const size = await deps.media.download(m.stream, file, { expectedBytes: m.contentLength, signal });
      await deps.results.save({
        key: resultKey,
        kind: 'batch',
        platform: video.ref.platform,
        videoId: v.id,
        file,
        ext: 'mp4',
        contentType: 'video/mp4',
        size,
        meta: { fileName },
      });
    });
    return { title, fileName, resultKey };
  }

  async function runItem(itemId: number, signal: AbortSignal) {
    const item = await deps.repo.item(itemId);
    // Done already (a run that finished before its worker was killed), or the batch is gone.
    if (!item || !(await deps.repo.start(itemId))) return;
    const batch = await deps.repo.find(item.batchId);
    if (!batch) return;
    await deps.repo.finish(
      item.id,
      await storeItem(item, batch.quality, batch.id, signal, { owner: batch.userId, plan: 2 }),
    );
  }

  // The items' queue, run on nodes that work jobs; the dispatcher applies the retry rule
  // (jobs/dispatcher.ts): a transient failure goes back in line, a final one marks the item failed.
  deps.jobs.register('batch.item', ({ itemId }, job) => runItem(itemId, job.signal), {
    concurrency: deps.concurrency,
    retrying: ({ itemId }) => deps.repo.requeue(itemId),
    ended: async (err, { itemId }) => {
      const e = err instanceof AppError ? err : fail('batch.item_failed');
      if (!(err instanceof AppError)) deps.logger.error({ err, itemId }, 'batch item failed');
      await deps.repo.fail(itemId, { code: e.code, message: e.message });
    },
  });

  function statusOf(items: BatchItemRow[]): BatchView['status'] {
    const n = (s: string) => items.filter((i) => i.status === s).length;
    if (n('queued') === items.length) return 'queued';
    if (n('queued') + n('running') > 0) return 'running';
    if (n('failed') === items.length) return 'failed';
    return n('failed') ? 'partial' : 'done';
  }

  function zipLink(batchId: string, expiresAt: Date): string {
    const exp = Math.floor(expiresAt.getTime() / 1000);
    return batchZipUrl(batchId, exp, mediaLinkSignature(deps.secret, `batch/${batchId}`, exp));
  }

  async function owned(user: User, id: string) {
    const batch = await deps.repo.find(id);
    if (!batch || batch.userId !== user.id) throw notFound();
    return batch;
  }

  return {
    async create(
      user: User,
      input: BatchCreateRequest,
    ): Promise<{ id: string; items: Array<Pick<BatchItem, 'url' | 'status' | 'error'>> }> {
      const seen = new Set<string>();
      const items = input.urls.map((url) => {
        const match = deps.video.match(url);
        if (!match)
          return {
            url,
            status: 'failed',
            errorCode: 'link.unsupported',
            errorMessage: fail('link.unsupported', {
              variant: 'provide',
              platforms: deps.video.platformNames().join(' or '),
            }).message,
          };
        const key = match.link.kind === 'video' ? `${match.platform.id}:${match.link.id}` : match.link.url;
        if (seen.has(key))
          return { url, status: 'failed', errorCode: 'batch.duplicate', errorMessage: fail('batch.duplicate').message };
        seen.add(key);
        return { url, status: 'queued' };
      });
      const id = crypto.randomUUID();
      const quality = (input.quality ?? DEFAULT_QUALITY).toLowerCase();
      const rows = await deps.repo.create(
        { id, userId: user.id, quality, expiresAt: new Date(Date.now() + deps.ttlMs) },
        items,
      );
      await enqueue(rows.filter((r) => r.status === 'queued').map((r) => r.id));
      return {
        id,
        items: rows.map((r) => ({
          url: r.url,
          status: r.status as BatchItem['status'],
          ...(r.errorCode ? { error: { code: r.errorCode, message: r.errorMessage ?? '' } } : {}),
        })),
      };
    },

    async view(user: User, id: string): Promise<BatchView> {
      const batch = await owned(user, id);
      const items = await deps.repo.items(id);
      const positions = await deps.repo.queuePositions(items.filter((i) => i.status === 'queued').map((i) => i.id));
      const status = statusOf(items);
      const finished = status === 'done' || status === 'partial';
      return {
        id,
        status,
        createdAt: batch.createdAt.toISOString(),
        expiresAt: batch.expiresAt.toISOString(),
        items: items.map((i) => ({
          url: i.url,
          status: i.status as BatchItem['status'],
          ...(i.title ? { title: i.title } : {}),
          ...(positions.has(i.id) ? { position: positions.get(i.id) } : {}),
          ...(i.errorCode ? { error: { code: i.errorCode, message: i.errorMessage ?? '' } } : {}),
        })),
        ...(finished ? { downloadUrl: zipLink(id, batch.expiresAt) } : {}),
      };
    },

    async list(user: User): Promise<BatchList> {
      return (await deps.repo.listForUser(user.id)).map(({ batch, counts }) => {
        const total = Object.values(counts).reduce((a, b) => a + b, 0);
        const done = counts.done ?? 0;
        const failed = counts.failed ?? 0;
        const waiting = (counts.queued ?? 0) + (counts.running ?? 0);
        const status =
          waiting === total
            ? 'queued'
            : waiting
              ? 'running'
              : failed === total
                ? 'failed'
                : failed
                  ? 'partial'
                  : 'done';
        return {
          id: batch.id,
          status,
          createdAt: batch.createdAt.toISOString(),
          expiresAt: batch.expiresAt.toISOString(),
          total,
          done,
          failed,
        };
      });
    },

    /** Failed items (not the refused links) go back to the queue. */
    async retry(user: User, id: string): Promise<BatchView> {
      await owned(user, id);
      await enqueue(await deps.repo.requeueFailed(id));
      return this.view(user, id);
    },

    /** The ZIP behind a batch's signed link: every finished file, named like single downloads. */
    async zip(id: string, exp: number, sig: string) {
      const verdict = verifyMediaLink(deps.secret, `batch/${id}`, exp, sig);
      if (verdict === 'invalid') throw fail('media.link_invalid');
      if (verdict === 'expired' || !(await deps.repo.find(id))) throw fail('media.link_expired', { variant: 'batch' });
      const names = new Set<string>();
      const entries = [];
      for (const item of await deps.repo.items(id)) {
        const row = item.status === 'done' && item.resultKey ? await deps.results.find(item.resultKey) : undefined;
        if (!row) continue;
        let name = item.fileName ?? `item-${item.position}.mp4`;
        if (names.has(name)) name = name.replace(/(\.\w+)$/, `-${item.position}$1`);
        names.add(name);
        entries.push({
          name,
          size: row.size,
          open: async () => (await deps.results.openRow(row))?.stream ?? Promise.reject(new Error('stored file gone')),
        });
      }
      if (!entries.length) throw fail('media.link_expired', { variant: 'batch_empty' });
      return { ...(await streamZip(entries)), fileName: `batch-${id.slice(0, 8)}.zip` };
    },

    /** Drops expired batches (their files expire with the media results). */
    expiryTask: {
      name: 'batches-expire',
      intervalMs: 3600_000,
      run: async () => {
        for (const id of await deps.repo.expired(new Date())) await deps.repo.delete(id);
      },
    } satisfies ScheduledTask,
  };
}
export type BatchService = ReturnType<typeof createBatchService>;
