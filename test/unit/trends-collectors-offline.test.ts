// Offline start is calm (issue 31): with no internet, `npm start` printed six multi-line
// "WARN trend source failed" blocks right after the ready line. Now one short line per source,
// then the source backs off quietly (fewer tries, no more warnings) until it answers again.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/server/logger.js';
import {
  createTrendsCollectors,
  DEFAULT_NEWS_FEEDS,
  type CollectorsConfig,
} from '../../src/server/services/trends-collectors.service.js';
import type { TrendsRepository } from '../../src/server/db/repositories/trends.repository.js';

function offlineCollectors() {
  let out = '';
  const destination = new Writable({
    write(chunk, _enc, done) {
      out += chunk.toString();
      done();
    },
  });
  const logger = createLogger('info', { pretty: true, destination });
  const runs: Array<{ source: string; error: string | null }> = [];
  const repo = {
    startRun: async (source: string) => runs.push({ source, error: null }),
    finishRun: async (id: number, _items: number, error: string | null) => {
      runs[id - 1].error = error;
    },
    addSnapshot: async () => undefined,
    addNews: async () => 0,
  } as unknown as TrendsRepository;
  let requests = 0;
  // What the adapters throw with no network: every alternative named with its reason.
  const offline = (host: string) => `getaddrinfo EAI_AGAIN ${host}`;
  const config: CollectorsConfig = {
    enabled: true,
    tiktokOne: true,
    news: true,
    country: 'US',
    period: 7,
    feeds: DEFAULT_NEWS_FEEDS,
    intervalMs: 60 * 60_000,
  };
  let online = false;
  const collectors = createTrendsCollectors({
    repo,
    config,
    logger,
    tiktokOne: {
      fetchHashtags: async () => {
        requests++;
        if (online) return { country: 'US', period: 7, items: [{ id: '1', name: 'fyp' }], viewsOk: 1, failures: [] };
        return { country: 'US', period: 7, items: [], viewsOk: 0, failures: [offline('ads.tiktok.com')] };
      },
    } as never,
    feeds: {
      fetchFeed: async (entry: string) => {
        requests++;
        if (online) return { url: entry.split('|')[0], title: 'Feed', items: [] };
        throw new Error(
          entry
            .split('|')
            .map((u) => `${u}: ${offline(new URL(u).hostname)}`)
            .join('; '),
        );
      },
    } as never,
  });
  const scheduled = async () => {
    for (const task of [collectors.tiktokOne, collectors.news]) await task.run(new AbortController().signal);
  };
  return {
    collectors,
    scheduled,
    runs,
    output: () => out,
    requests: () => requests,
    goOnline: () => (online = true),
  };
}

describe('trend collectors without internet', () => {
  it('say so in one short line per source, then back off quietly', async () => {
    const c = offlineCollectors();
    await c.scheduled();
    const lines = c.output().trimEnd().split('\n');
    expect(lines).toHaveLength(6);
    for (const line of lines) {
      expect(line).toMatch(/WARN: trend source \S+ failed \(.+\); trying again later, quietly$/);
      expect(line.length).toBeLessThanOrEqual(160);
    }
    expect(lines.join('\n')).toContain('trend source news:www.theverge.com/rss/tiktok/index.xml failed (');
    expect(c.runs.every((r) => r.error)).toBe(true);

    // Later turns: nothing more is printed; the sources are tried less and less often.
    const before = c.requests();
    for (let turn = 0; turn < 7; turn++) await c.scheduled();
    expect(c.output().trimEnd().split('\n')).toHaveLength(6);
    // Back-off doubles: of seven turns each source is tried on the 1st, 3rd and 7th only.
    expect(c.requests() - before).toBe(6 * 3);

    // Asked directly (a test, the CLI), a source is tried at once.
    await c.collectors.news.runOnce();
    expect(c.requests() - before).toBe(6 * 3 + 5);
  });

  it('says once when a source answers again', async () => {
    const c = offlineCollectors();
    await c.scheduled();
    c.goOnline();
    await c.collectors.tiktokOne.runOnce();
    const lines = c.output().trimEnd().split('\n');
    expect(lines).toHaveLength(7);
    expect(lines[6]).toMatch(/INFO: trend source tiktok_one answers again$/);
  });
});
