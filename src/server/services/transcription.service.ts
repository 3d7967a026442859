// Auto captions: engines tried in order (the video's own captions, a transcription API, offline
// pocketsphinx); the first with a result wins. Segments come back ordered, non-overlapping and
// inside the media's duration, with the engine that made them.
import fs from 'node:fs/promises';
import path from 'node:path';
import { normalizeSegments } from '../../shared/captions.js';
import type { TranscriptionResult } from '../../shared/contracts/transcription.js';
import { AppError, fail } from '../errors.js';
import type { TranscriptionEngine, TranscriptionInput } from '../adapters/asr/types.js';
import type { MediaProcessor } from '../adapters/media/media-processor.js';
import type { JobOwner } from '../adapters/media/worker-pool.js';
import type { MediaSource, MediaVideoInfo } from './media-source.js';
import type { MediaResult } from '../db/repositories/media-results.repository.js';
import { mediaKeyId } from '../platforms/platform.js';
import { unsupportedLink } from '../platforms/errors.js';
import type { MediaResultsService } from './media-results.service.js';
import type { MediaJobs, PendingJob } from './media-jobs.service.js';

export interface TranscriptionServiceDeps {
  source: MediaSource;
  media: MediaProcessor;
  engines: TranscriptionEngine[];
  /** Stores listened transcripts (minutes of CPU) so a second request for a video is instant. */
  results: MediaResultsService;
  /** Listening runs as a media job on any worker node. */
  jobs: MediaJobs;
  /** Where setup instructions go: the operator's log, never the creator's screen. */
  logger?: { warn(obj: object, msg: string): void };
}

export function createTranscriptionService(deps: TranscriptionServiceDeps) {
  const setupHints = () =>
    deps.engines
      .filter((e) => e.id !== 'captions')
      .map((e) => e.unavailableReason())
      .filter((h): h is string => !!h);
  const unavailable = () => {
    deps.logger?.warn(
      { setup: setupHints() },
      `auto captions: no speech recogniser is available; to enable one, ${setupHints().join(', or ')}`,
    );
    return fail('transcription.unavailable');
  };

  const finish = (
    info: MediaVideoInfo,
    engine: TranscriptionEngine,
    language: string,
    cues: Parameters<typeof normalizeSegments>[0],
    duration: number,
  ): TranscriptionResult => {
    const segments = normalizeSegments(cues, duration);
    if (!segments.length) throw fail('transcription.no_speech');
    return {
      title: info.title,
      author: info.author,
      fullText: segments.map((s) => s.text).join(' '),
      duration: Math.round((duration || segments[segments.length - 1].end) * 100) / 100,
      language,
      segments,
      engine: engine.id,
    };
  };
  const inputOf = (
    _url: string,
    info: MediaVideoInfo,
    signal?: AbortSignal,
  ): Omit<TranscriptionInput, 'mediaFile' | 'workDir' | 'duration'> => ({
    subtitles: info.subtitles,
    fetchText: (u, s) => deps.source.fetchText(u, info, s),
    signal,
  });
  const listenersHere = () => deps.engines.filter((e) => e.id !== 'captions' && e.unavailableReason() === null);

  /** The listening job: the sound downloaded once, engines in order, the transcript kept as JSON. */
  async function listen(
    url: string,
    info: MediaVideoInfo,
    key: string,
    signal: AbortSignal,
    who: JobOwner,
  ): Promise<MediaResult> {
    const listeners = listenersHere();
    if (!listeners.length) throw unavailable();
    const base = inputOf(url, info, signal);
    const result = await deps.media.job(
      signal,
      async (dir) => {
        let file: Promise<string> | null = null;
        let duration = info.duration;
        const mediaFile = () =>
          (file ??= (async () => {
            const opened = await deps.source.openAudioSource(url, info, signal);
            const input = path.join(dir, 'input.media');
            await deps.media.download(opened.stream, input, { expectedBytes: opened.length, signal });
            const probed = await deps.media.probe(input, signal);
            if (!probed.audio) throw fail('media.no_audio', { variant: 'transcribe' });
            if (probed.duration > 0) duration = probed.duration;
            return input;
          })());
        let lastError: unknown = null;
        for (const engine of listeners) {
          try {
            const out = await deps.media.wrap(engine.transcribe({ ...base, mediaFile, workDir: dir, duration }));
            if (out) return finish(info, engine, out.language, out.cues, duration);
          } catch (err) {
            // Media problems and cancellations are final; an engine failure lets the next one try.
            if (signal.aborted || (err instanceof AppError && /^(media|request|upstream)\./.test(err.code))) throw err;
            if (err instanceof AppError && err.code === 'transcription.no_speech') throw err;
            lastError = err;
          }
        }
        if (lastError instanceof AppError) throw lastError;
        throw fail('transcription.failed');
      },
      who,
    );
    const file = path.join(deps.media.config.tmpRoot, `transcript-${info.videoId}-${Date.now()}.json`);
    const json = JSON.stringify(result);
    await fs.mkdir(deps.media.config.tmpRoot, { recursive: true });
    await fs.writeFile(file, json);
    try {
      return await deps.results.save({
        key,
        kind: 'transcript',
        platform: info.platform,
        videoId: info.videoId,
        file,
        ext: 'json',
        contentType: 'application/json',
        size: Buffer.byteLength(json),
        meta: { engine: result.engine },
      });
    } finally {
      await fs.rm(file, { force: true });
    }
  }

  // The request's lookup when it waits on this node (one lookup per job), else the job's own.
  deps.jobs.register('transcript', async (data, signal, who, local) => {
    const url = String(data.url);
    const info = (local as MediaVideoInfo | undefined) ?? (await deps.source.lookup(url, signal));
    return listen(url, info, String(data.key), signal, who);
  });

  /** A stored transcript, with the title and author of now. */
  async function read(info: MediaVideoInfo, row: MediaResult): Promise<TranscriptionResult | null> {
    const text = await deps.results.readText(row);
    return text ? { ...(JSON.parse(text) as TranscriptionResult), title: info.title, author: info.author } : null;
  }

  return {
    /** Which engines can run here, with setup hints: for administrators only (/api/admin/status). */
    engines: () =>
      deps.engines.map((e) => ({ id: e.id, available: e.unavailableReason() === null, hint: e.unavailableReason() })),

    /** `respondAsync`: where the listening job stands instead of waiting for it. */
    async generate(
      url: string,
      signal?: AbortSignal,
      who?: JobOwner,
      opts: { respondAsync?: boolean } = {},
    ): Promise<TranscriptionResult | PendingJob> {
      if (!deps.source.recognises(url)) throw unsupportedLink(deps.source.platformNames());
      const info = await deps.source.lookup(url, signal);

      // 1. Engines that need no media file (the video's own captions), right here.
      const remote = deps.engines.filter((e) => e.id === 'captions' && e.unavailableReason() === null);
      for (const engine of remote) {
        const noMedia = async (): Promise<string> => {
          throw new Error('captions engine does not read media');
        };
        const out = await engine.transcribe({
          ...inputOf(url, info, signal),
          mediaFile: noMedia,
          workDir: '',
          duration: info.duration,
        });
        if (out?.cues.length) return finish(info, engine, out.language, out.cues, info.duration);
      }

      // 2. Engines that listen to the sound: a media job. Results are kept per video and per set of
      //    usable engines (configuring an API gives fresh ones).
      const listeners = listenersHere();
      if (!listeners.length) throw unavailable();
      const key = `transcript:${mediaKeyId(info)}:${listeners.map((e) => e.id).join('+')}`;
      const out = await deps.jobs.run({ kind: 'transcript', key, data: { url }, who }, signal, {
        ...opts,
        local: info,
      });
      if ('state' in out) return out;
      const result = await read(info, out);
      if (!result) throw fail('media.store_unavailable');
      return result;
    },
  };
}
export type TranscriptionService = ReturnType<typeof createTranscriptionService>;
