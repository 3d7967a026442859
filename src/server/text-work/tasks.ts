// The text work that can cost more than its length suggests (NLP, Markdown), as plain tasks: run in
// a worker thread by pool.ts, or in this thread when TEXT_WORKERS=0. Each task's input and answer
// are structured-clone data; a refusal is an answer ({ refused }), not a thrown error.
import { createWinkAdapter } from '../adapters/nlp/wink.adapter.js';
import { HASHTAG_LEXICON } from '../lexicon/hashtags/index.js';
import type { ObservedSnapshot } from '../db/repositories/hashtag-observations.repository.js';
import {
  createBuiltinHashtagEngine,
  type HashtagInput,
  type HashtagSuggestion,
} from '../services/hashtag-engine.builtin.js';
import { createBuiltinContentEngine, type PreparedContent } from '../services/content-engine.builtin.js';
import { renderPost, type RenderedPost } from '../services/markdown.js';
import { relayOnly, relaySigner } from '../services/image-relay.js';

export interface TextTasks {
  /** The built-in hashtag engine's suggestion. */
  hashtags: { input: { input: HashtagInput; observed: ObservedSnapshot | null }; output: HashtagSuggestion };
  /** The caption optimiser's reading of a text: hook, body, the creator's tags, suggested tags. */
  prepare: { input: { content: string }; output: PreparedContent };
  /** A blog post rendered and sanitised, its pictures as relay links; `site`: PUBLIC_URL (its links). */
  post: { input: { markdown: string; site?: string }; output: RenderedPost };
}
export type TextTaskKind = keyof TextTasks;
export type TextTask = { [K in TextTaskKind]: { kind: K } & TextTasks[K]['input'] }[TextTaskKind];

/** What a thread needs to run every task: the image relay's secret (to sign a post's pictures). */
export interface TextTaskSetup {
  imageSecret: string;
}

export function createTextTaskRunner(setup: TextTaskSetup): (task: TextTask) => unknown {
  const nlp = createWinkAdapter();
  const hashtags = createBuiltinHashtagEngine({ nlp, lexicon: HASHTAG_LEXICON });
  const content = createBuiltinContentEngine({ nlp, hashtags });
  const relay = relayOnly(relaySigner(setup.imageSecret));
  return (task) => {
    switch (task.kind) {
      case 'hashtags':
        return hashtags.generate(task.input, task.observed);
      case 'prepare':
        return content.prepare(task.content);
      case 'post':
        return renderPost(task.markdown, relay, task.site);
    }
  };
}
