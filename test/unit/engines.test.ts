// The README's stated Node.js engine must be true: every locked package accepts the lowest Node
// version package.json promises (an EBADENGINE warning on `npm ci` is a defect).
import fs from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { LOWEST, RUNTIME, runsProduct } from '../../scripts/runtime.mjs';

const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8'));
const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8'));

describe('Node.js engine', () => {
  const lowest = semver.minVersion(pkg.engines.node)!.version;

  it('the README states the engine package.json declares', () => {
    expect(fs.readFileSync('README.md', 'utf8')).toContain(`Node.js ${lowest.replace(/\.0$/, '')}+`);
  });

  it(`every locked package runs on Node ${lowest}`, () => {
    const refused = Object.entries<{ engines?: { node?: string } | string[] }>(lock.packages)
      .filter(([name, p]) => name && p.engines && !Array.isArray(p.engines) && p.engines.node)
      .filter(([, p]) => !semver.satisfies(lowest, (p.engines as { node: string }).node))
      .map(([name, p]) => `${name} wants node ${(p.engines as { node: string }).node}`);
    expect(refused).toEqual([]);
  });

  it('this machine runs a Node the project accepts', () => {
    expect(semver.satisfies(process.version, pkg.engines.node)).toBe(true);
  });

  it('the postinstall fetches a runtime exactly below the engine, and the one it fetches is accepted', () => {
    expect(LOWEST.join('.')).toBe(lowest.replace(/\.0$/, ''));
    expect(runsProduct(`v${lowest}`)).toBe(true);
    expect(runsProduct('v20.20.2')).toBe(false);
    expect(runsProduct(`v${LOWEST[0]}.${LOWEST[1] - 1}.9`)).toBe(false);
    expect(semver.satisfies(RUNTIME.version, pkg.engines.node)).toBe(true);
    expect(semver.satisfies(process.version, pkg.devEngines.runtime.version)).toBe(true);
  });
});
