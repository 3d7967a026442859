// Operator-configured endpoints (PayPal API, webhook certificates, transcription and LLM APIs) go
// through the guarded client (decision 0017): the configured origin only, even on 127.0.0.1;
// redirects leaving it are refused before any connection; answers are cut at a size cap with each
// adapter's usual error. Every upstream here is a small HTTP server on 127.0.0.1.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpClient, createOperatorClient } from '../../src/server/adapters/http/index.js';
import { createOpenAiChatClient, LlmError } from '../../src/server/adapters/llm/openai-chat.adapter.js';
import { createOpenAiEngine } from '../../src/server/adapters/asr/openai-engine.js';
import { createPayPalClient } from '../../src/server/adapters/paypal/paypal.client.js';
import { createWebhookVerifier } from '../../src/server/adapters/paypal/webhook-verifier.js';
import { AppError } from '../../src/server/errors.js';

interface Upstream {
  url: string;
  /** Requests received (method and path). */
  hits: string[];
  close(): Promise<void>;
}

const open: Upstream[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((u) => u.close()));
});

/** A server on 127.0.0.1; `host` names it in its URL (127.0.0.1 or localhost: another host). */
async function upstream(handler: http.RequestListener, host = '127.0.0.1'): Promise<Upstream> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    req.resume();
    req.on('end', () => handler(req, res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const u: Upstream = {
    url: `http://${host}:${(server.address() as { port: number }).port}`,
    hits,
    close: () => new Promise<void>((r) => server.close(() => r())).then(() => void server.closeAllConnections()),
  };
  open.push(u);
  return u;
}

const json =
  (body: unknown, status = 200) =>
  (_req: http.IncomingMessage, res: http.ServerResponse) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
const redirectTo =
  (location: string, status = 307) =>
  (_req: http.IncomingMessage, res: http.ServerResponse) => {
    res.writeHead(status, { location });
    res.end();
  };

/** Streams a JSON-looking body until the client hangs up (or SAFETY bytes): `outcome` says which. */
const SAFETY = 48 * 1024 * 1024;
function endless() {
  let settle: (v: { sent: number; finished: boolean }) => void = () => {};
  const outcome = new Promise<{ sent: number; finished: boolean }>((r) => (settle = r));
  const handler = (_req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let sent = 0;
    res.on('close', () => settle({ sent, finished: res.writableFinished }));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"text":"');
    const pump = () => {
      while (sent < SAFETY) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end('"}');
    };
    pump();
  };
  return { handler, outcome };
}

const completion = {
  choices: [{ index: 0, message: { role: 'assistant', content: '{"hashtags":["#ok"]}' }, finish_reason: 'stop' }],
};
const transcript = {
  language: 'english',
  duration: 2,
  text: 'Hello.',
  segments: [{ id: 0, start: 0, end: 2, text: 'Hello.' }],
};

describe('the operator client rule', () => {
  it('reaches the configured origin (http, loopback, own port) and follows a redirect within it', async () => {
    const api = await upstream((req, res) =>
      req.url === '/old' ? redirectTo('/v1/ok', 302)(req, res) : json({ ok: true })(req, res),
    );
    const client = createOperatorClient({ endpoint: `${api.url}/v1`, timeoutMs: 5000, maxBytes: 1024 });
    const res = await client.request(`${api.url}/old`);
    expect(res.status).toBe(200);
    expect(JSON.parse(await res.text())).toEqual({ ok: true });
    expect(api.hits).toEqual(['GET /old', 'GET /v1/ok']);
  });

  it('refuses any other origin before connecting, and gives user URLs none of this trust', async () => {
    const api = await upstream(json({}));
    const other = await upstream(json({}), 'localhost');
    const client = createOperatorClient({ endpoint: api.url, timeoutMs: 5000, maxBytes: 1024 });
    await expect(client.request(`${other.url}/x`)).rejects.toMatchObject({ code: 'upstream.blocked' });
    await expect(client.request(`${api.url.replace('http:', 'https:')}/x`)).rejects.toMatchObject({
      code: 'upstream.blocked',
    });
    expect(other.hits).toEqual([]);
    // The shared guarded client still refuses the very origin the operator client may reach.
    const guarded = createHttpClient();
    await expect(guarded.request(`${api.url}/x`, { allow: ['127.0.0.1'], allowHttp: true })).rejects.toMatchObject({
      code: 'upstream.blocked',
    });
    expect(api.hits).toEqual([]);
    await guarded.close();
  });
});

describe('LLM chat API', () => {
  const llm = (baseUrl: string, timeoutMs = 5000) =>
    createOpenAiChatClient({ baseUrl, apiKey: 'sk-secret', model: 'gpt-test', timeoutMs });
  const ask = { system: 'Answer in JSON.', user: 'hashtags for pasta' };

  it('refuses a redirect to another host: the other host is never asked', async () => {
    const other = await upstream(json(completion), 'localhost');
    const api = await upstream(redirectTo(`${other.url}/v1/chat/completions`));
    const err = await llm(`${api.url}/v1`)
      .completeJson(ask)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmError);
    expect(err).toMatchObject({ reason: 'network', message: expect.stringMatching(/not the configured endpoint/) });
    expect(other.hits).toEqual([]);
  });

  it('refuses a redirect to the cloud metadata address without connecting', async () => {
    const api = await upstream(redirectTo('http://169.254.169.254/latest/meta-data/iam/security-credentials/'));
    await expect(llm(`${api.url}/v1`).completeJson(ask)).rejects.toMatchObject({
      reason: 'network',
      message: expect.stringMatching(/not the configured endpoint/),
    });
    expect(api.hits).toEqual(['POST /v1/chat/completions']);
  });

  it('cuts an answer over the size cap: malformed, the connection dropped', async () => {
    const big = endless();
    const api = await upstream(big.handler);
    await expect(llm(`${api.url}/v1`, 20_000).completeJson(ask)).rejects.toMatchObject({
      reason: 'malformed',
      message: 'response too large',
    });
    const { sent, finished } = await big.outcome;
    expect(finished).toBe(false);
    expect(sent).toBeLessThan(SAFETY);
  });
});

describe('transcription API', () => {
  const work = () => fs.mkdtempSync(path.join(os.tmpdir(), 'operator-endpoints-'));
  const input = (workDir: string) => ({
    subtitles: [],
    fetchText: async () => '',
    mediaFile: async () => '/dev/null',
    duration: 2,
    workDir,
  });
  // The adapter uploads whatever prepareUpload wrote: a few bytes stand in for the mp3.
  const engine = (url: string, timeoutMs = 5000) =>
    createOpenAiEngine({ url, apiKey: 'sk-secret', model: 'whisper-1', timeoutMs }, async (_in, out) =>
      fs.writeFileSync(out, 'not really mp3'),
    );

  it('uploads to the configured endpoint and reads its segments', async () => {
    const api = await upstream(json(transcript));
    const result = await engine(api.url).transcribe(input(work()));
    expect(result).toEqual({ language: 'en', cues: [{ start: 0, end: 2, text: 'Hello.' }] });
    expect(api.hits).toEqual(['POST /v1/audio/transcriptions']);
  });

  it('refuses a redirect to another host with its usual 502, uploading nothing there', async () => {
    const other = await upstream(json(transcript), 'localhost');
    const api = await upstream(redirectTo(`${other.url}/v1/audio/transcriptions`, 308));
    const err = await engine(api.url)
      .transcribe(input(work()))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ status: 502, code: 'transcription.upstream' });
    expect(other.hits).toEqual([]);
  });

  it('cuts an answer over the size cap with transcription.upstream', async () => {
    const big = endless();
    const api = await upstream(big.handler);
    const err = await engine(api.url, 20_000)
      .transcribe(input(work()))
      .catch((e: unknown) => e);
    expect(err).toMatchObject({
      status: 502,
      code: 'transcription.upstream',
      message: expect.stringMatching(/larger than allowed/),
    });
    const { sent, finished } = await big.outcome;
    expect(finished).toBe(false);
    expect(sent).toBeLessThan(SAFETY);
  });
});

describe('PayPal', () => {
  const paypal = (apiBase: string) =>
    createPayPalClient({ apiBase, clientId: 'id', clientSecret: 'secret', planId: 'P-1', timeoutMs: 20_000 });

  it('refuses a redirect from the API to another host, as a provider failure (not one of our 4xx)', async () => {
    const other = await upstream(json({ access_token: 'stolen', expires_in: 3600 }), 'localhost');
    const api = await upstream(redirectTo(`${other.url}/v1/oauth2/token`));
    const err = await paypal(api.url)
      .getSubscription('I-1')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(AppError);
    expect((err as Error).message).toMatch(/not the configured endpoint/);
    expect(other.hits).toEqual([]);
  });

  it('cuts an answer over the size cap', async () => {
    const big = endless();
    const api = await upstream(big.handler);
    await expect(paypal(api.url).getSubscription('I-1')).rejects.toThrow(/larger than allowed/);
    expect((await big.outcome).finished).toBe(false);
  });

  it('downloads a certificate named by a delivery through the guarded client: a private address is refused', async () => {
    const asked: string[] = [];
    const http = createHttpClient({
      lookup: async (hostname) => {
        asked.push(hostname);
        return [{ address: '169.254.169.254', family: 4 }];
      },
    });
    const verifier = createWebhookVerifier({ webhookId: 'WH-1', http });
    const verdict = await verifier.verify(
      {
        transmissionId: 'T-1',
        transmissionTime: new Date().toISOString(),
        transmissionSig: 'A'.repeat(344),
        certUrl: 'https://api.sandbox.paypal.com/v1/notifications/certs/CERT-1',
        authAlgo: 'SHA256withRSA',
      },
      Buffer.from('{}'),
    );
    expect(verdict).toEqual({
      ok: false,
      reason: expect.stringMatching(/^certificate unavailable: .*private address/),
    });
    expect(asked).toEqual(['api.sandbox.paypal.com']);
    await http.close();
  });
});
