// Blog and trending-video benchmarks (run: `npx tsx bench/blog-trending.bench.ts`), each a ratio
// against a baseline measured in this same process:
// 1. rendering a 3.5 KB Markdown post to sanitised HTML vs Markdown alone (the sanitiser's cost);
// 2. 200 parallel once-per-user boosts (boost row + increment in one statement) vs 200 parallel
//    bare `score = score + 1` updates (no once-per-user guarantee), on PGlite and on PostgreSQL
//    when TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres) answers.
import MarkdownIt from 'markdown-it';
import { eq, sql } from 'drizzle-orm';
import { renderMarkdown } from '../src/server/services/markdown.js';
import { createTrendingVideosRepository } from '../src/server/db/repositories/trending-videos.repository.js';
import { trendingVideos, users } from '../src/server/db/schema.js';
import { openTestDatabase } from '../test/helpers/test-db.js';
import type { DbKind } from '../src/server/db/client.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function timeSync(fn: () => unknown, iterations: number, runs = 7): number {
  const times: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    for (let i = 0; i < iterations; i++) fn();
    times.push((performance.now() - t) / iterations);
  }
  return median(times);
}

// 1. Markdown
const section = (i: number) =>
  `## Section ${i}\n\nHooks decide **everything** in the first _two seconds_. See [the ` +
  `guide](https://example.com/guide/${i}).\n\n- Start with motion\n- Put text on screen\n- Cut every ` +
  `2-3 seconds\n\n> Quote ${i}: retention is the metric.\n\n\`\`\`js\nconst score = views * ` +
  `0.${i};\n\`\`\`\n\n`;
const post = Array.from({ length: 14 }, (_, i) => section(i)).join('');
const plain = new MarkdownIt({ html: true, linkify: true });
const base = timeSync(() => plain.render(post), 200);
const full = timeSync(() => renderMarkdown(post), 200);
console.log(
  `Markdown post (${(post.length / 1024).toFixed(1)} KB): markdown-it ${base.toFixed(3)} ms, ` +
    `markdown-it+sanitize ${full.toFixed(3)} ms, ratio ${(full / base).toFixed(2)}x`,
);

// 2. Boosts
async function boosts(kind: DbKind): Promise<void> {
  let database: Awaited<ReturnType<typeof openTestDatabase>> | undefined;
  try {
    database = await openTestDatabase(kind);
  } catch (err) {
    console.log(`${kind}: not available (${err instanceof Error ? err.message : err}), skipped`);
    return;
  }
  try {
    const db = database.db;
    const repo = createTrendingVideosRepository(db);
    const N = 200;
    const people = await db
      .insert(users)
      .values(Array.from({ length: N }, (_, i) => ({ email: `bench${i}@example.com` })))
      .returning({ id: users.id });
    const runs = 5;
    const guarded: number[] = [];
    const bare: number[] = [];
    for (let r = 0; r < runs; r++) {
      const a = await repo.insert({ title: `guarded ${r}`, videoUrl: 'https://example.com/v', platform: 'tiktok' });
      const b = await repo.insert({ title: `bare ${r}`, videoUrl: 'https://example.com/v', platform: 'tiktok' });
      let t = performance.now();
      await Promise.all(
        people.map(() =>
          db
            .update(trendingVideos)
            .set({ trendingScore: sql`${trendingVideos.trendingScore} + 1` })
            .where(eq(trendingVideos.id, b.id)),
        ),
      );
      bare.push(performance.now() - t);
      t = performance.now();
      const outcomes = await Promise.all(people.map((p) => repo.boost(a.id, p.id)));
      guarded.push(performance.now() - t);
      if (outcomes.some((o) => o.kind !== 'boosted')) throw new Error('a boost was not counted');
      const after = await repo.findById(a.id);
      if (after?.trendingScore !== N) throw new Error(`score ${after?.trendingScore} != ${N}`);
    }
    const g = median(guarded);
    const b = median(bare);
    console.log(
      `${kind}: ${N} parallel boosts ${g.toFixed(0)} ms (${((g / N) * 1000).toFixed(0)} µs each), ` +
        `bare increments ${b.toFixed(0)} ms, ratio ${(g / b).toFixed(2)}x; final score exact`,
    );
  } finally {
    await database.close();
  }
}

await boosts('pglite');
await boosts('postgres');
