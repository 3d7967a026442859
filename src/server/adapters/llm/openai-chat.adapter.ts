// Client for any OpenAI-compatible chat-completions API (OpenAI, Ollama, vLLM, llama.cpp server,
// Groq, OpenRouter): POST {LLM_BASE_URL}/chat/completions asking for a JSON object. Returns the
// parsed JSON or throws LlmError with a reason; callers fall back to the built-in engine.
// The API key is only ever sent in the Authorization header, never logged. Requests go through the
// operator client of LLM_BASE_URL: that origin only, redirects re-checked, answers capped.
import { dropNul } from '../../lib/nul.js';
import { HttpClientError } from '../http/http-errors.js';
import { createOperatorClient, type OperatorClient } from '../http/operator-client.js';

export type LlmFailure = 'timeout' | 'http' | 'network' | 'refusal' | 'malformed';

export class LlmError extends Error {
  constructor(
    readonly reason: LlmFailure,
    message: string,
  ) {
    super(message);
    this.name = 'LlmError';
  }
}

export interface LlmClient {
  readonly model: string;
  /** Asks for one JSON object; resolves with it parsed (not yet validated). */
  completeJson(prompt: { system: string; user: string }): Promise<unknown>;
}

export interface LlmConfig {
  baseUrl: string;
  apiKey: string;
  model: string;
  timeoutMs: number;
}

/** A hashtag or caption answer is a few KB: the body is cut (and refused) beyond this. */
export const MAX_RESPONSE_BYTES = 512 * 1024;

/** 'https://api.openai.com/v1' -> '.../v1/chat/completions'; a bare origin gets the usual '/v1'. */
export function chatCompletionsUrl(baseUrl: string): string {
  const url = new URL(baseUrl);
  const base = url.pathname === '/' || url.pathname === '' ? '/v1' : url.pathname.replace(/\/+$/, '');
  url.pathname = `${base.replace(/\/chat\/completions$/, '')}/chat/completions`;
  return url.href;
}

export function createOpenAiChatClient(
  config: LlmConfig,
  http: OperatorClient = createOperatorClient({
    endpoint: config.baseUrl,
    timeoutMs: config.timeoutMs,
    maxBytes: MAX_RESPONSE_BYTES,
  }),
): LlmClient {
  const endpoint = chatCompletionsUrl(config.baseUrl);

  async function post(body: unknown, signal: AbortSignal): Promise<{ status: number; text: string }> {
    try {
      const res = await http.request(endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          authorization: `Bearer ${config.apiKey}`,
        },
        body: JSON.stringify(body),
        signal,
      });
      return { status: res.status, text: await res.text() };
    } catch (err) {
      if (signal.aborted) throw new LlmError('timeout', `no answer within ${config.timeoutMs} ms`);
      if (err instanceof HttpClientError && err.kind === 'too_large')
        throw new LlmError('malformed', 'response too large');
      throw new LlmError('network', err instanceof Error ? err.message : 'request failed');
    }
  }

  return {
    model: config.model,
    async completeJson({ system, user }) {
      // One deadline for the whole exchange, including the retry below.
      const signal = AbortSignal.timeout(config.timeoutMs);
      const messages = [
        { role: 'system', content: system },
        { role: 'user', content: user },
      ];
      let answer = await post(
        { model: config.model, messages, response_format: { type: 'json_object' }, stream: false },
        signal,
      );
      // Some servers (LM Studio, older vLLM) refuse JSON mode with a 400: ask again without it;
      // the prompt still asks for JSON only and the answer is validated the same way.
      if ((answer.status === 400 || answer.status === 422) && /response_format|json_object/i.test(answer.text)) {
        answer = await post({ model: config.model, messages, stream: false }, signal);
      }
      if (answer.status < 200 || answer.status >= 300) throw new LlmError('http', `status ${answer.status}`);
      return parseCompletion(answer.text);
    },
  };
}

/** Extracts the JSON object from a chat-completions response body. */
export function parseCompletion(body: string): unknown {
  let data: unknown;
  try {
    data = JSON.parse(body, dropNul);
  } catch {
    throw new LlmError('malformed', 'response body is not JSON');
  }
  const choice = (data as { choices?: Array<Record<string, unknown>> })?.choices?.[0];
  if (!choice || typeof choice !== 'object') throw new LlmError('malformed', 'no choices in response');
  const message = (choice.message ?? {}) as { content?: unknown; refusal?: unknown };
  if (typeof message.refusal === 'string' && message.refusal.trim() !== '')
    throw new LlmError('refusal', 'model refused');
  if (choice.finish_reason === 'content_filter') throw new LlmError('refusal', 'content filtered');
  const content = contentText(message.content);
  if (!content) throw new LlmError('malformed', 'empty message content');
  const json = extractJsonObject(content);
  if (json === undefined) throw new LlmError('malformed', 'message content is not a JSON object');
  return json;
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  // Some servers answer with content parts: [{ type: 'text', text }].
  if (Array.isArray(content)) {
    return content.map((p) => (p && typeof p === 'object' && typeof p.text === 'string' ? p.text : '')).join('');
  }
  return '';
}

/** The JSON object in a message, tolerating ```json fences or a sentence around it. */
function extractJsonObject(content: string): unknown {
  const candidates = [content.trim()];
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(content);
  if (fenced) candidates.push(fenced[1].trim());
  const first = content.indexOf('{');
  const last = content.lastIndexOf('}');
  if (first >= 0 && last > first) candidates.push(content.slice(first, last + 1));
  for (const c of candidates) {
    try {
      const v = JSON.parse(c, dropNul);
      if (v && typeof v === 'object' && !Array.isArray(v)) return v;
    } catch {
      /* try the next candidate */
    }
  }
  return undefined;
}
