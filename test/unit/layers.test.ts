// Imports only look down (issue 43): routes → services → repositories and adapters → lib and shared,
// routes reach services only, and the server's import graph has no circle of more than two files.
// Read from the sources' import statements (type-only ones too: a type is a dependency on its layer).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SRC = path.join(ROOT, 'src');

/** Each folder's layer, lowest first; a file's layer is its longest matching prefix under src/. */
const LAYERS: Array<[prefix: string, rank: number, name: string]> = [
  ['shared/', 0, 'shared'],
  ['server/lib/', 1, 'lib'],
  ['server/lexicon/', 1, 'lib'],
  ['server/errors.ts', 1, 'lib'],
  ['server/config.ts', 1, 'lib'],
  ['server/logger.ts', 1, 'lib'],
  ['server/types.ts', 1, 'lib'],
  ['server/db/', 2, 'repositories'],
  ['server/adapters/', 2, 'adapters'],
  ['server/platforms/', 2, 'adapters'],
  ['server/services/', 3, 'services'],
  // The text pool runs services' own pure functions on other threads: it belongs with them.
  ['server/text-work/', 3, 'services'],
  ['server/jobs/', 3, 'services'],
  ['server/routes/', 4, 'routes'],
  ['server/plugins/', 4, 'routes'],
  ['server/', 5, 'composition'],
  ['client/', 6, 'client'],
];

function layerOf(rel: string): { rank: number; name: string } {
  let best: [string, number, string] | undefined;
  for (const l of LAYERS) if (rel.startsWith(l[0]) && (!best || l[0].length > best[0].length)) best = l;
  if (!best) throw new Error(`no layer for ${rel}`);
  return { rank: best[1], name: best[2] };
}

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else if (/\.(ts|tsx|mts|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
const ALIASES: Record<string, string> = { '@shared/': 'shared/', '@client/': 'client/' };

/** The project files a file imports, as paths relative to src/ (packages are left out). */
function importsOf(file: string): string[] {
  const out: string[] = [];
  for (const m of fs.readFileSync(file, 'utf8').matchAll(IMPORT)) {
    const spec = m[1] ?? m[2];
    let target: string | undefined;
    if (spec.startsWith('.')) target = path.resolve(path.dirname(file), spec);
    for (const [alias, dir] of Object.entries(ALIASES))
      if (spec.startsWith(alias)) target = path.join(SRC, dir, spec.slice(alias.length));
    if (!target) continue;
    const base = target.replace(/\.(m?js|tsx?)$/, '');
    const found = [`${base}.ts`, `${base}.tsx`, `${base}.mts`, `${base}.mjs`, path.join(base, 'index.ts'), target].find(
      (f) => fs.existsSync(f) && fs.statSync(f).isFile(),
    );
    if (found?.startsWith(SRC)) out.push(path.relative(SRC, found).split(path.sep).join('/'));
  }
  return out;
}

const FILES = walk(SRC).map((f) => path.relative(SRC, f).split(path.sep).join('/'));
const GRAPH = new Map(FILES.map((f) => [f, importsOf(path.join(SRC, f))]));

/** Strongly connected components of more than `min` files (Tarjan). */
function circles(files: string[], min: number): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of GRAPH.get(v) ?? []) {
      if (!files.includes(w)) continue;
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > min) found.push(component.sort());
    }
  };
  for (const f of files) if (!idx.has(f)) visit(f);
  return found;
}

describe('layers', () => {
  it('finds the imports it judges (the reader is not blind)', () => {
    expect(GRAPH.get('server/main.ts')).toContain('server/config.ts');
    expect(FILES.filter((f) => f.startsWith('server/routes/')).length).toBeGreaterThan(10);
  });

  it('no file imports a higher layer', () => {
    const upward = FILES.flatMap((f) =>
      (GRAPH.get(f) ?? [])
        .filter((t) => layerOf(t).rank > layerOf(f).rank)
        .map((t) => `${f} (${layerOf(f).name}) imports ${t} (${layerOf(t).name})`),
    );
    expect(upward).toEqual([]);
  });

  it('routes reach services only, never adapters or repositories', () => {
    const skipping = FILES.filter((f) => f.startsWith('server/routes/')).flatMap((f) =>
      (GRAPH.get(f) ?? []).filter((t) => layerOf(t).rank === 2).map((t) => `${f} imports ${t}`),
    );
    expect(skipping).toEqual([]);
  });

  it('only repositories import Drizzle', () => {
    const drizzle = FILES.filter(
      (f) => !f.startsWith('server/db/') && /from\s+['"]drizzle-orm/.test(fs.readFileSync(path.join(SRC, f), 'utf8')),
    );
    expect(drizzle).toEqual([]);
  });

  it('the server has no import circle of more than two files', () => {
    expect(
      circles(
        FILES.filter((f) => f.startsWith('server/')),
        2,
      ),
    ).toEqual([]);
  });
});
