// Sign-in limits that do not lock out the right password (issue 31): successful sign-ins and
// sign-ups counted toward a per-address limit (30 per 15 minutes), so people behind one NAT or
// office address locked each other out and a correct password got 429. Now only failures count:
// per (address, account), per account and per address, each with growing delays. On every store:
// memory (one PGlite node), PostgreSQL and Redis.
// Issue 34: 20 wrong passwords for someone's email from four other addresses made the owner's
// correct password at home a 429 for 15 minutes, and 20 failures on other emails from a shared
// address blocked a correct password there. A device that signed in before (its signed device
// cookie) now counts on its own budget only (decision 0048).
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const STORES: Array<{ name: string; db: 'pglite' | 'postgres'; env: Record<string, string> }> = [
  { name: 'memory (PGlite)', db: 'pglite', env: {} },
  { name: 'PostgreSQL', db: 'postgres', env: {} },
  {
    name: 'Redis',
    db: 'pglite',
    env: {
      REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
      REDIS_PREFIX: `smt-signin-${process.pid}-${Date.now()}:`,
    },
  },
];

const GOOD = 'correct horse battery';
/** PostgreSQL and Redis windows are aligned on the clock: start a sequence well inside a minute. */
const insideAMinute = async () => {
  while (Date.now() % 60_000 > 40_000) await new Promise((r) => setTimeout(r, 500));
};
let ipSeq = 0;
/** A fresh address per test, so the shared counters of one store never mix tests. */
const address = () => ({ 'x-forwarded-for': `198.51.${100 + (process.pid % 100)}.${++ipSeq}` });

describe.each(STORES)('sign-in limits ($name)', ({ db, env }) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ db, env: { TRUST_PROXY: 'true', ...env } });
  });
  afterAll(() => t.close());

  const login = (email: string, password: string, from: Record<string, string>) =>
    t.client().post('/api/auth/login', { email, password }, from);

  it('lets a whole office sign in from one address: successes never count', async () => {
    const office = address();
    const people: string[] = [];
    for (let i = 0; i < 5; i++) {
      const email = `office${ipSeq}-${i}-${Date.now()}@example.com`;
      const reg = await t.client().post('/api/auth/register', { email, password: GOOD }, office);
      expect(reg.status).toBe(201);
      people.push(email);
    }
    const statuses: number[] = [];
    for (let round = 0; round < 8; round++)
      for (const email of people) statuses.push((await login(email, GOOD, office)).status);
    expect(statuses).toEqual(Array(40).fill(200));
  });

  it('after a few wrong passwords asks that address to wait, growing; the owner elsewhere signs in', async () => {
    const owner = await t.signUp();
    const attacker = address();
    await insideAMinute();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await login(owner.email, `guess number ${i}`, attacker)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const refused = await login(owner.email, GOOD, attacker);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await refused.json()).code).toBe('auth.rate_limited');
    expect((await login(owner.email, GOOD, address())).status).toBe(200);
  });

  it('a refused attempt is not a failure, and a right password clears its own address and account', async () => {
    const owner = await t.signUp();
    const home = address();
    for (let i = 0; i < 4; i++) expect((await login(owner.email, `typo ${i}`, home)).status).toBe(401);
    expect((await login(owner.email, GOOD, home)).status).toBe(200);
    // The slate is clean: four more typos are still answered 401, not 429.
    for (let i = 0; i < 4; i++) expect((await login(owner.email, `typo again ${i}`, home)).status).toBe(401);
  });

  it('failures on the account from elsewhere never block the owner on a device that signed in before', async () => {
    const owner = await t.signUp(); // this browser signed up: it is a known device for the account
    const home = address();
    await insideAMinute();
    const statuses: number[] = [];
    for (let a = 0; a < 4; a++) {
      const attacker = address();
      for (let i = 0; i < 5; i++) statuses.push((await login(owner.email, `guess ${a}-${i}`, attacker)).status);
    }
    expect(statuses).toEqual(Array(20).fill(401));
    // The account is under attack: a new device at home waits, as anyone without the device cookie does.
    expect((await login(owner.email, GOOD, home)).status).toBe(429);
    // The owner's own browser signs in.
    const mine = await owner.post('/api/auth/login', { email: owner.email, password: GOOD }, home);
    expect(mine.status).toBe(200);
    // Its typos count on its own budget: five, then it waits, and the attackers' count did not move.
    for (let i = 0; i < 5; i++)
      expect((await owner.post('/api/auth/login', { email: owner.email, password: `typo ${i}` }, home)).status).toBe(
        401,
      );
    expect((await owner.post('/api/auth/login', { email: owner.email, password: GOOD }, home)).status).toBe(429);
    expect((await login(owner.email, GOOD, address())).status).toBe(429);
  });

  it('a correct password from a shared address is not blocked by failures on other accounts there', async () => {
    const colleague = await t.signUp();
    const office = address();
    await insideAMinute();
    for (let i = 0; i < 20; i++)
      expect((await login(`list${i}-${ipSeq}@example.com`, 'password from a list', office)).status).toBe(401);
    expect((await login(colleague.email, GOOD, office)).status).toBe(429); // a new device there waits
    const res = await colleague.post('/api/auth/login', { email: colleague.email, password: GOOD }, office);
    expect(res.status).toBe(200);
  });

  it('a device cookie helps only for the accounts that device signed in to, and cannot be forged', async () => {
    const attacker = await t.signUp(); // a device that knows the attacker's own account
    const victim = await t.signUp();
    const from = address();
    await insideAMinute();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push(
        (await attacker.post('/api/auth/login', { email: victim.email, password: `guess ${i}` }, from)).status,
      );
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const [name, value] = [...attacker.cookies].find(([k]) => k === 'smt.device')!;
    // The attacker's own cookie, edited to name the victim's account (its signature no longer matches).
    const victimTag = crypto.createHash('sha256').update(`device:${victim.email}`).digest('hex').slice(0, 16);
    const [id, , signature] = value.split('.');
    const forged = `${id}.${victimTag}.${signature}`;
    const res = await t
      .client()
      .post(
        '/api/auth/login',
        { email: victim.email, password: 'another guess' },
        { ...from, cookie: `${name}=${forged}` },
      );
    expect(res.status).toBe(429);
  });

  it('many wrong passwords from one address across accounts slow that address only', async () => {
    const stuffer = address();
    await insideAMinute();
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++)
      statuses.push((await login(`nobody${i}-${ipSeq}@example.com`, 'password from a list', stuffer)).status);
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(statuses[20]).toBe(429);
    const someone = await t.signUp();
    expect((await login(someone.email, GOOD, address())).status).toBe(200);
  });
});
