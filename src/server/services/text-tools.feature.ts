// Wires the hashtag generator and the content optimiser (issue 6): the built-in engines in the text
// worker threads (text-work/, issue 34), the optional language model, and both services. Called
// once from context.ts.
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { createOpenAiChatClient, type LlmClient } from '../adapters/llm/openai-chat.adapter.js';
import type { HashtagObservationsRepository } from '../db/repositories/hashtag-observations.repository.js';
import type { TextWork } from '../text-work/pool.js';
import { createHashtagService } from './hashtag.service.js';
import { createContentService } from './content.service.js';

/** The language model when LLM_* is set (config.ts checked that all three come together). */
export function llmFromConfig(
  config: Pick<Config, 'LLM_BASE_URL' | 'LLM_API_KEY' | 'LLM_MODEL' | 'LLM_TIMEOUT_MS'>,
): LlmClient | null {
  if (!config.LLM_BASE_URL || !config.LLM_API_KEY || !config.LLM_MODEL) return null;
  return createOpenAiChatClient({
    baseUrl: config.LLM_BASE_URL,
    apiKey: config.LLM_API_KEY,
    model: config.LLM_MODEL,
    timeoutMs: config.LLM_TIMEOUT_MS,
  });
}

export function createTextToolsFeature(
  config: Config,
  deps: { observations: HashtagObservationsRepository; logger: Logger; text: Pick<TextWork, 'run'> },
  overrides: { llm?: LlmClient | null } = {},
) {
  const { logger, text } = deps;
  const llm = overrides.llm !== undefined ? overrides.llm : llmFromConfig(config);
  return {
    hashtags: createHashtagService({
      builtin: (input, observed, owner) => text.run('hashtags', { input, observed }, owner),
      llm,
      observations: deps.observations,
      logger,
    }),
    content: createContentService({
      prepare: (content, owner) => text.run('prepare', { content }, owner),
      llm,
      logger,
    }),
  };
}
