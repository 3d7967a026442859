// Caption optimisation per platform: the language model when configured, with the built-in
// optimiser answering instead when the model is late, wrong or refuses.
import type { Logger } from 'pino';
import type { OptimizeInput, OptimizeResult } from '../../shared/contracts/content.js';
import { LlmError, type LlmClient } from '../adapters/llm/openai-chat.adapter.js';
import { forPlatform, type PreparedContent } from './content-engine.builtin.js';
import { llmOptimize } from './content-engine.llm.js';

export function createContentService(deps: {
  /** The built-in optimiser's reading of a text (run in a text worker thread: text-work/, as `owner`'s work). */
  prepare: (content: string, owner: string) => Promise<PreparedContent>;
  llm: LlmClient | null;
  logger: Pick<Logger, 'warn'>;
}) {
  return {
    /** The built-in optimiser's reading of a text (hook, body, the creator's hashtags), for callers with their own rules. */
    prepare: (content: string, owner: string) => deps.prepare(content, owner),
    /** `owner`: the account asking (the text threads are shared fairly between accounts). */
    async optimize(input: OptimizeInput, owner: string): Promise<OptimizeResult> {
      const prepare = (content: string) => deps.prepare(content, owner);
      if (deps.llm) {
        try {
          return {
            platforms: await llmOptimize(deps.llm, prepare, input.content, input.platforms),
            source: 'llm',
          };
        } catch (err) {
          deps.logger.warn(
            {
              reason: err instanceof LlmError ? err.reason : 'error',
              detail: err instanceof Error ? err.message : String(err),
            },
            'language model optimisation failed; built-in engine answered',
          );
        }
      }
      const prepared = await prepare(input.content);
      return { platforms: input.platforms.map((p) => forPlatform(p, prepared)), source: 'builtin' };
    },
  };
}
export type ContentService = ReturnType<typeof createContentService>;
