// Media work on the job queue (issue 21, decision 0022): audio extraction, transcription, 1080p
// remux and photo-post rendering are jobs on the `media` queue, run by any node that works jobs
// (PROCESS_ROLE all|worker), MEDIA_CONCURRENCY at a time on each. A request submits the job of its
// result key, or joins the one already open, and waits for it: on the node that runs it the
// handler tells it at once, from any other node it polls the job. When the last request waiting
// on a node leaves, the job is cancelled, unless someone asked for it without waiting (a 202).
// Pro's jobs go before free users'; among equals, the owner with fewer open jobs goes first. The
// kinds, their retry rules and time limits are declared in jobs/catalogue.ts (issue 30).
import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import type { JobQueue, JobStatus, QueueDefinition } from '../adapters/jobs/job-queue.js';
import type { JobOwner } from '../adapters/media/worker-pool.js';
import type { MediaResult } from '../db/repositories/media-results.repository.js';
import type { MediaJobView } from '../../shared/contracts/media-jobs.js';
import { AppError, fail, infrastructureError, revive } from '../errors.js';
import { checkHandlers, JOB_CATALOGUE, type JobKind, type JobName, type JobOf, kindsOn } from '../jobs/catalogue.js';
import { isTransient } from '../jobs/retry-rule.js';
import type { MediaResultsService } from './media-results.service.js';

export const MEDIA_QUEUE = 'media';
/** A request that asked not to wait (Prefer: respond-async) still gets a result this fast one at once. */
const ASYNC_AFTER_MS = 1500;
const POLL_MAX_MS = 1000;

/** The payload of a declared kind (jobs/catalogue.ts); plain JSON for a kind a test declares. */
export type PayloadOf<K extends string> = K extends JobName ? JobOf<K> : Record<string, unknown>;
/** What a handler receives: its kind's payload and the job's own fields. */
export type JobData<K extends string> = PayloadOf<K> & { kind: string; key: string; owner: string; priority: number };

export interface MediaJobRequest<K extends string = string> {
  /** The kind, declared in jobs/catalogue.ts: 'audio', 'transcript', 'remux', 'images', 'slideshow', 'preview'. */
  kind: K;
  /** The media result it stores (one job per key). */
  key: string;
  /** What the handler needs on any node: the kind's payload (plain JSON). */
  data: PayloadOf<K>;
  who?: JobOwner;
  /** False where the caller has its own fallback (a remux falls back to the next file): no retries. */
  retry?: boolean;
}
/**
 * `local`: what a request waiting on this node handed over (its lookup of the video), so the job
 * does not look the video up again; undefined on another node, which looks it up itself.
 */
export type MediaJobHandler<K extends string = string> = (
  data: JobData<K>,
  signal: AbortSignal,
  who: JobOwner,
  local: unknown,
  /** Where the work stands, 0..100 (a caption render reports ffmpeg's); shown by status(). */
  progress: (percent: number) => void,
) => Promise<MediaResult>;
export type PendingJob = MediaJobView & { state: 'queued' | 'running' };

export interface MediaJobsDeps {
  queue: JobQueue;
  results: MediaResultsService;
  logger: Logger;
  /** This node's MEDIA_CONCURRENCY and MEDIA_QUEUE_LIMIT: the open jobs admitted. */
  concurrency: number;
  maxQueue: number;
  /** How long a request waits for its job before answering media.busy (the job goes on). */
  waitMs: number;
  /** A job running longer than this (plus a minute) was lost with its worker and runs again. */
  timeoutSeconds: number;
  /** Kinds declared by tests on top of the catalogue (their handlers come after the start). */
  testKinds?: Record<string, JobKind>;
}

type Outcome = { row: MediaResult } | { err: AppError };

const busy = () => fail('media.busy');
const aborted = () => fail('request.aborted');
const interrupted = () => fail('media.interrupted');

/** The error a job ended with, as it was thrown on whichever node ran it (a worker lost: interrupted). */
const errorFrom = (output: Record<string, unknown> | null): AppError =>
  revive((output?.error ?? output) as Parameters<typeof revive>[0]) ?? interrupted();

export function createMediaJobs(deps: MediaJobsDeps) {
  const kinds: Record<string, JobKind> = Object.fromEntries(
    kindsOn(MEDIA_QUEUE).map((k) => [k, JOB_CATALOGUE[k as keyof typeof JOB_CATALOGUE]]),
  );
  const declared = (kind: string): JobKind | undefined => kinds[kind] ?? deps.testKinds?.[kind];
  const limits = { media: deps.timeoutSeconds, batchItem: deps.timeoutSeconds };
  // The queue's own retry and expiry are the fallback; every job carries its kind's (send below).
  const queue: QueueDefinition = {
    name: MEDIA_QUEUE,
    policy: 'stately',
    cancellable: true,
    concurrency: deps.concurrency,
    retryLimit: 0,
    expireInSeconds: deps.timeoutSeconds + 60,
  };
  let started = false;
  const ownerShare = Math.max(1, Math.ceil(deps.maxQueue / 2));
  const handlers = new Map<string, MediaJobHandler>();
  const settled = new EventEmitter().setMaxListeners(0);
  const waiting = new Map<string, number>();
  /** Per key, what the requests waiting here looked up (handed to the job if it runs here). */
  const locals = new Map<string, unknown>();
  let admission: Promise<unknown> = Promise.resolve();

  function toAppError(err: unknown, kind: string): AppError {
    if (err instanceof AppError) return err;
    const ours = infrastructureError(err);
    if (ours) return ours;
    deps.logger.error({ err, kind }, 'media job failed');
    return fail('internal');
  }

  async function handle(id: string, data: Record<string, unknown>, signal: AbortSignal, willRetry: boolean) {
    const kind = String(data.kind);
    const run = handlers.get(kind);
    const who: JobOwner = {
      owner: typeof data.owner === 'string' ? data.owner : undefined,
      priority: Number(data.priority ?? 0),
    };
    try {
      if (!run) throw interrupted(); // a node of another release; it is not this request's fault
      // A second job of the key (queued while the first ran) finds the first one's result.
      const key = String(data.key);
      // Progress is written at most once a second: it is a database update.
      let last = 0;
      const progress = (percent: number) => {
        if (Date.now() - last < 1000) return;
        last = Date.now();
        void deps.queue.setProgress(MEDIA_QUEUE, id, percent).catch(() => undefined);
      };
      const row =
        (await deps.results.find(key)) ?? (await run(data as JobData<string>, signal, who, locals.get(key), progress));
      settled.emit(id, { row } satisfies Outcome);
      return { stored: row.key };
    } catch (err) {
      // Cancelled (nobody waits) or this node stopping: the queue retries what is still wanted.
      if (signal.aborted) throw err;
      // One rule for every kind (jobs/retry-rule.ts); how many tries the kind gets is its own.
      if (isTransient(err) && willRetry) throw err;
      const e = toAppError(err, kind);
      settled.emit(id, { err: e } satisfies Outcome);
      // Ended, not failed: a final answer is never retried; waiters on any node read it here.
      return { error: { code: e.code, params: e.params, extra: e.extra, headers: e.headers } };
    }
  }

  /** The open job of the key, or a new one when the line has room; one admission at a time here. */
  function submit(req: MediaJobRequest, keep: boolean): Promise<string> {
    const kind = declared(req.kind);
    if (!kind) return Promise.reject(new Error(`job catalogue: undeclared media job kind ${req.kind}`));
    const owner = req.who?.owner ?? '';
    const turn = admission.then(async () => {
      const open = await deps.queue.openJob(MEDIA_QUEUE, req.key);
      if (open) {
        // One more requester: they may follow the job (GET /api/media-jobs/:id), and keep it.
        await deps.queue.join(MEDIA_QUEUE, open, { asker: owner, keep });
        return open;
      }
      const counts = await deps.queue.openCounts(MEDIA_QUEUE, owner);
      if (counts.open >= deps.concurrency + deps.maxQueue || (owner && counts.owners >= deps.concurrency + ownerShare))
        throw busy();
      const plan = req.who?.priority ?? 0;
      const data = {
        ...req.data,
        kind: req.kind,
        key: req.key,
        owner,
        priority: plan,
        keep,
        askers: owner ? [owner] : [],
      };
      const id = await deps.queue.send(MEDIA_QUEUE, data, {
        priority: plan * 1000 + Math.max(0, 999 - counts.owners),
        singletonKey: req.key,
        retries: req.retry === false ? 0 : kind.retry.retries,
        backoffSeconds: kind.retry.backoffSeconds,
        timeoutSeconds: kind.timeoutSeconds(limits),
      });
      // Null: another node queued the key's job a moment ago.
      return id ?? (await deps.queue.openJob(MEDIA_QUEUE, req.key)) ?? Promise.reject(busy());
    });
    admission = turn.catch(() => undefined);
    return turn;
  }

  /** Resolves on this node's news of the job, after `ms`, or when the request leaves. */
  function news(id: string, ms: number, signal?: AbortSignal): Promise<Outcome | null> {
    return new Promise((resolve) => {
      const done = (o: Outcome | null) => {
        clearTimeout(timer);
        settled.off(id, done);
        signal?.removeEventListener('abort', leave);
        resolve(o);
      };
      const leave = () => done(null);
      const timer = setTimeout(done, ms, null);
      settled.once(id, done);
      signal?.addEventListener('abort', leave, { once: true });
    });
  }

  /** The job's result; null when `limitMs` passed first. `ref.id` follows a job started again. */
  async function outcome(
    ref: { id: string },
    req: MediaJobRequest,
    signal: AbortSignal | undefined,
    limitMs: number,
  ): Promise<MediaResult | null> {
    const deadline = Date.now() + limitMs;
    for (let pause = 25; ; pause = Math.min(pause * 2, POLL_MAX_MS)) {
      if (signal?.aborted) throw aborted();
      const s = await deps.queue.status(MEDIA_QUEUE, ref.id);
      if (s?.state === 'failed') throw errorFrom(s.output);
      if (s?.state === 'completed' || !s) {
        if (s?.output?.error) throw errorFrom(s.output);
        const row = await deps.results.find(req.key);
        if (row) return row;
        if (s) throw fail('media.store_unavailable');
      }
      // Cancelled when everyone waiting on another node left, or gone from the table: this request still waits.
      if (!s || s.state === 'cancelled') {
        ref.id = await submit(req, false);
        continue;
      }
      const left = deadline - Date.now();
      if (left <= 0) return null;
      const heard = await news(ref.id, Math.min(pause, left), signal);
      if (heard && 'row' in heard) return heard.row;
      if (heard) throw heard.err;
    }
  }

  const count = (key: string, d: number) => {
    const n = (waiting.get(key) ?? 0) + d;
    if (n > 0) waiting.set(key, n);
    else waiting.delete(key);
    return n;
  };

  function view(id: string, s: JobStatus | null): MediaJobView {
    if (!s) throw fail('media.job_not_found');
    if (s.state === 'created' || s.state === 'retry')
      return { id, state: 'queued', ...(s.position ? { position: s.position } : {}) };
    if (s.state === 'active') {
      const p = Number(s.data.progress);
      return { id, state: 'running', ...(Number.isFinite(p) && s.data.progress !== undefined ? { progress: p } : {}) };
    }
    if (s.state === 'completed' && !s.output?.error) return { id, state: 'done' };
    const e = s.state === 'cancelled' ? interrupted() : errorFrom(s.output);
    return {
      id,
      state: 'failed',
      error: { code: e.code, message: e.message, ...(e.params ? { params: e.params } : {}) },
    };
  }

  return {
    /** What runs a kind of job (the services register theirs); the kind must be in the catalogue. */
    register<K extends string>(kind: K, handler: MediaJobHandler<K>) {
      if (started && !declared(kind)) checkHandlers(MEDIA_QUEUE, [], [kind]);
      handlers.set(kind, handler as MediaJobHandler);
    },
    /**
     * Declares the queue (every node submits) and, on nodes that work jobs, runs them. Stops with
     * a clear line when a declared kind has no handler or a handler no declared kind.
     */
    async start(work: boolean) {
      checkHandlers(MEDIA_QUEUE, Object.keys(kinds), [...handlers.keys()]);
      started = true;
      await deps.queue.define(queue);
      if (work) await deps.queue.work(queue, ({ id, data, signal, willRetry }) => handle(id, data, signal, willRetry));
    },
    /** Requests on this node waiting for the result of `key`. */
    waiting: (key: string) => waiting.get(key) ?? 0,

    /**
     * The stored result of `req.key`, made by a job if it is not kept yet. `respondAsync`: after a
     * moment answer where the job stands instead (it goes on without anyone connected).
     */
    async run<K extends string>(
      req: MediaJobRequest<K>,
      signal?: AbortSignal,
      opts: { respondAsync?: boolean; local?: unknown } = {},
    ): Promise<MediaResult | PendingJob> {
      const stored = await deps.results.find(req.key);
      if (stored) return stored;
      if (signal?.aborted) throw aborted();
      if (opts.local !== undefined && !locals.has(req.key)) locals.set(req.key, opts.local);
      let ref: { id: string };
      try {
        ref = { id: await submit(req, !!opts.respondAsync) };
      } catch (err) {
        if (!waiting.has(req.key)) locals.delete(req.key);
        throw err;
      }
      count(req.key, 1);
      try {
        const row = await outcome(ref, req, signal, opts.respondAsync ? ASYNC_AFTER_MS : deps.waitMs);
        if (row) return row;
        if (!opts.respondAsync) {
          await deps.queue.keep(MEDIA_QUEUE, ref.id); // told to come back: the work goes on
          throw busy();
        }
        return view(ref.id, await deps.queue.status(MEDIA_QUEUE, ref.id, { position: true })) as PendingJob;
      } finally {
        // The last request on this node left: stop the work, unless someone comes back for it.
        const left = count(req.key, -1);
        if (left === 0) locals.delete(req.key);
        if (left === 0 && signal?.aborted)
          await deps.queue.cancelUnlessKept(MEDIA_QUEUE, ref.id).catch(() => undefined);
      }
    },

    /** Stops an open job of `owner`, kept or not: the person who started it said stop (a render's Cancel). */
    async cancel(id: string, owner: string): Promise<MediaJobView> {
      const s = await deps.queue.status(MEDIA_QUEUE, id);
      if (!s || s.data.owner !== owner) throw fail('media.job_not_found');
      await deps.queue.cancel(MEDIA_QUEUE, id);
      return view(id, await deps.queue.status(MEDIA_QUEUE, id));
    },

    /**
     * Where a media job stands (GET /api/media-jobs/:id). With `asker`, only for those who asked
     * for it: to anyone else it is unknown (404), as an id that does not exist.
     */
    async status(id: string, asker?: string): Promise<MediaJobView> {
      const s = await deps.queue.status(MEDIA_QUEUE, id, { position: true });
      const askers = Array.isArray(s?.data.askers) ? (s.data.askers as unknown[]) : [];
      if (asker !== undefined && !askers.includes(asker)) throw fail('media.job_not_found');
      return view(id, s);
    },
  };
}
export type MediaJobs = ReturnType<typeof createMediaJobs>;
