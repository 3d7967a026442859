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
import type { MediaSource } from './media-source.js';
import { mediaKeyId } from '../platforms/platform.js';
import { notYetSupported, platformList } from '../platforms/errors.js';
import type { MediaResultsService } from './media-results.service.js';

export interface TranscriptionServiceDeps {
  source: MediaSource;
  media: MediaProcessor;
  engines: TranscriptionEngine[];
  /** Stores listened transcripts (minutes of CPU) so a second request for a video is instant. */
  results?: MediaResultsService;
  /** Where setup instructions go: the operator's log, never the creator's screen. */
  logger?: { warn(obj: object, msg: string): void };
}

/** A link no registered platform recognises: say which site is not supported yet when we know it. */
function unsupportedLink(url: string, names: string[]): AppError {
  const named = notYetSupported(url);
  return named ? fail('link.unsupported', { variant: 'not_yet', site: named, platforms: platformList(names) }) : fail('link.unsupported', { variant: 'unknown_site', platforms: platformList(names) });
}

export function createTranscriptionService(deps: TranscriptionServiceDeps) {
  const setupHints = () => deps.engines.filter((e) => e.id !== 'captions').map((e) => e.unavailableReason()).filter((h): h is string => !!h);
  const unavailable = () => {
    deps.logger?.warn({ setup: setupHints() }, `auto captions: no speech recogniser is available; to enable one, ${setupHints().join(', or ')}`);
    return fail('transcription.unavailable');
  };

  return {
    /** Which engines can run here, with setup hints: for administrators only (/api/admin/status). */
    engines: () => deps.engines.map((e) => ({ id: e.id, available: e.unavailableReason() === null, hint: e.unavailableReason() })),

    async generate(url: string, signal?: AbortSignal, who?: JobOwner): Promise<TranscriptionResult> {
      if (!deps.source.recognises(url)) throw unsupportedLink(url, deps.source.platformNames());
      const info = await deps.source.lookup(url, signal);
      const base: Omit<TranscriptionInput, 'mediaFile' | 'workDir' | 'duration'> = {
        subtitles: info.subtitles,
        fetchText: (u, s) => deps.source.fetchText(u, info, s),
        signal,
      };

      const finish = (engine: TranscriptionEngine, language: string, cues: Parameters<typeof normalizeSegments>[0], duration: number): TranscriptionResult => {
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

      // 1. Engines that need no media file (the video's own captions).
      const remote = deps.engines.filter((e) => e.id === 'captions' && e.unavailableReason() === null);
      for (const engine of remote) {
        const noMedia = async (): Promise<string> => {
          throw new Error('captions engine does not read media');
        };
        const out = await engine.transcribe({ ...base, mediaFile: noMedia, workDir: '', duration: info.duration });
        if (out?.cues.length) return finish(engine, out.language, out.cues, info.duration);
      }

      // 2. Engines that listen to the sound: one pool slot, the media downloaded once. Results are
      //    kept per video and per set of usable engines (configuring an API gives fresh ones).
      const listeners = deps.engines.filter((e) => e.id !== 'captions' && e.unavailableReason() === null);
      if (!listeners.length) throw unavailable();
      const cacheKey = `transcript:${mediaKeyId(info)}:${listeners.map((e) => e.id).join('+')}`;
      const cached = deps.results ? await deps.results.find(cacheKey) : undefined;
      const text = cached ? await deps.results!.readText(cached) : null;
      if (text) return { ...(JSON.parse(text) as TranscriptionResult), title: info.title, author: info.author };
      const result = await deps.media.job(signal, async (dir) => {
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
            if (out) return finish(engine, out.language, out.cues, duration);
          } catch (err) {
            // Media problems and cancellations are final; an engine failure lets the next one try.
            if (signal?.aborted || (err instanceof AppError && /^(media|request|upstream)\./.test(err.code))) throw err;
            if (err instanceof AppError && err.code === 'transcription.no_speech') throw err;
            lastError = err;
          }
        }
        if (lastError instanceof AppError) throw lastError;
        throw fail('transcription.failed');
      }, who);
      if (deps.results) {
        const file = path.join(deps.media.config.tmpRoot, `transcript-${info.videoId}-${Date.now()}.json`);
        const json = JSON.stringify(result);
        await fs.mkdir(deps.media.config.tmpRoot, { recursive: true });
        await fs.writeFile(file, json);
        try {
          await deps.results.save({ key: cacheKey, kind: 'transcript', platform: info.platform, videoId: info.videoId, file, ext: 'json', contentType: 'application/json', size: Buffer.byteLength(json), meta: { engine: result.engine } });
        } catch {
          // Keeping a copy is an optimisation: the person still gets the transcript just made.
        } finally {
          await fs.rm(file, { force: true });
        }
      }
      return result;
    },
  };
}
export type TranscriptionService = ReturnType<typeof createTranscriptionService>;
