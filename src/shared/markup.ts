// Markup removed from text another server sent (captions, feeds, a language model's answer), each in
// one pass: the regexes these replace (`/<[^>]*>/g`, `/<(script|style)[\s\S]*?<\/\1>/gi`) rescan
// to the end from every unclosed `<` or `<script`, seconds for 100 KB of `<` (issue 42).

/**
 * Every tag replaced by `by`, as `replace(/<[^>]*>/g, by)` would (with `tagLike`, only a `<` followed
 * by a letter, `/` or `!` starts one, as `/<\/?[a-zA-Z!][^>]*>/g`). A `<` with no `>` after it is no
 * tag, and neither is any later `<`: the rest is kept as it is.
 */
export function stripTags(text: string, by = '', opts: { tagLike?: boolean } = {}): string {
  const letter = (c: string | undefined) => c !== undefined && /[a-zA-Z!]/.test(c);
  const startsTag = (i: number) => letter(text[i + 1]) || (text[i + 1] === '/' && letter(text[i + 2]));
  let out = '';
  let kept = 0;
  for (let open = text.indexOf('<'); open >= 0; ) {
    if (opts.tagLike && !startsTag(open)) {
      open = text.indexOf('<', open + 1);
      continue;
    }
    const close = text.indexOf('>', open + 1);
    if (close < 0) break;
    out += text.slice(kept, open) + by;
    kept = close + 1;
    open = text.indexOf('<', kept);
  }
  return kept === 0 ? text : out + text.slice(kept);
}

/**
 * `<script...</script>` and `<style...</style>` (any case) each replaced by `by`, as
 * `replace(/<(script|style)[\s\S]*?<\/\1>/gi, by)` would; an unclosed one stays.
 */
export function stripCode(html: string, by = ' '): string {
  const opens = /<(script|style)/gi;
  // Per name, the first closing tag at or after `from` (-1: none): searches only move forward.
  const closes = {
    script: { re: /<\/script>/gi, from: -1, at: -1, length: 0 },
    style: { re: /<\/style>/gi, from: -1, at: -1, length: 0 },
  };
  let out = '';
  let kept = 0;
  for (let m = opens.exec(html); m; m = opens.exec(html)) {
    const close = closes[m[1].toLowerCase() as keyof typeof closes];
    const bodyStart = m.index + m[0].length;
    if (close.from < 0 || (close.at >= 0 && close.at < bodyStart)) {
      close.re.lastIndex = bodyStart;
      close.from = bodyStart;
      const found = close.re.exec(html);
      close.at = found?.index ?? -1;
      close.length = found?.[0].length ?? 0;
    }
    if (close.at < 0) continue; // unclosed: left to the tag step, as the regex left it
    out += html.slice(kept, m.index) + by;
    kept = close.at + close.length;
    opens.lastIndex = kept;
  }
  return kept === 0 ? html : out + html.slice(kept);
}
