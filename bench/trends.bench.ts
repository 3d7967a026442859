// Trends analysis speed: `npx tsx bench/trends.bench.ts [observations] [pglite|postgres]`
// (postgres: a fresh database on TEST_DATABASE_URL's server, dropped afterwards).
// Seeds N first-party observations over 14 days plus a TikTok One snapshot and news into an
// in-memory PGlite, then times (median of runs) against a baseline measured in this same process:
// the plain read of every 14-day observation row (what a build that aggregated in JS would need).
import pino from 'pino';
import { openPglite, openPostgres } from '../src/server/db/client.js';
import { createPostgresDatabase } from '../test/helpers/test-db.js';
import { createTrendsRepository } from '../src/server/db/repositories/trends.repository.js';
import { createTrendsAnalysisService } from '../src/server/services/trends-analysis.service.js';
import { fixtureHashtagItems } from '../test/fakes/fake-trend-sources.js';
import { parseHashtagList } from '../src/server/adapters/trends/tiktok-one.adapter.js';

const N = Number(process.argv[2] ?? 20_000);
const KIND = process.argv[3] === 'postgres' ? 'postgres' : 'pglite';
const RUNS = 7;
const DAY = 86_400_000;

async function median(fn: () => Promise<unknown> | unknown, runs = RUNS): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
}

const pgDb = KIND === 'postgres' ? await createPostgresDatabase() : null;
const database = pgDb ? await openPostgres(pgDb.url) : await openPglite('memory://');
const repo = createTrendsRepository(database.db);
const tags = [
  'dance',
  'recipe',
  'cats',
  'ootd',
  'fyp',
  'comedy',
  'learnontiktok',
  'travel',
  'music',
  'gaming',
  'skincare',
  'dogsoftiktok',
];
const now = Date.now();
const rows = Array.from({ length: N }, (_, i) => ({
  videoId: String(7_000_000_000 + (i % Math.max(1, Math.floor(N * 0.7)))), // some videos seen twice
  description: `Video ${i} #${tags[i % tags.length]} #${tags[(i * 7) % tags.length]}`,
  author: `creator${i % 500}`,
  authorFollowers: 1000 + (i % 500) * 37,
  hashtags: [tags[i % tags.length], tags[(i * 7) % tags.length]],
  musicId: `m${i % 300}`,
  musicTitle: `Sound ${i % 300}`,
  musicAuthor: `Artist ${i % 120}`,
  musicDuration: 15 + (i % 60),
  plays: 1000 + ((i * 7919) % 500_000),
  likes: 50 + ((i * 104729) % 40_000),
  observedAt: new Date(now - ((i * 3_600_000 * 7) % (14 * DAY))),
}));
for (let i = 0; i < rows.length; i += 1000) await repo.recordObservations(rows.slice(i, i + 1000));
const parsed = parseHashtagList(200, JSON.stringify({ BaseResp: { StatusCode: 0 }, items: fixtureHashtagItems() }));
await repo.addSnapshot('tiktok_one', 'hashtags', {
  country: 'US',
  period: 7,
  items: 'items' in parsed ? parsed.items : [],
});

const service = createTrendsAnalysisService({ repo, logger: pino({ level: 'silent' }) });
await service.analysis(); // warm up

const baseline = await median(() => repo.observationsSince(new Date(Date.now() - 14 * DAY)));
const rollup = await median(() => repo.firstPartyRollup(new Date()));
const build = await median(() => {
  service.invalidate();
  return service.analysis();
});
await service.analysis();
const cached = await median(() => service.analysis(), 1001);

const fmt = (ms: number) => `${ms.toFixed(3)} ms`;
console.log(`trends analysis on ${KIND}, ${N} observations over 14 days (median of ${RUNS})`);
console.log(`baseline  read 14-day observations     ${fmt(baseline)}  1.00x`);
console.log(`first-party rollup in SQL              ${fmt(rollup)}  ${(rollup / baseline).toFixed(2)}x`);
console.log(`full build (uncached, all sources)     ${fmt(build)}  ${(build / baseline).toFixed(2)}x`);
console.log(`cached answer (5-minute cache)         ${fmt(cached)}  ${(cached / baseline).toFixed(5)}x`);
await database.close();
await pgDb?.drop();
