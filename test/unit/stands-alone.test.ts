// The repository stands alone (issue 35): a clone with nothing beside it runs its own tests. No
// source, test, bench or script names a path outside the checkout, nor the founding material
// (its specification, decisions, notes and fixtures) that lives beside it on our machines only; what a test needs is copied
// under test/fixtures with a line saying where it came from.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SELF = path.relative(ROOT, import.meta.filename);
const CODE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
/** The folder beside the checkout that holds the founding material on our machines (never in a clone). */
const BESIDE = 'shared';
/** The founding material's names: a path literal holding one reads what a clone does not have. */
const FOUNDING = new RegExp(String.raw`(^|[/\\])(${BESIDE}[/\\](fixtures|research)|SPEC\.md|DECISIONS\.md)|/work/`);

function codeFiles(dir: string): string[] {
  if (!fs.existsSync(path.join(ROOT, dir))) return [];
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory()) return dir === '' ? [] : codeFiles(rel);
    return CODE.test(e.name) ? [rel] : [];
  });
}

/** The string and template literals of a file (comments and code aside). */
function literals(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node))
      found.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** `file: literal` for each literal of `text` that leads outside the checkout. */
function outsideReads(file: string, text: string): string[] {
  const dir = path.dirname(path.join(ROOT, file));
  return literals(file, text)
    .filter((s) => {
      if (FOUNDING.test(s)) return true;
      // A relative path climbing out of the checkout from the file's folder.
      return /^\.\.([/\\]|$)/.test(s) && path.relative(ROOT, path.resolve(dir, s)).startsWith('..');
    })
    .map((s) => `${file}: ${s}`);
}

describe('the repository stands alone', () => {
  it('no source, test, bench, script or config file names a path outside the checkout', () => {
    const files = ['', 'src', 'test', 'bench', 'scripts'].flatMap(codeFiles).filter((f) => f !== SELF);
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((f) => outsideReads(f, fs.readFileSync(path.join(ROOT, f), 'utf8')));
    expect(found).toEqual([]);
  });

  it("package.json's scripts stay inside the checkout", () => {
    const { scripts } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const outside = Object.entries(scripts).filter(([, command]) =>
      new RegExp(String.raw`(^|\s|=)\.\./|/work/|${BESIDE}/`).test(command),
    );
    expect(outside).toEqual([]);
  });

  it('would catch a read outside (the check can fail)', () => {
    const text = [
      `const a = path.resolve(import.meta.dirname, '../../../${BESIDE}/fixtures/tiktok');`,
      `const b = path.resolve(ROOT, '../${BESIDE}/SPEC.md');`,
      // a template with a placeholder: its head is read
      'const c = `../../../other/$' + '{name}`;',
      `const d = '../fixtures/tiktok'; // '../../../${BESIDE}/fixtures' in a comment is fine`,
      "import { x } from '../../src/server/app';",
      `const e = fs.readFileSync('/work/${BESIDE}/DECISIONS.md');`,
    ].join('\n');
    expect(outsideReads('test/unit/x.test.ts', text)).toEqual([
      `test/unit/x.test.ts: ../../../${BESIDE}/fixtures/tiktok`,
      `test/unit/x.test.ts: ../${BESIDE}/SPEC.md`,
      'test/unit/x.test.ts: ../../../other/',
      `test/unit/x.test.ts: /work/${BESIDE}/DECISIONS.md`,
    ]);
  });
});
