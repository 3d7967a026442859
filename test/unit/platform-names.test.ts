// A platform is one folder (issue 30, decision 0025): no file of the product (src/) outside
// src/server/platforms/<id>/ names a built-in platform, by id or by name. The exceptions are few and
// listed here with their reason; the founding texts that name the platform are allowed where quoted.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtInPlatforms } from '../../src/server/platforms/registry';
import type { HttpClient } from '../../src/server/adapters/http/index';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** The founding lines that name a platform, copied in (decision 0092; the file's header says from where). */
const SPEC = path.join(ROOT, 'test/fixtures/spec/platform-texts.md');

/**
 * Files that may name a platform, and why. The platform as a *video source* (links, lookups,
 * downloads, errors) lives only in its folder; the platform as a *social network* (a place to post
 * to, a source of trends, a value of the curated list's founding field) is product content.
 */
const ALLOWED_FILES: Array<[RegExp, string]> = [
  [/^src\/server\/platforms\/registry\.ts$/, 'the one list of platforms'],
  [/^src\/server\/platforms\/default\.ts$/, 'the platform of rows, media keys and links made before the seam'],
  [/^src\/server\/config\.ts$/, "the one config: a platform's operator settings are its environment variables"],
  [
    /^src\/(server\/(services\/trends-|adapters\/trends\/)|shared\/contracts\/trends\.ts|client\/pages\/trends-page)/,
    'trends: the social network whose trends are followed (its hashtag list, its newsroom)',
  ],
  [
    /^src\/(shared\/contracts\/trending-videos\.ts|client\/components\/trending\/)/,
    'the curated list: its founding platform values (tiktok, instagram, facebook)',
  ],
  [
    new RegExp(
      '^src/(shared/(platform-limits|contracts/content)\\.ts|server/services/(content|hashtag)-|' +
        'server/services/(hashtag-text|posting-times)\\.ts|server/lexicon/hashtags/|client/pages/content-tools-page)',
    ),
    'the text tools: a network to post to (caption limits, hashtag rules and tags, posting times)',
  ],
  [
    /^src\/shared\/caption-ass\.ts$/,
    'the caption studio: the safe area of the network the captioned video is posted to',
  ],
  [
    /^src\/server\/services\/site-pages\.defaults\.ts$/,
    "the footer pages' default texts (the FAQ says which links work); operators replace them",
  ],
];
/** Lines that may name one anywhere: a trend source's name (its config variable, adapter and table notes). */
const ALLOWED_LINES = [/tiktok[-_ ]?one/i];

/** The founding quoted texts (the hero, the link messages and toasts of decision 0092) that name a platform. */
function specTexts(names: string[]): string[] {
  const spec = fs.readFileSync(SPEC, 'utf8');
  return [...spec.matchAll(/'([^'\n]{6,})'/g)]
    .map((m) => m[1])
    .filter((t) => names.some((n) => t.toLowerCase().includes(n.toLowerCase())));
}

function filesUnder(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    return e.isDirectory() ? filesUnder(rel) : [rel];
  });
}

/** Every line of these files that names one of `names`, outside the platform folders and the allow-lists. */
function mentions(files: string[], read: (file: string) => string, names: string[], folders: string[], spec: string[]) {
  const word = new RegExp(names.map((n) => n.replace(/[^\w]/g, '')).join('|'), 'i');
  const found: string[] = [];
  for (const file of files) {
    if (folders.some((f) => file.startsWith(f)) || ALLOWED_FILES.some(([re]) => re.test(file))) continue;
    read(file)
      .split('\n')
      .forEach((line, i) => {
        if (!word.test(line) || ALLOWED_LINES.some((re) => re.test(line))) return;
        if (spec.some((text) => line.includes(text))) return;
        found.push(`${file}:${i + 1}: ${line.trim().slice(0, 100)}`);
      });
  }
  return found;
}

describe('a platform is one folder', () => {
  const platforms = builtInPlatforms({ http: {} as HttpClient });
  const names = platforms.flatMap((p) => [p.id, p.name]);
  const folders = platforms.map((p) => `src/server/platforms/${p.id}/`);

  it('names no built-in platform outside its folder, except where listed', () => {
    const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
    expect(mentions(filesUnder('src'), read, names, folders, specTexts(names))).toEqual([]);
  });

  it('would catch a mention (the check can fail)', () => {
    const files: Record<string, string> = {
      'src/shared/links.ts': `const hosts = ['www.${platforms[0].id}.com'];\n`,
      'src/client/pages/x-page.tsx': `<p>Paste a ${platforms[0].name} link</p>\n<h1>${specTexts(names)[0]}</h1>\n`,
      [`${folders[0]}link.ts`]: `// ${platforms[0].name}\n`,
      'src/server/services/posting-times.ts': `// ${platforms[0].name}\n`,
    };
    expect(mentions(Object.keys(files), (f) => files[f], names, folders, specTexts(names))).toEqual([
      `src/shared/links.ts:1: const hosts = ['www.${platforms[0].id}.com'];`,
      `src/client/pages/x-page.tsx:1: <p>Paste a ${platforms[0].name} link</p>`,
    ]);
  });

  it('allows the founding texts only verbatim', () => {
    const spec = specTexts(names);
    expect(spec.length).toBeGreaterThan(3);
    for (const text of spec) expect(text.toLowerCase()).toMatch(new RegExp(names.join('|'), 'i'));
  });
});
