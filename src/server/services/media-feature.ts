// Composition of the media features from configuration (called by context.ts): binaries, the
// media worker pool, the results store, the media jobs on the queue, the transcription engines and
// the audio and captions services.
import os from 'node:os';
import path from 'node:path';
import type { Config } from '../config.js';
import type { ScheduledTask } from './schedules.service.js';
import type { MediaResultsRepository } from '../db/repositories/media-results.repository.js';
import { locateFfmpeg, locateFfprobe } from '../adapters/media/binaries.js';
import { createMediaProcessor } from '../adapters/media/media-processor.js';
import { createLocalStore, createS3Store, type MediaStore } from '../adapters/storage/media-store.js';
import { createCaptionsEngine } from '../adapters/asr/captions-engine.js';
import { createOpenAiEngine } from '../adapters/asr/openai-engine.js';
import { createOfflineEngine } from '../adapters/asr/offline-engine.js';
import { createWhisperEngine } from '../adapters/asr/whisper-engine.js';
import { findModelFile, modelsDir } from '../adapters/asr/whisper-models.js';
import type { createHttpClient } from '../adapters/http/http-client.js';
import { createWhisperModelService, whisperAutoFetch } from './whisper-model.service.js';
import type { TranscriptionEngine } from '../adapters/asr/types.js';
import { createMediaResultsService } from './media-results.service.js';
import { createMediaJobs } from './media-jobs.service.js';
import type { JobQueue } from '../adapters/jobs/job-queue.js';
import type { Logger } from 'pino';
import { createAudioService } from './audio.service.js';
import { createTranscriptionService } from './transcription.service.js';
import type { MediaSource } from './media-source.js';

const CLEANUP_EVERY_MS = 15 * 60 * 1000;

export function createMediaStoreFromConfig(config: Config): MediaStore {
  // config.ts checked that the S3_* settings come all together or not at all.
  if (config.S3_ENDPOINT && config.S3_BUCKET && config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY) {
    return createS3Store({
      endpoint: config.S3_ENDPOINT,
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      hostMap: config.UPSTREAM_HOST_MAP, // the S3 fetch is guarded: this origin only (decision 0017)
    });
  }
  return createLocalStore(path.join(config.DATA_DIR, 'media'));
}

export function createMediaFeature(
  config: Config,
  deps: {
    repo: MediaResultsRepository;
    source: MediaSource;
    queue: JobQueue;
    logger: Logger;
    engines?: TranscriptionEngine[];
    /** The guarded HTTP client and the database's one-node lock: the Whisper model's fetch. */
    http: ReturnType<typeof createHttpClient>;
    oneNodeAtATime: <T>(work: () => Promise<T>) => Promise<T>;
  },
) {
  const ffmpeg = locateFfmpeg(config.FFMPEG_PATH);
  const ffprobe = locateFfprobe(config.FFPROBE_PATH);
  const concurrency = config.MEDIA_CONCURRENCY ?? Math.max(1, os.availableParallelism?.() ?? os.cpus().length);
  const media = createMediaProcessor({
    ffmpeg: ffmpeg.path,
    ffprobe: ffprobe.path,
    tmpRoot: path.join(config.DATA_DIR, 'tmp', 'media'),
    timeoutMs: config.MEDIA_TIMEOUT_SECONDS * 1000,
    maxInputBytes: config.MEDIA_MAX_INPUT_MB * 1024 * 1024,
    concurrency,
    maxQueue: config.MEDIA_QUEUE_LIMIT ?? concurrency * 4,
  });
  const store = createMediaStoreFromConfig(config);
  const results = createMediaResultsService({
    repo: deps.repo,
    store,
    secret: config.sessionSecret,
    ttlMs: config.MEDIA_RESULT_TTL_HOURS * 3_600_000,
    logger: deps.logger,
  });
  const jobs = createMediaJobs({
    queue: deps.queue,
    results,
    logger: deps.logger,
    concurrency,
    maxQueue: media.config.maxQueue ?? concurrency * 4,
    waitMs: config.MEDIA_WAIT_SECONDS * 1000,
    timeoutSeconds: config.MEDIA_TIMEOUT_SECONDS,
    slotsPerAccount: config.MEDIA_SLOTS_PER_ACCOUNT,
    longPollsPerAccount: config.LONG_POLLS_PER_ACCOUNT,
  });
  const whisperDir = modelsDir(config.DATA_DIR);
  const whisperModel = createWhisperModelService({
    http: deps.http,
    dir: whisperDir,
    model: config.WHISPER_MODEL,
    autoFetch: whisperAutoFetch(config),
    pins: config.WHISPER_MODEL_PINS,
    present: () => findModelFile(whisperDir, config.WHISPER_MODEL) !== null,
    oneNodeAtATime: deps.oneNodeAtATime,
    logger: deps.logger,
  });
  const engines = deps.engines ?? [
    createCaptionsEngine(),
    createOpenAiEngine(
      config.TRANSCRIBE_API_URL
        ? {
            url: config.TRANSCRIBE_API_URL,
            apiKey: config.TRANSCRIBE_API_KEY,
            model: config.TRANSCRIBE_MODEL,
            timeoutMs: config.MEDIA_TIMEOUT_SECONDS * 1000,
          }
        : null,
      (input, output, signal) => media.toUpload(input, output, signal),
    ),
    // With a model in DATA_DIR/models (fetched by the server, models:fetch or models:import),
    // whisper.cpp listens before pocketsphinx.
    createWhisperEngine({
      ffmpeg: ffmpeg.path,
      modelsDir: whisperDir,
      pending: () => {
        const st = whisperModel.status();
        if (st.state === 'preparing') return `the Whisper model ${st.model} is being fetched (${st.percent} %)`;
        if (st.state === 'unavailable') return `the Whisper model ${st.model} could not be fetched: ${st.reason}`;
        return null;
      },
      preferred: config.WHISPER_MODEL,
      threads: config.WHISPER_THREADS,
      timeoutMs: config.MEDIA_TIMEOUT_SECONDS * 1000,
    }),
    createOfflineEngine({
      ffmpeg: ffmpeg.path,
      modelDir: config.POCKETSPHINX_MODEL_DIR,
      timeoutMs: config.MEDIA_TIMEOUT_SECONDS * 1000,
    }),
  ];

  const cleanupTask: ScheduledTask = {
    name: 'media-results-cleanup',
    intervalMs: CLEANUP_EVERY_MS,
    run: () => results.cleanup(),
  };

  return {
    binaries: { ffmpeg, ffprobe },
    media,
    store,
    results,
    jobs,
    whisperModel,
    audio: createAudioService({ source: deps.source, media, results, jobs }),
    transcription: createTranscriptionService({
      source: deps.source,
      media,
      engines,
      results,
      jobs,
      logger: deps.logger,
      // A transcription asked for is the need that starts the model's fetch (again after a failure).
      prepare: () => void whisperModel.ensure(),
    }),
    cleanupTask,
  };
}
