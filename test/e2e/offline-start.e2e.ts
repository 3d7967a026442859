// Offline start is calm (issue 31): a server started with no internet printed six multi-line
// "trend source failed" blocks right after its ready line. Now each source says so in one short
// line. "No internet" here: every trend source's host leads to a closed port on this machine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../helpers/e2e.js';

const NOWHERE = 'http://127.0.0.1:9';
const HOSTS = [
  'ads.tiktok.com',
  'newsroom.tiktok.com',
  'www.tiktok.com',
  'www.theverge.com',
  'techcrunch.com',
  'www.socialmediatoday.com',
];

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({
    TRENDS_COLLECTORS: 'on',
    LOG_LEVEL: 'info',
    UPSTREAM_HOST_MAP: JSON.stringify(Object.fromEntries(HOSTS.map((h) => [h, NOWHERE]))),
  });
}, 90_000);
afterAll(() => server?.stop());

describe('a start without internet', () => {
  it('says once, in one short line per source, that each trend source failed', async () => {
    const trendLines = () =>
      server
        .logs()
        .split('\n')
        .filter((l) => l.includes('trend source'));
    await expect.poll(() => trendLines().length, { timeout: 60_000, interval: 250 }).toBeGreaterThanOrEqual(6);
    const lines = trendLines().map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(6);
    for (const line of lines) {
      expect(line.level).toBe(40);
      expect(String(line.msg)).toMatch(/^trend source \S+ failed \(.+\); trying again later, quietly$/);
      expect(String(line.msg).length).toBeLessThanOrEqual(140);
      // One line for a person: no extra fields that a terminal prints as a block below it.
      expect(Object.keys(line).sort()).toEqual(['hostname', 'level', 'msg', 'pid', 'time']);
    }
  });
});
