/**
 * A fake OpenAI-compatible chat-completions API on 127.0.0.1: POST /v1/chat/completions with
 * { model, messages, response_format }, answering like OpenAI does:
 * { id, object: 'chat.completion', created, model, choices: [{ index, message: { role, content,
 * refusal }, finish_reason }], usage }. Requires `Authorization: Bearer <apiKey>`.
 *
 * Modes: 'good' (after `goodDelayMs`, a JSON answer built from the request, with the small sins real models commit:
 * duplicates, a tag with a space, a missing '#', too many tags, an unobserved "trending" tag),
 * 'broken' (prose and half a JSON object), 'timeout' (answers after `delayMs`), 'refusal'
 * (message.refusal set, content null), 'error' (HTTP 500 with an OpenAI error body),
 * 'no-json-mode' (400 for response_format json_object, like LM Studio; good answers without it).
 *
 *   const llm = await startFakeOpenAiChat({ apiKey: 'k' });
 *   env LLM_BASE_URL=`${llm.url}/v1`, LLM_API_KEY='k', LLM_MODEL='gpt-test'
 *   llm.mode = 'timeout'; llm.calls  // [{ model, responseFormat, system, user }]
 */
import http from 'node:http';

export type FakeChatMode = 'good' | 'broken' | 'timeout' | 'refusal' | 'error' | 'no-json-mode';

export interface ChatCall {
  model: string;
  responseFormat: unknown;
  system: string;
  user: string;
}

export async function startFakeOpenAiChat(opts: { apiKey: string; delayMs?: number; goodDelayMs?: number }) {
  const calls: ChatCall[] = [];
  const pending = new Set<http.ServerResponse>();
  const state = { mode: 'good' as FakeChatMode };

  const server = http.createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions')
      return send(404, { error: { message: 'Not found', type: 'invalid_request_error' } });
    if (req.headers.authorization !== `Bearer ${opts.apiKey}`) {
      return send(401, {
        error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' },
      });
    }
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      let body: { model?: string; messages?: Array<{ role: string; content: string }>; response_format?: unknown };
      try {
        body = JSON.parse(raw);
      } catch {
        return send(400, {
          error: { message: 'We could not parse the JSON body of your request.', type: 'invalid_request_error' },
        });
      }
      const system = body.messages?.find((m) => m.role === 'system')?.content ?? '';
      const user = body.messages?.find((m) => m.role === 'user')?.content ?? '';
      calls.push({ model: body.model ?? '', responseFormat: body.response_format, system, user });
      const completion = (message: Record<string, unknown>, finish = 'stop') => ({
        id: `chatcmpl-${calls.length}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', refusal: null, ...message },
            logprobs: null,
            finish_reason: finish,
          },
        ],
        usage: { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150 },
      });
      switch (state.mode) {
        case 'no-json-mode':
          if (body.response_format) {
            return send(400, { error: "'response_format.type' must be 'json_schema' or 'text'" });
          }
          return send(200, completion({ content: JSON.stringify(goodAnswer(user)) }));
        case 'good':
          // An optional think time, so a browser can see the loading state.
          if (opts.goodDelayMs)
            return void setTimeout(
              () => send(200, completion({ content: JSON.stringify(goodAnswer(user)) })),
              opts.goodDelayMs,
            );
          return send(200, completion({ content: JSON.stringify(goodAnswer(user)) }));
        case 'broken':
          return send(
            200,
            completion(
              {
                content:
                  'Sure! Here are some great hashtags for you: {"trending": ["#fyp", "#viral"], "niche": ["#pasta',
              },
              'length',
            ),
          );
        case 'refusal':
          return send(200, completion({ content: null, refusal: "I'm sorry, but I can't help with that request." }));
        case 'error':
          return send(500, {
            error: { message: 'The server had an error while processing your request.', type: 'server_error' },
          });
        case 'timeout': {
          pending.add(res);
          setTimeout(() => {
            pending.delete(res);
            if (!res.writableEnded && !res.destroyed)
              send(200, completion({ content: JSON.stringify(goodAnswer(user)) }));
          }, opts.delayMs ?? 3000);
        }
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    get mode() {
      return state.mode;
    },
    set mode(m: FakeChatMode) {
      state.mode = m;
    },
    close: () =>
      new Promise<void>((r) => {
        for (const res of pending) res.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A plausible model answer derived from what was asked. */
function goodAnswer(userMessage: string): unknown {
  const input = JSON.parse(userMessage) as Record<string, unknown>;
  if (typeof input.videoTitle === 'string') {
    const words = input.videoTitle.toLowerCase().match(/\p{L}{4,}/gu) ?? ['video'];
    const observed = (input.observedTrendingHashtags as string[] | undefined) ?? [];
    return {
      trending: [...observed.slice(0, 2), '#madeuptrend'],
      niche: [
        ...words.map((w) => `#${w}`),
        `#${words[0]}`,
        `${words[0]}lovers`,
        `#${words[0]} tips`,
        ...words.map((w) => `#${w}community`),
      ],
      mixed: ['#fyp', ...words.map((w) => `#${w}`), '#viral', '#foryou', '#extra1', '#extra2'],
      tips: [
        'Post when your audience is online.',
        'This tag gets 2.5M views a day.',
        'Reply to comments in the first hour.',
      ],
    };
  }
  const content = String(input.content ?? '');
  const platforms = (input.platforms as string[] | undefined) ?? [];
  const [first, ...rest] = content.split(/(?<=[.!?])\s+/);
  return {
    platforms: platforms.map((platform) => ({
      platform,
      optimizedCaption: `${first}\n\n${rest.join(' ')} #inlinetag`,
      hashtags: ['#one', '#two', 'three', '#one', '#four', '#five', '#six', '#seven'],
      tips: [`Hook your ${platform} viewers in the first second.`],
    })),
  };
}
