// One media job, declared once (issue 35): the kind, the key of the result it stores, how a node
// with no request waiting finds the job's source, and how the file is made. The rest is the same
// for every kind and lives here: the stored result comes back without a job, the request's own
// lookup goes to the job when it runs on this node, the work runs in a media pool slot with a fresh
// temporary directory, and the file is stored under the key with the kind's name.
import type { MediaProcessor } from '../adapters/media/media-processor.js';
import type { MediaResult } from '../db/repositories/media-results.repository.js';
import type { JobOwner, MediaJobName } from '../jobs/catalogue.js';
import type { GrowingFile } from '../adapters/media/growing-file.js';
import type { LiveResult, MediaJobs, MediaPayloads, PendingJob } from './media-jobs.service.js';
import type { MediaResultsService } from './media-results.service.js';

type SaveInput = Parameters<MediaResultsService['save']>[0];

export interface MediaJobWork<N extends MediaJobName, S> {
  data: MediaPayloads[N];
  /** The request's lookup (on its node) or `load`'s (elsewhere). */
  source: S;
  /** A fresh temporary directory, removed after the job. */
  dir: string;
  signal: AbortSignal;
  progress: (percent: number) => void;
  /** Hands the file over while it is being made, to requests on this node that read it live. */
  live: (output: GrowingFile) => void;
  /** Stores `file` under the job's key; the result's kind is the job's unless given. */
  save: (result: Omit<SaveInput, 'key' | 'kind'> & { kind?: string }) => Promise<MediaResult>;
}

export interface MediaJobSpec<N extends MediaJobName, S> {
  kind: N;
  /** The key of the result (one job, one stored file per key). */
  key: (data: MediaPayloads[N], source: S) => string;
  /** The job's source on a node where no request handed its own: a lookup. */
  load: (data: MediaPayloads[N], signal: AbortSignal) => Promise<S>;
  /** Makes the file in a media pool slot and stores it with `save`. */
  produce: (work: MediaJobWork<N, S>) => Promise<MediaResult>;
}

export interface MediaJobAsk<N extends MediaJobName, S> {
  data: MediaPayloads[N];
  /** What the request looked up already (the job reuses it on this node). */
  source: S;
  owner?: JobOwner;
}

export function defineMediaJob<N extends MediaJobName, S>(
  deps: { jobs: MediaJobs; media: MediaProcessor; results: MediaResultsService },
  spec: MediaJobSpec<N, S>,
) {
  deps.jobs.register(spec.kind, async (data, job) => {
    const source = (job.local as S | undefined) ?? (await spec.load(data, job.signal));
    const save: MediaJobWork<N, S>['save'] = (result) =>
      deps.results.save({ kind: spec.kind, ...result, key: job.key });
    return deps.media.job(job.signal, (dir) =>
      spec.produce({ data, source, dir, signal: job.signal, progress: job.progress, live: job.live, save }),
    );
  });

  function run(ask: MediaJobAsk<N, S>, signal?: AbortSignal, opts?: { respondAsync?: false }): Promise<MediaResult>;
  function run(
    ask: MediaJobAsk<N, S>,
    signal: AbortSignal | undefined,
    opts: { respondAsync?: boolean },
  ): Promise<MediaResult | PendingJob>;
  function run(ask: MediaJobAsk<N, S>, signal?: AbortSignal, opts: { respondAsync?: boolean } = {}) {
    const req = { kind: spec.kind, key: spec.key(ask.data, ask.source), data: ask.data, owner: ask.owner };
    return deps.jobs.run(req, signal, { respondAsync: opts.respondAsync, local: ask.source });
  }
  /** As run, but the file while a job on this node makes it, as it grows (MediaJobs.runLive). */
  function runLive(ask: MediaJobAsk<N, S>, signal?: AbortSignal): Promise<MediaResult | LiveResult> {
    const req = { kind: spec.kind, key: spec.key(ask.data, ask.source), data: ask.data, owner: ask.owner };
    return deps.jobs.runLive(req, signal, ask.source);
  }
  return {
    /** The stored result, made by the job if it is not kept yet; `respondAsync` as MediaJobs.run. */
    run,
    runLive,
    /** The key a request for `data` from `source` is stored under. */
    key: spec.key,
  };
}
