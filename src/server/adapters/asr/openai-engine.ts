// Engine 2: an OpenAI-compatible `/v1/audio/transcriptions` (OpenAI, Groq, whisper.cpp server,
// faster-whisper servers), verbose JSON with segments. The URL is operator configuration, so it
// goes through its own operator client: that origin only (even a local one), redirects re-checked
// against it, the answer capped at MAX_ANSWER_BYTES.
import fs from 'node:fs';
import path from 'node:path';
import { FormData } from 'undici';
import { fail } from '../../errors.js';
import { HttpClientError } from '../http/http-errors.js';
import { createOperatorClient, type OperatorClient, type OperatorResponse } from '../http/operator-client.js';
import { languageCode, type TranscriptionEngine } from './types.js';

export interface OpenAiTranscribeConfig {
  url: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
}

/** A verbose JSON transcript of a long clip is a few hundred KB; far beyond is not an answer. */
export const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/** Accepts a base (`https://api.openai.com`), a `/v1` base, or the full endpoint. */
export function transcriptionEndpoint(url: string): string {
  const u = url.replace(/\/+$/, '');
  if (/\/audio\/transcriptions$/.test(u)) return u;
  if (/\/v\d+$/.test(u) || /\/openai$/.test(u)) return `${u}/audio/transcriptions`;
  return `${u}/v1/audio/transcriptions`;
}

interface VerboseJson {
  text?: string;
  language?: string;
  duration?: number;
  segments?: Array<{ id?: number; start?: number; end?: number; text?: string }>;
  /** With `timestamp_granularities[]=word`: every word of the clip with its times. */
  words?: Array<{ word?: string; start?: number; end?: number; probability?: number }>;
}

type ApiWord = { text: string; start: number; end: number; confidence?: number };

/** The answer's words (well-formed ones only), ordered by start. */
export function apiWords(body: VerboseJson): ApiWord[] {
  const out: ApiWord[] = [];
  for (const w of body.words ?? []) {
    const text = typeof w.word === 'string' ? w.word.trim() : '';
    if (!text || typeof w.start !== 'number' || typeof w.end !== 'number') continue;
    if (!Number.isFinite(w.start) || !Number.isFinite(w.end)) continue;
    // whisper.cpp and faster-whisper servers add a probability; OpenAI does not.
    const confidence = typeof w.probability === 'number' ? Math.min(1, Math.max(0, w.probability)) : undefined;
    out.push({ text, start: w.start, end: w.end, ...(confidence !== undefined ? { confidence } : {}) });
  }
  return out.sort((a, b) => a.start - b.start);
}

/** Each word goes to the segment its middle falls in (the last one it reaches otherwise). */
export function wordsIntoSegments<T extends { start: number; end: number }>(
  segments: T[],
  words: ApiWord[],
): Array<T & { words?: ApiWord[] }> {
  if (!words.length) return segments;
  const out = segments.map((s) => ({ ...s, words: [] as ApiWord[] }));
  let i = 0;
  for (const w of words) {
    const mid = (w.start + w.end) / 2;
    while (i < out.length - 1 && mid >= out[i].end && mid >= out[i + 1].start) i++;
    out[i]?.words.push(w);
  }
  return out;
}

export function createOpenAiEngine(
  cfg: OpenAiTranscribeConfig | null,
  prepareUpload: (mediaFile: string, outFile: string, signal?: AbortSignal) => Promise<void>,
  http: OperatorClient | null = cfg
    ? createOperatorClient({
        endpoint: transcriptionEndpoint(cfg.url),
        timeoutMs: cfg.timeoutMs,
        maxBytes: MAX_ANSWER_BYTES,
      })
    : null,
): TranscriptionEngine {
  return {
    id: 'api',
    local: false,
    unavailableReason: () =>
      cfg ? null : 'set TRANSCRIBE_API_URL (and TRANSCRIBE_API_KEY, TRANSCRIBE_MODEL) to use a transcription API',
    async transcribe(input) {
      if (!cfg || !http) return null;
      const upload = path.join(input.workDir, 'upload.mp3');
      await prepareUpload(await input.mediaFile(), upload, input.signal);
      const form = new FormData(); // undici's: the global one does not encode through undici.request
      form.set('file', await fs.openAsBlob(upload, { type: 'audio/mpeg' }), 'audio.mp3');
      form.set('model', cfg.model);
      form.set('response_format', 'verbose_json');
      form.append('timestamp_granularities[]', 'segment');
      form.append('timestamp_granularities[]', 'word');
      const signal = input.signal
        ? AbortSignal.any([input.signal, AbortSignal.timeout(cfg.timeoutMs)])
        : AbortSignal.timeout(cfg.timeoutMs);
      let res: OperatorResponse;
      try {
        res = await http.request(transcriptionEndpoint(cfg.url), {
          method: 'POST',
          body: form,
          headers: cfg.apiKey ? { authorization: `Bearer ${cfg.apiKey}` } : {},
          signal,
        });
      } catch (err) {
        if (input.signal?.aborted) throw err;
        throw fail('transcription.upstream', { variant: 'no_answer' });
      }
      if (res.status === 429) {
        await res.dump();
        throw fail('transcription.busy', undefined, {}, { 'retry-after': res.header('retry-after') ?? '30' });
      }
      if (res.status < 200 || res.status >= 300) {
        await res.dump();
        throw fail('transcription.upstream', { variant: 'status', status: res.status });
      }
      let body: VerboseJson;
      try {
        body = JSON.parse(await res.text()) as VerboseJson;
      } catch (err) {
        if (input.signal?.aborted) throw err;
        if (err instanceof HttpClientError && err.kind === 'too_large')
          throw fail('transcription.upstream', { variant: 'too_large' });
        throw fail('transcription.upstream');
      }
      const segments = (body.segments ?? []).flatMap((s) =>
        typeof s.start === 'number' && typeof s.end === 'number' && typeof s.text === 'string'
          ? [{ start: s.start, end: s.end, text: s.text.trim() }]
          : [],
      );
      // A plain-JSON answer without segments: one segment over the whole clip.
      if (!segments.length && body.text?.trim())
        segments.push({ start: 0, end: body.duration ?? input.duration, text: body.text.trim() });
      const cues = wordsIntoSegments(segments, apiWords(body));
      return { language: languageCode(body.language), cues };
    },
  };
}
