// `npm run bench -- attacks` (issue 42): each attack in bench/attacks/*.attack.ts runs against the built
// server while a separate client asks `/api/health`; the goal is a p99 under 100 ms during each one.
// An attack module's default export starts what it needs, attacks, stops it and returns its figures.
import fs from 'node:fs';
import path from 'node:path';
import type { AttackResult } from './attacks/health-probe.js';

const dir = path.join(import.meta.dirname, 'attacks');
const wanted = process.env.ATTACKS?.split(',');
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.attack.ts'))
  .filter((f) => !wanted || wanted.includes(f.replace(/\.attack\.ts$/, '')))
  .sort();
const results: AttackResult[] = [];
for (const file of files) {
  const run = (await import(path.join(dir, file))).default as () => Promise<AttackResult>;
  const result = await run();
  results.push(result);
  console.log(
    `${result.name}: /api/health p99 ${result.attackP99Ms.toFixed(0)} ms under attack, ` +
      `${result.restP99Ms.toFixed(0)} ms at rest${result.notes ? `; ${result.notes}` : ''}`,
  );
}
const over = results.filter((r) => !(r.attackP99Ms < 100));
console.log(`\n${results.length - over.length} of ${results.length} attacks kept /api/health p99 under 100 ms`);
process.exit(over.length ? 1 : 0);
