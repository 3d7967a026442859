// The server's own Whisper model (issue 46): fetched from its official host in the background at
// start and again on need after a failure, pinned, resumed when cut, once among nodes (a lock held
// while one node fetches; nodes sharing DATA_DIR then find the file), and told to the studio as a
// state: ready, preparing (with its percent), unavailable (with the reason) or off
// (WHISPER_AUTO_FETCH=off: no request at all). Until it is ready the built-in recogniser runs.
// Not a queue job: every node needs the file on its own disk, web nodes included (decision 0130).
import path from 'node:path';
import type { WhisperModelStatus } from '../../shared/contracts/caption-studio.js';
import type { createHttpClient } from '../adapters/http/http-client.js';
import { HttpClientError } from '../adapters/http/http-errors.js';
import { ModelDownloadError, catalogueModel, downloadModel, pinOf, sizeOf } from '../adapters/asr/model-download.js';
import { MODEL_HOST_ALLOW, type WhisperModelPin, modelFileName } from '../adapters/asr/whisper-models.js';

/** The model fetched when WHISPER_MODEL does not name one (README 'Whisper captions', docs/benchmarks.md). */
export const DEFAULT_WHISPER_MODEL = 'base.en';
/** WHISPER_AUTO_FETCH: on unless set off, except under NODE_ENV=test (tests opt in with a stand-in host). */
export const whisperAutoFetch = (env: { WHISPER_AUTO_FETCH?: 'on' | 'off'; NODE_ENV: string }) =>
  (env.WHISPER_AUTO_FETCH ?? (env.NODE_ENV === 'test' ? 'off' : 'on')) === 'on';

/** After a failed fetch, the next need tries again once this long has passed. */
const RETRY_AFTER_MS = 10 * 60_000;

export interface WhisperModelDeps {
  http: ReturnType<typeof createHttpClient>;
  /** DATA_DIR/models */
  dir: string;
  /** WHISPER_MODEL, else the default. */
  model?: string;
  /** WHISPER_AUTO_FETCH (off: this service never makes a request). */
  autoFetch: boolean;
  pins?: Record<string, WhisperModelPin>;
  /** Whether the Whisper engine has a usable model file (any catalogue model, or one put there by hand). */
  present: () => boolean;
  /** Runs `work` while no other node on the same database runs it (Database.oneNodeAtATime). */
  oneNodeAtATime: <T>(work: () => Promise<T>) => Promise<T>;
  logger: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  retryAfterMs?: number;
}

/** Why the host could not be had, in words the studio can show. */
function reasonOf(err: unknown): string {
  const host = MODEL_HOST_ALLOW[0];
  if (err instanceof HttpClientError) {
    if (err.kind === 'timeout') return `the model host (${host}) took too long to answer`;
    if (err.kind === 'blocked') return `the model host (${host}) is not reachable from this server's network`;
    return `this server cannot reach the model host (${host})`;
  }
  if (err instanceof ModelDownloadError) {
    if (err.kind === 'checksum' || err.kind === 'unusable')
      return 'the downloaded file was not the published model (its checksum did not match) and was removed';
    if (err.kind === 'mismatch') return "a different file is in the model's place; the administrator must remove it";
    if (err.kind === 'unreachable') return `this server cannot reach the model host (${host})`;
    return `the download from the model host (${host}) was cut; it resumes where it stopped on the next try`;
  }
  return `the model could not be fetched (${err instanceof Error ? err.message : String(err)})`;
}

export function createWhisperModelService(deps: WhisperModelDeps) {
  const wanted = deps.model ?? DEFAULT_WHISPER_MODEL;
  const model = catalogueModel(wanted);
  const retryAfter = deps.retryAfterMs ?? RETRY_AFTER_MS;
  let running: Promise<void> | null = null;
  let failure: { reason: string; at: number } | null = null;

  const percent = () => {
    if (!model) return 0;
    const total = pinOf(model, deps.pins).bytes;
    // The .part file on disk: this node's download, or another node's in a shared DATA_DIR.
    return Math.min(99, Math.floor((sizeOf(path.join(deps.dir, `${modelFileName(model.name)}.part`)) / total) * 100));
  };

  async function fetchOnce(): Promise<void> {
    if (!model) return;
    await deps.oneNodeAtATime(async () => {
      // Another node may have fetched it into a shared DATA_DIR while this one waited.
      if (deps.present()) return;
      const t0 = Date.now();
      const { already } = await downloadModel(model, { http: deps.http, dir: deps.dir, pins: deps.pins });
      if (!already)
        deps.logger.info({ model: model.name, ms: Date.now() - t0 }, 'whisper model fetched; captions use it now');
    });
  }

  return {
    /** The model this server fetches (WHISPER_MODEL, else base.en). */
    model: wanted,

    /** Starts the fetch when it is needed and allowed; never throws, never waits. */
    ensure(): Promise<void> {
      if (running) return running;
      if (!deps.autoFetch || !model || deps.present()) return Promise.resolve();
      if (failure && Date.now() - failure.at < retryAfter) return Promise.resolve();
      failure = null;
      running = fetchOnce()
        .catch((err: unknown) => {
          failure = { reason: reasonOf(err), at: Date.now() };
          deps.logger.warn(
            { model: model.name, err: err instanceof Error ? err.message : String(err) },
            `whisper model not fetched: ${failure.reason}; the built-in recogniser writes captions meanwhile`,
          );
        })
        .finally(() => {
          running = null;
        });
      return running;
    },

    status(): WhisperModelStatus {
      if (deps.present()) return { state: 'ready', model: wanted };
      if (!model)
        return {
          state: 'unavailable',
          model: wanted,
          reason: `WHISPER_MODEL names ${wanted}, which is not on the model host; put its file in the models folder`,
        };
      if (!deps.autoFetch) return { state: 'off', model: wanted };
      if (failure && !running) return { state: 'unavailable', model: wanted, reason: failure.reason };
      return { state: 'preparing', model: wanted, percent: percent() };
    },
  };
}
export type WhisperModelService = ReturnType<typeof createWhisperModelService>;
