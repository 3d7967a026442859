// What a comment cites, a reader of the repository can open (issue 43, decision 0092): no comment in
// src, test, bench or scripts cites the founding specification, decisions or research notes (they
// are not in the repository); every repository file a comment names exists; every decision number
// it names has its record in docs/decisions (read at run time, so records merged later count); and
// a heading it quotes after "decision 0092" or "docs/sources.md" is a heading of that document.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SELF = path.relative(ROOT, import.meta.filename);
const CODE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const DIRS = ['src', 'test', 'bench', 'scripts'];

function walk(dir: string): string[] {
  if (!fs.existsSync(path.join(ROOT, dir))) return [];
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    if (e.name === 'node_modules' || e.name.startsWith('.')) return [];
    const rel = `${dir}/${e.name}`;
    return e.isDirectory() ? walk(rel) : [rel];
  });
}
const ALL_FILES = new Set(['', ...DIRS, 'docs', 'migrations'].flatMap((d) => (d ? walk(d) : topFiles())));
function topFiles(): string[] {
  return fs
    .readdirSync(ROOT, { withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);
}
const FOLDERS = new Set([...ALL_FILES].flatMap((f) => f.split('/').map((_, i, parts) => parts.slice(0, i).join('/'))));
const BASENAMES = new Set([...ALL_FILES].map((f) => path.posix.basename(f)));

/** Every comment of a source file: the parser says where strings, regexes and JSX text are, the rest is read in order. */
function comments(file: string, text: string): string[] {
  const kind = file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const TEXT = new Set([
    ts.SyntaxKind.StringLiteral,
    ts.SyntaxKind.NoSubstitutionTemplateLiteral,
    ts.SyntaxKind.TemplateHead,
    ts.SyntaxKind.TemplateMiddle,
    ts.SyntaxKind.TemplateTail,
    ts.SyntaxKind.RegularExpressionLiteral,
    ts.SyntaxKind.JsxText,
  ]);
  const literals: Array<[number, number]> = [];
  const visit = (node: ts.Node) => {
    if (TEXT.has(node.kind)) literals.push([node.getStart(source), node.end]);
    ts.forEachChild(node, visit);
  };
  visit(source);
  literals.sort((a, b) => a[0] - b[0]);
  const found: string[] = [];
  let next = 0; // the first literal not yet passed
  for (let i = text.indexOf('/'); i !== -1 && i < text.length; i = text.indexOf('/', i)) {
    while (next < literals.length && literals[next][1] <= i) next++;
    if (next < literals.length && literals[next][0] <= i) {
      i = literals[next][1];
      continue;
    }
    const end =
      text[i + 1] === '/' ? text.indexOf('\n', i) : text[i + 1] === '*' ? text.indexOf('*/', i + 2) + 2 : i + 1;
    const stop = end === -1 || end === 1 ? text.length : end;
    if (stop > i + 1) found.push(text.slice(i, stop).trimEnd());
    i = stop;
  }
  return found;
}

/** Citations of the founding material, which is not in the repository. */
const FOUNDING = /\bSPEC\b|\bDECISIONS\b|\bresearch(\/|: ?|\/\w+\/)[\w.-]*\.md\b/;
/** A repository file named in prose: folders and a name with one of our extensions. */
const FILE_REF =
  /(?<![\w@./-])((?:\.{1,2}\/)*(?:[\w@-][\w@.-]*\/)*[\w@-][\w@.-]*\.(?:ts|tsx|mts|js|mjs|cjs|json|md|sql|css|html|sh))(?![\w/])/g;
/** The project's npm packages whose names look like files (`ipaddr.js`). */
const PACKAGES = (() => {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const names = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).filter((n) => /\.\w+$/.test(n));
  return names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|') || '(?!)';
})();
/** What is not a repository path: a URL, an npm package or its file, a product (Node.js). */
const NOT_OURS = new RegExp(
  String.raw`\b[a-z][\w+.-]*:\/\/\S+|\bnode_modules\/\S+|\b[A-Z][A-Za-z]*\.js\b|(?<![\w@./-])(?:${PACKAGES})(?![\w/])`,
  'g',
);
/** Code files: a bare name of one (`item-mapper.ts`) must exist somewhere; other bare names may be data files. */
const CODE_REF = /\.(ts|tsx|mts|js|mjs|cjs)$/;
/** The files the build writes (`server.js`), by the entry points scripts/build.mjs names. */
const BUILT = new Set(
  [
    ...fs
      .readFileSync(path.join(ROOT, 'scripts/build.mjs'), 'utf8')
      .matchAll(/^\s*'?([\w-]+)'?: path\.join\(root, 'src\//gm),
  ].map((m) => `${m[1]}.js`),
);

/** Whether `ref`, named in a comment of `file`, is a file of the repository. */
function fileExists(file: string, ref: string, files = ALL_FILES, basenames = BASENAMES): boolean {
  const dir = path.posix.dirname(file);
  const bases = [dir, '', 'src/server', 'src/client', 'src/shared', 'src', 'test'];
  // An ESM import names the built .js of a .ts or .tsx source; dist/ is built from src/.
  const forms = (p: string) => [p, p.replace(/\.js$/, '.ts'), p.replace(/\.js$/, '.tsx'), p.replace(/^dist\//, 'src/')];
  const candidates = bases.flatMap((b) => forms(path.posix.normalize(path.posix.join(b, ref))));
  if (candidates.some((c) => files.has(c) || files.has(c.replace(/^dist\//, 'src/').replace(/\.js$/, '.ts'))))
    return true;
  // A bare name (`item-mapper.ts`) is a file of the repository somewhere.
  return !ref.includes('/') && (BUILT.has(ref) || !CODE_REF.test(ref) || forms(ref).some((f) => basenames.has(f)));
}

const HEADINGS = new Map<string, Set<string>>();
function headings(doc: string): Set<string> {
  if (!HEADINGS.has(doc)) {
    const text = fs.readFileSync(path.join(ROOT, doc), 'utf8');
    HEADINGS.set(doc, new Set([...text.matchAll(/^#{2,4} (.+)$/gm)].map((m) => m[1].trim())));
  }
  return HEADINGS.get(doc) ?? new Set();
}
const DECISIONS_DIR = path.join(ROOT, 'docs/decisions');
const DECISION_NUMBERS = new Set(fs.readdirSync(DECISIONS_DIR).map((f) => f.slice(0, 4)));
const HEADED_DOCS: Array<[RegExp, string]> = [
  [/\bdecision 0092\b/gi, 'docs/decisions/0092-founding-requirements.md'],
  [/\bdocs\/sources\.md\b/g, 'docs/sources.md'],
];

/** `file: problem` for each citation in the comments of `file` that a reader cannot follow. */
function problems(
  file: string,
  text: string,
  known = { files: ALL_FILES, basenames: BASENAMES, decisions: DECISION_NUMBERS, folders: FOLDERS },
): string[] {
  const found: string[] = [];
  for (const raw of comments(file, text)) {
    // One line of prose: comment markers gone, lines joined.
    const c = raw
      .replace(/^\/\*+|\*+\/$/g, '')
      .replace(/^\s*(\/\/+|\*)/gm, '')
      .replace(/\s*\n\s*/g, ' ');
    const founding = c.match(FOUNDING);
    if (founding) found.push(`${file}: cites the founding material ("${founding[0]}")`);
    for (const m of c.replace(NOT_OURS, ' ').matchAll(FILE_REF)) {
      const ref = m[1];
      // A path inside another project (`owner/repo path`, `yt_dlp/...`) is that project's, not ours: only paths
      // starting at one of our folders, relative paths and bare names are checked.
      const top = ref.replace(/^(\.{1,2}\/)+/, '').split('/')[0];
      const ours =
        !ref.includes('/') ||
        ref.startsWith('.') ||
        known.folders.has(top) ||
        /^(lib|services|routes|adapters|db|platforms|components|pages|hooks|plugins|contracts|fakes|helpers|fixtures|unit|integration|e2e|attacks|jobs|media|workers?)$/.test(
          top,
        );
      if (ours && !fileExists(file, ref, known.files, known.basenames))
        found.push(`${file}: names a missing file ${ref}`);
    }
    for (const m of c.matchAll(/\bdecisions?\s+((?:\d{4}\b(?:\s*(?:,|and|&|\/|or)\s*)?)+)/gi)) {
      for (const n of m[1].match(/\d{4}/g) ?? []) {
        if (!known.decisions.has(n)) found.push(`${file}: names decision ${n}, which has no record`);
      }
    }
    found.push(...headingProblems(file, c));
  }
  return found;
}

/** The quoted names right after "decision 0092" or "docs/sources.md", up to the end of the clause, that are not its headings. */
function headingProblems(file: string, prose: string): string[] {
  const found: string[] = [];
  for (const [cite, doc] of HEADED_DOCS) {
    for (const m of prose.matchAll(cite)) {
      const clause = prose.slice(m.index + m[0].length).split(/[():;]|\.(\s|$)/)[0] ?? '';
      const names = [...clause.matchAll(/'([^']+)'/g)].map((q) => q[1]);
      const have = headings(doc);
      for (const name of names) if (!have.has(name)) found.push(`${file}: cites "${name}", not a heading of ${doc}`);
    }
  }
  return found;
}

describe('comments cite what the repository holds', () => {
  it('no comment cites the founding material, a missing file, a missing decision or a missing heading', () => {
    const files = DIRS.flatMap(walk).filter((f) => CODE.test(f) && f !== SELF);
    expect(files.length).toBeGreaterThan(200);
    const found = files.flatMap((f) => problems(f, fs.readFileSync(path.join(ROOT, f), 'utf8')));
    expect(found).toEqual([]);
  });

  it('the docs cite no founding material either, and only headings that exist', () => {
    const docs = ['README.md', ...walk('docs').filter((f) => f.endsWith('.md'))];
    expect(docs.length).toBeGreaterThan(50);
    const found = docs.flatMap((f) => {
      const text = fs.readFileSync(path.join(ROOT, f), 'utf8').replace(/\s*\n\s*/g, ' ');
      const founding = text.match(FOUNDING);
      return [
        ...(founding ? [`${f}: cites the founding material ("${founding[0]}")`] : []),
        ...headingProblems(f, text),
      ];
    });
    expect(found).toEqual([]);
  });

  it('reads comments, not strings, regexes or JSX text', () => {
    const text = [
      '// one',
      "const a = '// not a comment'; /* two */",
      'const r = /\\/\\/ no/; const t = `/* no */`;',
      'const j = <p>// no {/* three */}</p>;',
      'call(a, // four',
      '  // five',
      ');',
    ].join('\n');
    expect(comments('x.tsx', text)).toEqual(['// one', '/* two */', '/* three */', '// four', '// five']);
  });

  it('would catch each kind of broken citation (the check can fail)', () => {
    const known = {
      files: new Set([
        'src/server/lib/foo.ts',
        'src/server/services/x.service.ts',
        'docs/decisions/0092-founding-requirements.md',
      ]),
      basenames: new Set(['foo.ts', 'x.service.ts']),
      decisions: new Set(['0092']),
      folders: new Set(['', 'src', 'src/server', 'src/server/lib', 'src/server/services', 'docs', 'docs/decisions']),
    };
    const text = [
      '// SPEC 5 says so; DECISIONS 3 too; research/tiktok.md §6. SPECIAL is a name, not a citation.',
      '// As the research: offline-media-and-speech.md note says.',
      '// lib/foo.ts and services/x.service.ts exist, as does ./lib/foo.js from src/server; lib/gone.ts does not.',
      '// foo.ts exists, old-name.ts does not; faq.md is an operator file, server.js a built one; Node.js a product.',
      '// decision 0092 exists, decisions 0099 and 0092 half do; see docs/decisions/0099-x.md.',
      "// decision 0092 'No such heading', like https://example.com/a/b.ts and cobalt's api/src/services/tiktok.js.",
      "// decision 0092 'Constants' is a heading.",
    ].join('\n');
    expect(problems('src/server/app.ts', text, known)).toEqual([
      'src/server/app.ts: cites the founding material ("SPEC")',
      'src/server/app.ts: cites the founding material ("research: offline-media-and-speech.md")',
      'src/server/app.ts: names a missing file lib/gone.ts',
      'src/server/app.ts: names a missing file old-name.ts',
      'src/server/app.ts: names a missing file docs/decisions/0099-x.md',
      'src/server/app.ts: names decision 0099, which has no record',
      'src/server/app.ts: cites "No such heading", not a heading of docs/decisions/0092-founding-requirements.md',
    ]);
  });
});
