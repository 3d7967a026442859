// The bounds that keep text work linear (issue 34, decision 0041): what wink reads, the closing
// hashtag block, and the Markdown caps. The timings themselves are in test/security/costly-text.test.ts.
import { describe, expect, it } from 'vitest';
import { createWinkAdapter, nlpSafeText } from '../../src/server/adapters/nlp/wink.adapter.js';
import { dropTrailingTags } from '../../src/server/services/content-engine.builtin.js';
import { MAX_PIECES, renderPost } from '../../src/server/services/markdown.js';

describe('nlpSafeText', () => {
  it('keeps the length, short runs and the letters of long runs; blanks long links', () => {
    const link = `https://example.com/${'a'.repeat(40)}`;
    const cjk =
      '今日は美味しいパスタを作りました、とても簡単です。本当に美味しかったので皆さんもぜひ作ってみてください';
    const text = `Hi http://x.y ${link} ${'!'.repeat(50)} ${cjk}\u00a0end`;
    const safe = nlpSafeText(text);
    expect(safe).toHaveLength(text.length);
    expect(safe.startsWith('Hi http://x.y ')).toBe(true);
    expect(safe).not.toContain('example');
    expect(safe).not.toContain('!');
    expect(safe).toContain('今日は美味しいパスタを作りました とても簡単です ');
    expect(safe.endsWith(' end')).toBe(true);
  });

  it('leaves sentences as written, cut where wink found them in the safe text', () => {
    const nlp = createWinkAdapter();
    const url = `https://example.com/${'a'.repeat(60)}`;
    expect(nlp.sentences(`Watch this. Then go to ${url} now! Done.`)).toEqual([
      'Watch this.',
      `Then go to ${url} now!`,
      'Done.',
    ]);
  });
});

describe('dropTrailingTags', () => {
  it.each([
    ['Love it #pasta #food', 'Love it'],
    ['Love it\n\n#pasta\n#food  ', 'Love it'],
    ['love#pasta#food', 'love'],
    ['#only #tags', ''],
    ['a##b', 'a#'],
    ['ends with #a!', 'ends with #a!'],
    ['no tags at all', 'no tags at all'],
  ])('%j -> %j', (text, kept) => {
    expect(dropTrailingTags(text).trim()).toBe(kept);
  });
});

describe('renderPost', () => {
  const relay = (src: string) => (src.startsWith('https://') ? `/api/images?u=${encodeURIComponent(src)}` : null);

  it('refuses nesting past the cap and too many pieces, rather than cutting', () => {
    expect(renderPost('> '.repeat(50_000), relay)).toEqual({ refused: 'too_deep' });
    expect(renderPost('> 1. '.repeat(20), relay)).toEqual({ refused: 'too_deep' });
    expect(renderPost('*a'.repeat(MAX_PIECES), relay)).toEqual({ refused: 'too_complex' });
    const ok = renderPost(`${'> '.repeat(10)}deep enough\n\n*fine*`, relay);
    expect('html' in ok && ok.html).toContain('deep enough');
  });

  it("gives pictures only relay links, never this site's own paths", () => {
    const out = renderPost('![a](/api/video/download?url=x) ![b](https://pics.example/b.png)', relay);
    if (!('html' in out)) throw new Error('refused');
    expect(out.html).not.toContain('/api/video');
    expect(out.html).toContain('src="/api/images?u=https%3A%2F%2Fpics.example%2Fb.png"');
    expect(out.summary).toBe('');
  });
});
