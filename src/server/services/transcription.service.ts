// Auto captions: engines tried in order (the video's own captions, a transcription API, whisper.cpp
// with a fetched model, offline pocketsphinx); the first with a result wins. Segments come back
// ordered, non-overlapping and inside the media's duration, with the engine that made them.
import fs from 'node:fs/promises';
import path from 'node:path';
import { normalizeSegments } from '../../shared/captions.js';
import type { TranscriptionResult } from '../../shared/contracts/transcription.js';
import { AppError, fail } from '../errors.js';
import type { TranscriptionEngine, TranscriptionInput } from '../adapters/asr/types.js';
import type { MediaProcessor } from '../adapters/media/media-processor.js';
import type { JobOwner } from '../jobs/catalogue.js';
import { type MediaSource, type MediaVideoInfo, type OwnedUpload, sourceName } from './media-source.js';
import type { MediaResult } from '../db/repositories/media-results.repository.js';
import { mediaKeyId } from '../platforms/platform.js';
import { unsupportedLink } from '../platforms/errors.js';
import type { MediaResultsService } from './media-results.service.js';
import { defineMediaJob } from './media-job.js';
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
  /** Called when a transcription is asked for: starts the Whisper model's fetch when it is missing. */
  prepare?: () => void;
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
    language?: string,
  ): Omit<TranscriptionInput, 'mediaFile' | 'workDir' | 'duration'> => ({
    subtitles: info.subtitles,
    fetchText: (u, s) => deps.source.fetchText(u, info, s),
    signal,
    language,
  });
  const listenersHere = () => deps.engines.filter((e) => e.id !== 'captions' && e.unavailableReason() === null);

  /** The listening job: the sound downloaded once, engines in order, the transcript kept as JSON. */
  const job = defineMediaJob(deps, {
    kind: 'transcript',
    // Kept per video, per set of usable engines (configuring an API or fetching a model gives fresh
    // ones) and per language asked.
    key: ({ language, translate }, info: MediaVideoInfo) =>
      `transcript:${mediaKeyId(info)}:${listenersHere()
        .map((e) => e.cacheId?.() ?? e.id)
        .join('+')}${language ? `:${language}` : ''}${translate ? ':to-en' : ''}`,
    load: ({ url }, signal) => deps.source.lookup(url, signal),
    async produce({ data: { url, language, translate }, source: info, dir, signal, save }) {
      const listeners = listenersHere();
      if (!listeners.length) throw unavailable();
      const base = { ...inputOf(url, info, signal, language), translate };
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
        let out: Awaited<ReturnType<TranscriptionEngine['transcribe']>>;
        try {
          out = await deps.media.wrap(engine.transcribe({ ...base, mediaFile, workDir: dir, duration }));
        } catch (err) {
          // Media problems and cancellations are final; an engine failure lets the next one try.
          if (signal.aborted || (err instanceof AppError && /^(media|request|upstream)\./.test(err.code))) throw err;
          if (err instanceof AppError && err.code === 'transcription.no_speech') throw err;
          lastError = err;
          continue;
        }
        if (!out) continue;
        const result = finish(info, engine, out.language, out.cues, duration);
        const json = JSON.stringify(result);
        const stored = path.join(dir, 'transcript.json');
        await fs.writeFile(stored, json);
        return save({
          platform: info.platform,
          videoId: info.videoId,
          file: stored,
          ext: 'json',
          contentType: 'application/json',
          size: Buffer.byteLength(json),
          meta: { engine: result.engine },
        });
      }
      if (lastError instanceof AppError) throw lastError;
      throw fail('transcription.failed');
    },
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

    /**
     * A link (a string, as requests give it) or an upload the studio checked as the caller's.
     * `respondAsync`: where the listening job stands instead of waiting for it.
     */
    async generate(
      source: string | OwnedUpload,
      signal?: AbortSignal,
      owner?: JobOwner,
      opts: { respondAsync?: boolean; language?: string; listen?: boolean; translate?: boolean } = {},
    ): Promise<TranscriptionResult | PendingJob> {
      if (typeof source === 'string' && !deps.source.recognises(source))
        throw unsupportedLink(deps.source.platformNames());
      const url = sourceName(source);
      deps.prepare?.();
      const info = await deps.source.lookup(url, signal);

      // 1. Engines that need no media file (the video's own captions), right here, unless the
      // person asked to listen ("Transcribe again with Whisper").
      // English words for another language ("translate") come from listening too.
      const listen = opts.listen || opts.translate;
      const remote = deps.engines.filter((e) => !listen && e.id === 'captions' && e.unavailableReason() === null);
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

      // 2. Engines that listen to the sound: a media job.
      if (!listenersHere().length) throw unavailable();
      const { language, listen: _listen, translate, ...run } = opts;
      const data = { url, language, ...(translate ? { translate } : {}) };
      const out = await job.run({ data, source: info, owner }, signal, run);
      if ('state' in out) return out;
      const result = await read(info, out);
      if (!result) throw fail('media.store_unavailable');
      return result;
    },
  };
}
export type TranscriptionService = ReturnType<typeof createTranscriptionService>;
