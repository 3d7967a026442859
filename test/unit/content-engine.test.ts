// The built-in caption optimiser: limits, hook placement, hashtag caps, meaning and language kept.
import { describe, expect, it } from 'vitest';
import { createWinkAdapter } from '../../src/server/adapters/nlp/wink.adapter.js';
import { HASHTAG_LEXICON } from '../../src/server/lexicon/hashtags/index.js';
import { createBuiltinHashtagEngine } from '../../src/server/services/hashtag-engine.builtin.js';
import { createBuiltinContentEngine } from '../../src/server/services/content-engine.builtin.js';
import { CONTENT_PLATFORMS } from '../../src/shared/contracts/content.js';
import { PLATFORM_LIMITS } from '../../src/shared/platform-limits.js';
import {
  chatCompletionsUrl,
  type LlmError,
  parseCompletion,
} from '../../src/server/adapters/llm/openai-chat.adapter.js';

const nlp = createWinkAdapter();
const engine = createBuiltinContentEngine({
  nlp,
  hashtags: createBuiltinHashtagEngine({ nlp, lexicon: HASHTAG_LEXICON }),
});
const tagsIn = (caption: string) => caption.match(/#[\p{L}\p{N}_]+/gu) ?? [];

describe('built-in content optimiser', () => {
  const text =
    'Stop scrolling if you love pasta. I tried the viral baked feta pasta and it changed my weeknight dinners. ' +
    'It takes 25 minutes and one dish. Would you try it? #feta #pasta';

  it.each(CONTENT_PLATFORMS)('fits %s: limit, hook first, hashtags within the cap', (platform) => {
    const [r] = engine.optimize(text, [platform]);
    const limits = PLATFORM_LIMITS[platform];
    expect(r.platform).toBe(platform);
    expect(r.characterLimit).toBe(limits.characterLimit);
    expect(r.optimizedCaption.length).toBeLessThanOrEqual(limits.characterLimit);
    const firstLine = r.optimizedCaption.split('\n')[0];
    expect(firstLine).toBe('Stop scrolling if you love pasta.');
    expect(firstLine.length).toBeLessThanOrEqual(limits.visibleFold);
    expect(r.hashtags.length).toBeLessThanOrEqual(limits.hashtagLimit);
    expect(tagsIn(r.optimizedCaption)).toEqual(r.hashtags);
    // The creator's own tags come first, and their words stay in the text.
    expect(r.hashtags.slice(0, 2)).toEqual(['#feta', '#pasta']);
    expect(r.optimizedCaption).toContain('I tried the viral baked feta pasta and it changed my weeknight dinners.');
    expect(r.optimizedCaption).toContain('Would you try it?');
    expect(r.tips.some((t) => /general guidance|no reliable hours/.test(t))).toBe(true);
    expect(r.bestPostingTimes.length).toBeGreaterThan(0);
  });

  it('gives TikTok the study-based posting times, labelled as general guidance', () => {
    const [r] = engine.optimize(text, ['tiktok']);
    expect(r.bestPostingTimes).toContain('Tuesday 4–6 pm');
    expect(r.tips.find((t) => t.startsWith('Posting times'))).toMatch(
      /general guidance from Sprout Social's 2024 study/,
    );
    expect(r.tips).toContain('TikTok and Instagram now allow 5 hashtags per post: we placed 5 at the end.');
  });

  it('cuts 10,000 characters to the limit at a word boundary and says so', () => {
    const long = 'Hoy preparo una receta muy fácil de paella valenciana con arroz y mariscos. '
      .repeat(132)
      .slice(0, 10_000);
    for (const r of engine.optimize(long, [...CONTENT_PLATFORMS])) {
      expect(r.optimizedCaption.length).toBeLessThanOrEqual(r.characterLimit);
      expect(r.optimizedCaption.length).toBeGreaterThan(r.characterLimit - 200);
      expect(r.optimizedCaption).toContain('…');
      expect(r.tips.some((t) => /so the end was cut/.test(t))).toBe(true);
      // Spanish stays Spanish.
      expect(r.optimizedCaption.startsWith('Hoy preparo una receta muy fácil de paella valenciana')).toBe(true);
    }
  });

  it("moves a long opening sentence's first clause in front of the fold", () => {
    const [r] = engine.optimize(
      'My honest review, after three weeks of using the new standing desk every single day at home. Worth it.',
      ['tiktok'],
    );
    expect(r.optimizedCaption.split('\n')[0]).toBe('My honest review');
    expect(r.optimizedCaption).toContain('After three weeks of using the new standing desk');
  });

  it('drops markup and script bodies but keeps the words', () => {
    const [r] = engine.optimize('<p>New <b>recipe</b> day!</p><script>steal()</script> Garlic bread in 10 minutes.', [
      'instagram',
    ]);
    expect(r.optimizedCaption).not.toMatch(/<|>|steal/);
    expect(r.optimizedCaption).toContain('recipe');
    expect(r.optimizedCaption).toContain('Garlic bread in 10 minutes.');
  });
});

describe('chat-completions answers', () => {
  const wrap = (message: Record<string, unknown>, finish = 'stop') =>
    JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }] });

  it('reads JSON content, fenced or not', () => {
    expect(parseCompletion(wrap({ content: '{"a":1}' }))).toEqual({ a: 1 });
    expect(parseCompletion(wrap({ content: 'Here you go:\n```json\n{"a":2}\n```' }))).toEqual({ a: 2 });
    expect(parseCompletion(wrap({ content: [{ type: 'text', text: '{"a":3}' }] }))).toEqual({ a: 3 });
  });

  it('names refusals and malformed answers', () => {
    const reason = (body: string) => {
      try {
        parseCompletion(body);
      } catch (err) {
        return (err as LlmError).reason;
      }
      return 'none';
    };
    expect(reason(wrap({ content: null, refusal: "I can't help with that." }))).toBe('refusal');
    expect(reason(wrap({ content: '' }, 'content_filter'))).toBe('refusal');
    expect(reason(wrap({ content: '{"a": [1, 2' }))).toBe('malformed');
    expect(reason('<html>502 Bad Gateway</html>')).toBe('malformed');
    expect(reason(JSON.stringify({ choices: [] }))).toBe('malformed');
  });

  it('builds the endpoint from the base URL', () => {
    expect(chatCompletionsUrl('https://api.openai.com/v1')).toBe('https://api.openai.com/v1/chat/completions');
    expect(chatCompletionsUrl('http://localhost:11434/v1/')).toBe('http://localhost:11434/v1/chat/completions');
    expect(chatCompletionsUrl('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080/v1/chat/completions');
    expect(chatCompletionsUrl('https://openrouter.ai/api/v1')).toBe('https://openrouter.ai/api/v1/chat/completions');
  });
});
