// Keeps docs/architecture.md honest: every file and type it names in backticks exists.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DOC = fs.readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
const ROOTS = ['src', 'test', 'scripts', 'bench', 'docs', 'migrations'];
const FILE = /^[\w@.-]+(\/[\w@.-]+)*\.(ts|tsx|mjs|js|json|md|sql|css|html|webmanifest|sh)$/;

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else out.push(path.relative(ROOT, full).split(path.sep).join('/'));
  }
  return out;
}
const FILES = ROOTS.filter((r) => fs.existsSync(path.join(ROOT, r))).flatMap((r) => walk(path.join(ROOT, r)));
// The checkout's own top-level files (vite.config.ts, biome.json...) are named too.
const TOP_FILES = fs
  .readdirSync(ROOT, { withFileTypes: true })
  .filter((e) => e.isFile())
  .map((e) => e.name);

/** Inline code spans on one line (fenced blocks are examples, not references). */
function codeSpans(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '');
  return [...prose.matchAll(/`([^`\n]+)`/g)].map((m) => m[1].trim());
}

/**
 * A file the doc names: from the repository root when it starts with a top folder, else as a path's
 * tail; a build output (`dist/...`) by the source it is built from.
 */
function fileExists(ref: string, files: readonly string[] = FILES): boolean {
  if (ref.startsWith('dist/')) {
    const source = ref.replace(/^dist\//, 'src/');
    return [source, source.replace(/\.js$/, '.ts')].some((f) => files.includes(f));
  }
  const top = ref.split('/')[0];
  if (ROOTS.includes(top)) return files.includes(ref);
  if (!ref.includes('/') && TOP_FILES.includes(ref)) return true;
  return files.some((f) => f === ref || f.endsWith(`/${ref}`));
}

const fileRefs = [...new Set(codeSpans(DOC).filter((s) => FILE.test(s)))];
const typeRefs = [...new Set(codeSpans(DOC).filter((s) => /^[A-Z][a-z]+(?:[A-Z][a-z0-9]*)+(?:<\w+>)?$/.test(s)))];
const SOURCES = FILES.filter((f) => /\.(ts|tsx)$/.test(f) && (f.startsWith('src/') || f.startsWith('test/')))
  .map((f) => fs.readFileSync(path.join(ROOT, f), 'utf8'))
  .join('\n');

describe('docs/architecture.md', () => {
  it('names files that exist', () => {
    expect(fileRefs.length).toBeGreaterThan(50); // the doc's references were found at all
    expect(fileRefs.filter((ref) => !fileExists(ref))).toEqual([]);
  });

  it('names types that are declared in the code', () => {
    expect(typeRefs.length).toBeGreaterThan(5);
    const missing = typeRefs
      .map((t) => t.replace(/<.*$/, ''))
      .filter((t) => !new RegExp(`\\b(interface|type|class|enum|function|const)\\s+${t}\\b`).test(SOURCES));
    expect(missing).toEqual([]);
  });

  it('tells a missing file from a present one, by full path and by tail', () => {
    const files = ['src/server/routes/video.routes.ts', 'docs/architecture.md'];
    expect(fileExists('src/server/routes/video.routes.ts', files)).toBe(true);
    expect(fileExists('routes/video.routes.ts', files)).toBe(true);
    expect(fileExists('adapters/trends/item-struct.ts', files)).toBe(false);
    expect(fileExists('src/video.routes.ts', files)).toBe(false); // a top folder is never a tail
    expect(fileExists('outes/video.routes.ts', files)).toBe(false); // tails start at a folder boundary
    expect(fileExists('dist/server/routes/video.routes.js', files)).toBe(true); // built from its source
    expect(fileExists('dist/server/main.js', files)).toBe(false);
  });
});
