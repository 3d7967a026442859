/**
 * A fake OpenAI-compatible transcription API on 127.0.0.1: POST /v1/audio/transcriptions with
 * multipart form data (file, model, response_format, timestamp_granularities[]), answering
 * verbose_json like OpenAI does: { task, language: 'english', duration, text, segments[] }, plus
 * `words[]` ({ word, start, end }) when `timestamp_granularities[]=word` was asked for.
 * It measures the uploaded audio with ffprobe and spreads the configured sentences over it, so the
 * answer depends on what was really sent. Requires `Authorization: Bearer <apiKey>` when set.
 *
 *   const api = await startFakeTranscribeApi({ apiKey: 'k', sentences: ['Hello there.', 'Bye now.'] });
 *   env TRANSCRIBE_API_URL=api.url, TRANSCRIBE_API_KEY='k', TRANSCRIBE_MODEL='whisper-1'
 *   api.calls   // [{ model, responseFormat, granularities, fileName, fileBytes, audioDuration }]
 *   api.failNext(500 | 429)
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { FFPROBE } from './media-samples.js';

export interface TranscribeCall {
  model: string | null;
  responseFormat: string | null;
  granularities: string[];
  fileName: string | null;
  fileBytes: number;
  audioDuration: number;
}

export async function startFakeTranscribeApi(opts: { apiKey?: string; sentences: string[]; language?: string }) {
  const calls: TranscribeCall[] = [];
  let failures: number[] = [];

  const server = http.createServer(async (req, res) => {
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST' || req.url !== '/v1/audio/transcriptions')
      return send(404, { error: { message: 'Not found' } });
    if (opts.apiKey && req.headers.authorization !== `Bearer ${opts.apiKey}`) {
      return send(401, {
        error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' },
      });
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const fail = failures.shift();
    if (fail) return send(fail, { error: { message: 'fake failure' } }, fail === 429 ? { 'retry-after': '7' } : {});
    let form: FormData;
    try {
      form = await new Response(Buffer.concat(chunks), {
        headers: { 'content-type': req.headers['content-type'] ?? '' },
      }).formData();
    } catch {
      return send(400, { error: { message: 'Could not parse multipart form' } });
    }
    const file = form.get('file');
    if (!(file instanceof Blob)) return send(400, { error: { message: "Missing required parameter: 'file'" } });
    if (!form.get('model')) return send(400, { error: { message: "Missing required parameter: 'model'" } });
    const tmp = path.join(
      os.tmpdir(),
      `fake-openai-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`,
    );
    fs.writeFileSync(tmp, Buffer.from(await file.arrayBuffer()));
    let duration = 0;
    try {
      duration = Number(
        execFileSync(FFPROBE, ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', tmp], {
          encoding: 'utf8',
        }).trim(),
      );
    } catch {
      return send(400, { error: { message: 'Invalid file format.' } });
    } finally {
      fs.rmSync(tmp, { force: true });
    }
    calls.push({
      model: form.get('model') as string | null,
      responseFormat: form.get('response_format') as string | null,
      granularities: form.getAll('timestamp_granularities[]') as string[],
      fileName: (file as File).name ?? null,
      fileBytes: file.size,
      audioDuration: duration,
    });
    const n = opts.sentences.length;
    const step = duration / n;
    const segments = opts.sentences.map((text, i) => ({
      id: i,
      seek: 0,
      start: Number((i * step).toFixed(2)),
      end: Number(((i + 1) * step).toFixed(2)),
      text: ` ${text}`,
      tokens: [],
      temperature: 0,
      avg_logprob: -0.2,
      compression_ratio: 1.2,
      no_speech_prob: 0.01,
    }));
    if (form.get('response_format') !== 'verbose_json') return send(200, { text: opts.sentences.join(' ') });
    // OpenAI's word list: punctuation stripped, times spread evenly inside each segment.
    const words = segments.flatMap((seg) => {
      const tokens = seg.text.trim().split(/\s+/);
      const w = (seg.end - seg.start) / tokens.length;
      return tokens.map((t, k) => ({
        word: t.replace(/[.,!?;:]+$/, ''),
        start: Number((seg.start + k * w).toFixed(2)),
        end: Number((seg.start + (k + 1) * w).toFixed(2)),
      }));
    });
    const wantWords = (form.getAll('timestamp_granularities[]') as string[]).includes('word');
    return send(200, {
      task: 'transcribe',
      language: opts.language ?? 'english',
      duration,
      text: opts.sentences.join(' '),
      segments,
      ...(wantWords ? { words } : {}),
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url,
    calls,
    failNext(...statuses: number[]) {
      failures = statuses;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
