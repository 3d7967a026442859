// The media queue's types (issue 21, 38): what a request asks, what a handler is told, how a
// request waits; the dispatcher itself is media-jobs.service.ts.
import type { Readable } from 'node:stream';
import type { Logger } from 'pino';
import type { GrowingFile } from '../adapters/media/growing-file.js';
import type { JobQueue } from '../adapters/jobs/job-queue.js';
import type { MediaResult } from '../db/repositories/media-results.repository.js';
import type { MediaJobView } from '../../shared/contracts/media-jobs.js';
import type { JobOwner, JobPayloads, MediaJobName } from '../jobs/catalogue.js';
import type { MediaResultsService } from './media-results.service.js';

/** The media kinds and their payloads (jobs/catalogue.ts); tests declare made-up kinds on top. */
export type MediaPayloads = Pick<JobPayloads, MediaJobName>;
export type PayloadMap = { [kind: string]: object };

export interface MediaJobRequest<P extends PayloadMap, K extends keyof P & string> {
  /** The kind, declared in jobs/catalogue.ts. */
  kind: K;
  /** The media result it stores (one job per key). */
  key: string;
  /** What the handler needs on any node: the kind's payload (plain JSON). */
  data: P[K];
  /** Who asks (their place in line, and who may follow the job); none: the anonymous owner. */
  owner?: JobOwner;
}
/** What a handler is told besides its payload. */
export interface MediaJobContext {
  id: string;
  /** The media result it stores. */
  key: string;
  signal: AbortSignal;
  /**
   * What a request waiting on this node handed over (its lookup of the video), so the job does not
   * look the video up again; undefined on another node, which looks it up itself.
   */
  local: unknown;
  /** Where the work stands, 0..100 (a caption render reports ffmpeg's); shown by status(). */
  progress: (percent: number) => void;
  /**
   * The result as it is being made (issue 38): requests on this node that accept it (`runLive`)
   * read it while it grows instead of waiting for the stored file.
   */
  live: (output: GrowingFile) => void;
}
/** A result still being made, read as it grows (runLive); `done` settles when the reader is finished. */
export interface LiveResult {
  live: Readable;
  /** The expected size of the whole file (for progress; the exact size is unknown until the end). */
  expectedBytes: number | null;
}
export type MediaJobHandler<T> = (data: T, job: MediaJobContext) => Promise<MediaResult>;
export type PendingJob = MediaJobView & { state: 'queued' | 'running' };
export interface RunOptions {
  /** Answer where the job stands after a moment instead of waiting (Prefer: respond-async). */
  respondAsync?: boolean;
  /** The request's lookup, handed to the job if it runs on this node. */
  local?: unknown;
  /** Accept the result while a job on this node makes it (runLive). */
  live?: boolean;
}

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
  /** MEDIA_SLOTS_PER_ACCOUNT: one account's running jobs on this node at most (default: half the slots, at least one). */
  slotsPerAccount?: number;
  /** LONG_POLLS_PER_ACCOUNT: status long polls one account holds at once on this node (default 8). */
  longPollsPerAccount?: number;
}

/** A long poll of a job's status: answer once it differs from `seen` (viewToken), within `ms`. */
export interface StatusWait {
  ms: number;
  seen?: string;
  signal?: AbortSignal;
}

/** A result made of several files keeps, in its meta, each part's files by their own result keys. */
export interface StoredPart {
  name: string;
  files: Array<{ name: string; key: string }>;
  error?: { code: string; message: string };
}
