// `npm run bench`: every benchmark under bench/ in turn, or those named (`npm run bench -- remux slideshow`).
// Each runs in its own process so one's servers and timers never weigh on the next one's numbers.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const dir = import.meta.dirname;
const all = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .sort();
const wanted = process.argv.slice(2);
const chosen = wanted.length ? all.filter((f) => wanted.includes(f.replace(/\.bench\.ts$/, ''))) : all;
if (wanted.length && chosen.length !== wanted.length) {
  console.error(`Unknown benchmark. Choose from: ${all.map((f) => f.replace(/\.bench\.ts$/, '')).join(', ')}`);
  process.exit(2);
}
let failed = 0;
for (const file of chosen) {
  console.log(`\n## ${file}`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, file)], { stdio: 'inherit' });
  if (run.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
