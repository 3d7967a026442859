// Hashtag generation: the language model when configured, the built-in engine otherwise or when
// the model is late, wrong or refuses. Every answer says which engine produced it.
import type { Logger } from 'pino';
import type { HashtagResult } from '../../shared/contracts/hashtags.js';
import { LlmError, type LlmClient } from '../adapters/llm/openai-chat.adapter.js';
import type {
  HashtagObservationsRepository,
  ObservedSnapshot,
} from '../db/repositories/hashtag-observations.repository.js';
import type { HashtagInput, HashtagSuggestion } from './hashtag-engine.builtin.js';
import { llmHashtags } from './hashtag-engine.llm.js';

export interface HashtagServiceDeps {
  /** The built-in engine's suggestion (run in a text worker thread: text-work/, as `owner`'s work). */
  builtin: (input: HashtagInput, observed: ObservedSnapshot | null, owner: string) => Promise<HashtagSuggestion>;
  llm: LlmClient | null;
  observations: Pick<HashtagObservationsRepository, 'snapshot'>;
  logger: Pick<Logger, 'warn'>;
  /** How long one read of the observed hashtags is reused (per node). */
  cacheMs?: number;
  windowDays?: number;
}

export function createHashtagService(deps: HashtagServiceDeps) {
  const cacheMs = deps.cacheMs ?? 60_000;
  const windowDays = deps.windowDays ?? 30;
  let cached: { at: number; value: Promise<ObservedSnapshot | null> } | null = null;

  /** Observed hashtags, read at most once per cacheMs; a database hiccup means "no data", not an error. */
  function observed(): Promise<ObservedSnapshot | null> {
    const now = Date.now();
    if (!cached || now - cached.at >= cacheMs) {
      const value = deps.observations.snapshot({ windowDays, limit: 300 }).catch((err: unknown) => {
        deps.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'observed hashtags unavailable');
        cached = null;
        return null;
      });
      cached = { at: now, value };
    }
    return cached.value;
  }

  return {
    /** `owner`: the account asking (the text threads are shared fairly between accounts). */
    async generate(input: HashtagInput, owner: string): Promise<HashtagResult> {
      const snapshot = await observed();
      const builtin = await deps.builtin(input, snapshot, owner);
      if (!deps.llm) return { ...builtin, source: 'builtin' };
      try {
        return { ...(await llmHashtags(deps.llm, input, builtin, snapshot)), source: 'llm' };
      } catch (err) {
        deps.logger.warn(
          {
            reason: err instanceof LlmError ? err.reason : 'error',
            detail: err instanceof Error ? err.message : String(err),
          },
          'language model hashtags failed; built-in engine answered',
        );
        return { ...builtin, source: 'builtin' };
      }
    },
    /** Forgets the cached observations (tests, and after a bulk import). */
    refreshObserved() {
      cached = null;
    },
  };
}
export type HashtagService = ReturnType<typeof createHashtagService>;
