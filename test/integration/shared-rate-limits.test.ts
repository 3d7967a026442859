// Rate limits hold across app nodes sharing one PostgreSQL database (issue 21): a visitor whose
// requests a load balancer spreads over two nodes gets one limit, not one per node.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../../src/server/db/client.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createPostgresDatabase } from '../helpers/test-db.js';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/fake-tiktok.js';

describe('rate limits across two nodes on one PostgreSQL', () => {
  let tt: FakeTikTok;
  let db: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let nodes: TestApp[];
  beforeAll(async () => {
    tt = await startFakeTikTok();
    db = await createPostgresDatabase();
    const env = { UPSTREAM_HOST_MAP: tt.hostMapJson, TRUST_PROXY: 'true' };
    nodes = [
      await createTestApp({ database: await openPostgres(db.url), env }),
      await createTestApp({ database: await openPostgres(db.url), env }),
    ];
  });
  afterAll(async () => {
    for (const n of nodes ?? []) await n.close();
    await db?.drop();
    await tt?.close();
  });

  it('answers the 21st signed-out lookup of a minute with 429, whichever node gets it', async () => {
    // Windows are aligned on the clock: start well inside one.
    while (Date.now() % 60_000 > 45_000) await new Promise((r) => setTimeout(r, 500));
    const v = tt.addVideo();
    const visitor = { 'x-forwarded-for': '198.51.100.77' };
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++)
      statuses.push((await nodes[i % 2].client().post('/api/video/info', { url: v.url }, visitor)).status);
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(200));
    expect(statuses[20]).toBe(429);
    // Someone else is not affected.
    expect(
      (await nodes[1].client().post('/api/video/info', { url: v.url }, { 'x-forwarded-for': '198.51.100.78' })).status,
    ).toBe(200);
  });

  it('counts wrong passwords for one (IP, email) on both nodes together', async () => {
    const owner = await nodes[0].signUp();
    const from = { 'x-forwarded-for': '203.0.113.9' };
    // Five failures a minute per (IP, email) (decision 0028); windows are aligned on the clock.
    while (Date.now() % 60_000 > 45_000) await new Promise((r) => setTimeout(r, 500));
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push(
        (await nodes[i % 2].client().post('/api/auth/login', { email: owner.email, password: 'wrong password' }, from))
          .status,
      );
    expect(statuses.slice(0, 5)).toEqual(Array(5).fill(401));
    expect(statuses[5]).toBe(429);
  });
});

describe('rate limits across two nodes through Redis (REDIS_URL)', () => {
  let tt: FakeTikTok;
  let nodes: TestApp[];
  const prefix = `smt-test-${process.pid}-${Date.now()}:`;
  beforeAll(async () => {
    tt = await startFakeTikTok();
    // Each node on its own embedded database: only Redis is shared.
    const env = {
      UPSTREAM_HOST_MAP: tt.hostMapJson,
      TRUST_PROXY: 'true',
      REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
      REDIS_PREFIX: prefix,
    };
    nodes = [await createTestApp({ env }), await createTestApp({ env })];
  });
  afterAll(async () => {
    for (const n of nodes ?? []) await n.close();
    await tt?.close();
  });

  it('answers the 21st signed-out lookup of a minute with 429, whichever node gets it', async () => {
    while (Date.now() % 60_000 > 45_000) await new Promise((r) => setTimeout(r, 500));
    const v = tt.addVideo();
    const visitor = { 'x-forwarded-for': '198.51.100.90' };
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++)
      statuses.push((await nodes[i % 2].client().post('/api/video/info', { url: v.url }, visitor)).status);
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(200));
    expect(statuses[20]).toBe(429);
  });
});

describe('rate limits while Redis is away', () => {
  it('answers 503 service.rate_limits_unavailable, never lets the request through unchecked or hangs', async () => {
    const tt = await startFakeTikTok();
    // Nothing listens on port 1: the store cannot connect.
    const t = await createTestApp({ env: { UPSTREAM_HOST_MAP: tt.hostMapJson, REDIS_URL: 'redis://127.0.0.1:1' } });
    try {
      const res = await t.client().post('/api/video/info', { url: tt.addVideo().url });
      expect(res.status).toBe(503);
      expect((await res.json()).code).toBe('service.rate_limits_unavailable');
    } finally {
      await t.close();
      await tt.close();
    }
  });
});
