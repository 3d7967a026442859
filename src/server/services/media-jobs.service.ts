// Media work on the job queue (issue 21, decision 0022): every media kind of jobs/catalogue.ts
// (audio, transcript, remux, images, slideshow, preview, studio-source, caption-render) is a job
// on the `media` queue, run by any node that works jobs
// (PROCESS_ROLE all|worker), MEDIA_CONCURRENCY at a time on each. A request submits the job of its
// result key, or joins the one already open, and waits for it: on the node that runs it the
// handler tells it at once, from any other node it polls the job. When the last request waiting
// on a node leaves, the job is cancelled, unless someone asked for it without waiting (a 202).
// Pro's jobs go before free users'; among equals, the owner with fewer open jobs goes first. The
// kinds, their retry rules and time limits are declared in jobs/catalogue.ts (issue 30).
import { EventEmitter } from 'node:events';
import type { GrowingFile } from '../adapters/media/growing-file.js';
import type { QueueDefinition } from '../adapters/jobs/job-queue.js';
import type { MediaResult } from '../db/repositories/media-results.repository.js';
import { mediaJobToken, type MediaJobView } from '../../shared/contracts/media-jobs.js';
import { AppError, fail, infrastructureError } from '../errors.js';
import { checkHandlers, JOB_CATALOGUE, type JobKind, kindsOn, type MediaJobName } from '../jobs/catalogue.js';
import { type Attempt, underRetryRule } from '../jobs/retry-rule.js';
import { lineKey } from '../adapters/jobs/job-news.js';
import { createLongPolls, SAFETY_RECHECK_MS } from './media-jobs.long-poll.js';
import { createJobViews, errorFrom, interrupted } from './media-job-views.js';
import type {
  MediaPayloads,
  PayloadMap,
  MediaJobRequest,
  LiveResult,
  MediaJobHandler,
  PendingJob,
  RunOptions,
  MediaJobsDeps,
  StatusWait,
} from './media-jobs.types.js';
export type {
  StoredPart,
  MediaPayloads,
  MediaJobRequest,
  MediaJobContext,
  LiveResult,
  MediaJobHandler,
  PendingJob,
  RunOptions,
  MediaJobsDeps,
  StatusWait,
} from './media-jobs.types.js';

export const MEDIA_QUEUE = 'media';
/** A request that asked not to wait (Prefer: respond-async) still gets a result this fast one at once. */
const ASYNC_AFTER_MS = 1500;
const POLL_MAX_MS = 1000;

type Outcome = { row: MediaResult } | { err: AppError } | { live: GrowingFile };

const MAX_STATUS_WAIT_MS = 25_000;
/** Long polls one account may hold at once on a node (LONG_POLLS_PER_ACCOUNT). */
export const LONG_POLLS_PER_ACCOUNT = 8;
/** An account's share of a node's MEDIA_CONCURRENCY slots (MEDIA_SLOTS_PER_ACCOUNT): half, at least one. */
export const slotsPerAccount = (concurrency: number) => Math.max(1, Math.ceil(concurrency / 2));

const busy = () => fail('media.busy');
const aborted = () => fail('request.aborted');

/**
 * The media queue's dispatcher, typed by the catalogue's media kinds (`P`): `register` and `run`
 * take a declared kind and its payload only. Tests that declare made-up kinds use
 * `MediaJobsOf<their payloads>` over the same object.
 */
export function createMediaJobs<P extends PayloadMap = MediaPayloads>(deps: MediaJobsDeps) {
  type Kind = keyof P & string;
  const kinds: Record<string, JobKind> = Object.fromEntries(
    kindsOn(MEDIA_QUEUE).map((k) => [k, JOB_CATALOGUE[k as MediaJobName]]),
  );
  // Kinds declared beyond the catalogue before the start (declare below); their handlers may come later.
  const beyond: Record<string, JobKind> = {};
  const declared = (kind: string): JobKind | undefined => kinds[kind] ?? beyond[kind];
  const limits = { media: deps.timeoutSeconds, batchItem: deps.timeoutSeconds };
  // Every job carries its kind's retry rule and time limit (send below); the queue's are a fallback.
  const queue: QueueDefinition = {
    name: MEDIA_QUEUE,
    policy: 'stately',
    cancellable: true,
    concurrency: deps.concurrency,
    // One account runs at most its share of this node's slots; its other jobs wait without holding one.
    ownerShare: deps.slotsPerAccount ?? slotsPerAccount(deps.concurrency),
    retryLimit: 0,
    expireInSeconds: Math.max(...Object.values(kinds).map((k) => k.timeoutSeconds(limits))),
  };
  let started = false;
  const ownerShare = Math.max(1, Math.ceil(deps.maxQueue / 2));
  const handlers = new Map<string, MediaJobHandler<never>>();
  const settled = new EventEmitter().setMaxListeners(0);
  const waiting = new Map<string, number>();
  /** Per key, what the requests waiting here looked up (handed to the job if it runs here). */
  const locals = new Map<string, unknown>();
  /** Per key, the result a job on this node is making now (readable while it grows). */
  const lives = new Map<string, GrowingFile>();
  let admission: Promise<unknown> = Promise.resolve();
  const { resultOf, describe, view } = createJobViews(deps.results);
  const polls = createLongPolls({ queue: deps.queue, perAccount: deps.longPollsPerAccount ?? LONG_POLLS_PER_ACCOUNT });

  function toAppError(err: unknown, kind: string): AppError {
    if (err instanceof AppError) return err;
    const ours = infrastructureError(err);
    if (ours) return ours;
    deps.logger.error({ err, kind }, 'media job failed');
    return fail('internal');
  }

  /** The job's own fields beside its kind's payload (send below). */
  type Envelope = { kind: string; key: string; owner: string; keep: boolean; askers: string[] };

  /** One attempt of a media job; the retry rule decides what a failure means (jobs/retry-rule.ts). */
  function handle(id: string, data: Envelope, attempt: Attempt) {
    const { kind, key } = data;
    const run = handlers.get(kind) as MediaJobHandler<Envelope> | undefined;
    const produce = async (): Promise<{ stored: string } | { error: unknown }> => {
      if (!run) throw interrupted(); // a node of another release; it is not this request's fault
      // A second job of the key (queued while the first ran) finds the first one's result.
      // Progress is written at most once a second: it is a database update.
      let last = 0;
      const progress = (percent: number) => {
        if (Date.now() - last < 1000) return;
        last = Date.now();
        void deps.queue.setProgress(MEDIA_QUEUE, id, percent).catch(() => undefined);
      };
      const live = (output: GrowingFile) => {
        lives.set(key, output);
        settled.emit(id, { live: output } satisfies Outcome);
      };
      const row =
        (await deps.results.find(key)) ??
        (await run(data, { id, key, signal: attempt.signal, local: locals.get(key), progress, live }).finally(() => {
          lives.get(key)?.release();
          lives.delete(key);
        }));
      settled.emit(id, { row } satisfies Outcome);
      return { stored: row.key };
    };
    return underRetryRule(attempt, produce, {
      ended: (err) => {
        const e = toAppError(err, kind);
        settled.emit(id, { err: e } satisfies Outcome);
        // Ended, not failed: a final answer is never retried; waiters on any node read it here.
        return { error: { code: e.code, params: e.params, extra: e.extra, headers: e.headers } };
      },
    });
  }

  /** The open job of the key, or a new one when the line has room; one admission at a time here. */
  function submit(req: MediaJobRequest<P, Kind>, keep: boolean): Promise<string> {
    const kind = declared(req.kind);
    if (!kind) return Promise.reject(new Error(`job catalogue: undeclared media job kind ${req.kind}`));
    const owner = req.owner?.owner ?? '';
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
      const data = { ...req.data, kind: req.kind, key: req.key, owner, keep, askers: owner ? [owner] : [] };
      // Retry rule, time limit and place in line: the kind's, from the catalogue only.
      const id = await deps.queue.send(MEDIA_QUEUE, data satisfies Envelope, {
        priority: kind.priority({ plan: req.owner?.plan ?? 0, ownerOpen: counts.owners }),
        singletonKey: req.key,
        retries: kind.retry.retries,
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
        off();
        signal?.removeEventListener('abort', leave);
        resolve(o);
      };
      const leave = () => done(null);
      const timer = setTimeout(done, ms, null);
      settled.once(id, done);
      // The queue's news of the job (from any node): look again now.
      const off = deps.queue.onNews(id, leave);
      signal?.addEventListener('abort', leave, { once: true });
    });
  }

  /**
   * The job's result; null when `limitMs` passed first. `ref.id` follows a job started again.
   * `live`: the result while a job on this node makes it, as soon as it has a first byte.
   */
  async function outcome(
    ref: { id: string },
    req: MediaJobRequest<P, Kind>,
    signal: AbortSignal | undefined,
    limitMs: number,
    live = false,
  ): Promise<MediaResult | LiveResult | null> {
    const deadline = Date.now() + limitMs;
    for (let pause = 25; ; pause = Math.min(pause * 2, POLL_MAX_MS)) {
      if (signal?.aborted) throw aborted();
      // Opened here, in the same turn as the lookup, while the job still holds the file.
      const growing = live ? lives.get(req.key) : undefined;
      if (growing) return { live: growing.reader(), expectedBytes: growing.expectedBytes };
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
      if (heard && 'live' in heard) continue; // taken at the top when this request accepts it
      if (heard) throw heard.err;
    }
  }

  const count = (key: string, d: number) => {
    const n = (waiting.get(key) ?? 0) + d;
    if (n > 0) waiting.set(key, n);
    else waiting.delete(key);
    return n;
  };

  /**
   * The stored result of `req.key`, made by a job if it is not kept yet. `respondAsync`: after a
   * moment answer where the job stands instead (it goes on without anyone connected).
   */
  function run<K extends Kind>(
    req: MediaJobRequest<P, K>,
    signal?: AbortSignal,
    opts?: RunOptions & { respondAsync?: false },
  ): Promise<MediaResult>;
  function run<K extends Kind>(
    req: MediaJobRequest<P, K>,
    signal: AbortSignal | undefined,
    opts: RunOptions,
  ): Promise<MediaResult | PendingJob>;
  async function run(
    req: MediaJobRequest<P, Kind>,
    signal?: AbortSignal,
    opts: RunOptions = {},
  ): Promise<MediaResult | PendingJob | LiveResult> {
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
    let reading = false;
    const leave = async () => {
      // The last request on this node left: stop the work, unless someone comes back for it.
      const left = count(req.key, -1);
      if (left === 0) locals.delete(req.key);
      if (left === 0 && signal?.aborted) await deps.queue.cancelUnlessKept(MEDIA_QUEUE, ref.id).catch(() => undefined);
    };
    try {
      const row = await outcome(ref, req, signal, opts.respondAsync ? ASYNC_AFTER_MS : deps.waitMs, opts.live);
      if (row && 'live' in row) {
        // Still waiting while it reads: a person who leaves mid-file stops the job like before.
        reading = true;
        row.live.once('close', () => void leave());
        return row;
      }
      if (row) return row;
      if (!opts.respondAsync) {
        await deps.queue.keep(MEDIA_QUEUE, ref.id); // told to come back: the work goes on
        throw busy();
      }
      return view(ref.id, await deps.queue.status(MEDIA_QUEUE, ref.id, { position: true })) as PendingJob;
    } finally {
      if (!reading) await leave();
    }
  }

  return {
    describe,
    /** What runs a kind of job (the services register theirs); the kind must be in the catalogue. */
    register<K extends Kind>(kind: K, handler: MediaJobHandler<P[K]>) {
      if (started && !declared(kind)) checkHandlers(MEDIA_QUEUE, [], [kind]);
      handlers.set(kind, handler as MediaJobHandler<never>);
    },
    /**
     * Declares the queue (every node submits) and, on nodes that work jobs, runs them. Stops with
     * a clear line when a declared kind has no handler or a handler no declared kind.
     */
    /**
     * Declares kinds beyond the catalogue, each with a catalogue kind's rules (how the test suites
     * run made-up kinds through the real queue); before the start only, their handlers at any time.
     */
    declare(extra: Record<string, JobKind>) {
      if (started) throw new Error('media jobs: declare() comes before the start');
      Object.assign(beyond, extra);
    },
    async start(work: boolean) {
      // Tests' made-up kinds may get their handlers before or after this (the start is deferred, 0075).
      checkHandlers(
        MEDIA_QUEUE,
        Object.keys(kinds),
        [...handlers.keys()].filter((k) => !beyond[k]),
      );
      started = true;
      await deps.queue.define(queue);
      if (work)
        await deps.queue.work(queue, ({ id, data, signal, willRetry }) =>
          handle(id, data as Envelope, { signal, willRetry }),
        );
    },
    /** Requests on this node waiting for the result of `key`. */
    waiting: (key: string) => waiting.get(key) ?? 0,

    run: run as typeof run,
    /**
     * As run, but while a job on this node makes the result, its bytes as they are written
     * (a LiveResult) instead of waiting for the stored file.
     */
    runLive: <K extends Kind>(req: MediaJobRequest<P, K>, signal?: AbortSignal, local?: unknown) =>
      run(req, signal, { local, live: true }) as unknown as Promise<MediaResult | LiveResult>,
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
    async status(id: string, asker?: string, wait?: StatusWait): Promise<MediaJobView> {
      const deadline = Date.now() + Math.min(wait?.ms ?? 0, MAX_STATUS_WAIT_MS);
      const account = asker ?? '';
      let holding = false;
      try {
        for (;;) {
          const s = await deps.queue.status(MEDIA_QUEUE, id, { position: true });
          const askers = Array.isArray(s?.data.askers) ? (s.data.askers as unknown[]) : [];
          if (asker !== undefined && !askers.includes(asker)) throw fail('media.job_not_found');
          const v = view(id, s);
          // Waiting (a long poll): until the job moved on from what the asker saw, ended, or time ran out.
          const left = deadline - Date.now();
          if (
            v.state === 'done' ||
            v.state === 'failed' ||
            left <= 0 ||
            wait?.signal?.aborted ||
            mediaJobToken(v) !== wait?.seen
          )
            return v.state === 'done' ? { ...v, ...(await resultOf(s)) } : v;
          // Beyond the account's long polls: where it stands, at once (the client then polls gently).
          if (!holding) {
            if (!polls.take(account)) return v;
            holding = true;
          }
          // Read again on news of the job (a queued one: of the line moving too), or after a while.
          const keys = v.state === 'queued' ? [id, lineKey(MEDIA_QUEUE)] : [id];
          await polls.change(keys, Math.min(SAFETY_RECHECK_MS, left), wait?.signal);
        }
      } finally {
        if (holding) polls.give(account);
      }
    },
    /** Long polls held on this node now (all accounts). */
    longPolls: () => polls.held(),
  };
}
/** The media dispatcher over a payload map (tests: their made-up kinds). */
export type MediaJobsOf<P extends PayloadMap> = ReturnType<typeof createMediaJobs<P>>;
export type MediaJobs = MediaJobsOf<MediaPayloads>;
