// PreparedPGlite must answer exactly like PGlite's own query() (same rows, types, errors, locks),
// only through named prepared statements.
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { PreparedPGlite } from '../../src/server/db/pglite-prepared.js';

const SCHEMA = `
  create table t (id serial primary key, name text unique, n bigint, ok boolean, at timestamptz, meta jsonb, tags text[]);
  insert into t (name, n, ok, at, meta, tags) values ('a', 9007199254740993, true, '2026-01-02T03:04:05Z', '{"x":[1,2]}', '{p,q}');`;

async function open<T extends PGlite>(db: T): Promise<T> {
  await db.waitReady;
  await db.exec(SCHEMA);
  return db;
}
const preparedNames = async (db: PGlite) =>
  (await db.query<{ name: string }>('select name from pg_prepared_statements')).rows.map((r) => r.name);

// A new PGlite compiles and starts PostgreSQL in WebAssembly: tens of seconds of CPU on a busy machine,
// so these run with the integration tests (real databases), with room for it.
const SLOW = 120_000;

describe('the PGlite internals PreparedPGlite relies on', () => {
  // It reaches into PGlite's protected methods and protocol helpers, so the version is pinned
  // exactly in package.json; an upgrade that moves any of these must fail here, loudly.
  it('are all still there in the pinned version', { timeout: SLOW }, async () => {
    const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8'));
    const installed = JSON.parse(fs.readFileSync('node_modules/@electric-sql/pglite/package.json', 'utf8')).version;
    expect(pkg.dependencies['@electric-sql/pglite'], 'pin @electric-sql/pglite to an exact version').toMatch(
      /^\d+\.\d+\.\d+$/,
    );
    expect(installed).toBe(pkg.dependencies['@electric-sql/pglite']);
    const db = new PGlite();
    await db.waitReady;
    const missing = [
      '_checkReady',
      '_runExclusiveTransaction',
      '_runExclusiveQuery',
      'execProtocolStream',
      'syncToFs',
    ].filter((m) => typeof (db as unknown as Record<string, unknown>)[m] !== 'function');
    expect(missing, 'PGlite methods used by pglite-prepared.ts').toEqual([]);
    expect(typeof db.serializers).toBe('object');
    expect(typeof db.parsers).toBe('object');
    const { parse, protocol } = await import('@electric-sql/pglite');
    expect([typeof parse.parseResults, typeof parse.parseDescribeStatementResults]).toEqual(['function', 'function']);
    expect(
      ['parse', 'describe', 'bind', 'execute', 'sync', 'close'].filter(
        (m) => typeof (protocol.serialize as Record<string, unknown>)[m] !== 'function',
      ),
    ).toEqual([]);
    await db.close();
  });
});

describe('PreparedPGlite', { timeout: SLOW }, () => {
  let plain: PGlite;
  let fast: PreparedPGlite;
  beforeEach(async () => {
    plain = await open(new PGlite('memory://'));
    fast = await open(new PreparedPGlite('memory://'));
    fast.preparing = true;
  }, SLOW);
  afterEach(async () => {
    await plain.close();
    await fast.close();
  });

  it('answers like PGlite: values of every type, null and Date parameters, array rows with custom parsers', async () => {
    const cases: Array<[string, unknown[], object?]> = [
      ['select * from t where name = $1', ['a']],
      [
        'insert into t (name, n, ok, at, meta, tags) values ($1, $2, $3, $4, $5, $6) returning *',
        ['b', 5n, false, new Date('2026-05-06T07:08:09Z'), { y: 'z' }, ['r', 's']],
      ],
      ['update t set n = n + $2, at = $3 where name = $1 returning n, at', ['b', 1, null]],
      [
        'select id, name, meta from t order by id',
        [],
        { rowMode: 'array', parsers: { 25: (v: string) => v.toUpperCase() } },
      ],
      ['select count(*) as c from t where ok = $1', [true]],
      ['delete from t where name = $1', ['b']],
    ];
    for (let round = 0; round < 2; round++) {
      // The second round runs the statements already prepared.
      for (const [sql, params, options] of cases) {
        const [a, b] = [await plain.query(sql, params, options), await fast.query(sql, params, options)];
        expect(b.rows).toEqual(a.rows);
        expect(b.fields).toEqual(a.fields);
        expect(b.affectedRows).toBe(a.affectedRows);
      }
    }
    expect(
      (await fast.query<{ at: Date; meta: unknown }>('select at, meta from t where name = $1', ['a'])).rows[0],
    ).toEqual({ at: new Date('2026-01-02T03:04:05Z'), meta: { x: [1, 2] } });
    // Every distinct text was prepared once, under its own name (the two reads here included).
    expect((await preparedNames(fast)).length).toBe(cases.length + 2);
  });

  it('throws PGlite errors with their code and query, and stays usable after them', async () => {
    await expect(fast.query('insert into t (name) values ($1)', ['a'])).rejects.toMatchObject({
      code: '23505',
      query: 'insert into t (name) values ($1)',
      params: ['a'],
    });
    await expect(fast.query('select nope from t')).rejects.toMatchObject({ code: '42703' });
    await expect(fast.query('insert into t (name) values ($1)', ['a'])).rejects.toMatchObject({ code: '23505' });
    expect((await fast.query('select name from t where name = $1', ['a'])).rows).toEqual([{ name: 'a' }]);
  });

  it('never runs inside another caller’s transaction: a rolled-back transaction keeps a write made meanwhile', async () => {
    let inside!: () => void;
    const entered = new Promise<void>((r) => (inside = r));
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const tx = fast
      .transaction(async (t) => {
        await t.query(`insert into t (name) values ('in-tx')`);
        inside();
        await held;
        throw new Error('roll back');
      })
      .catch((e: Error) => e.message);
    await entered;
    const outside = fast.query('insert into t (name) values ($1) returning id', ['outside']);
    release();
    expect(await tx).toBe('roll back');
    await outside;
    expect((await fast.query('select name from t order by id')).rows.map((r) => (r as { name: string }).name)).toEqual([
      'a',
      'outside',
    ]);
  });

  it('forgets a statement whose result shape the schema changed, then prepares it again', async () => {
    await fast.query('select * from t where id = $1', [1]);
    await fast.exec('alter table t add column extra int');
    await expect(fast.query('select * from t where id = $1', [1])).rejects.toMatchObject({ code: '0A000' });
    expect(Object.keys((await fast.query('select * from t where id = $1', [1])).rows[0] as object)).toContain('extra');
  });

  it('keeps at most 500 statements prepared and runs later texts through PGlite’s own path', async () => {
    for (let i = 0; i < 510; i++)
      expect((await fast.query<{ v: number }>(`select $1::int + ${i} as v`, [1])).rows[0].v).toBe(1 + i);
    expect((await preparedNames(fast)).length).toBe(500);
  });

  it('prepares nothing until switched on (migrations run first)', async () => {
    const cold = await open(new PreparedPGlite('memory://'));
    await cold.query('select name from t where name = $1', ['a']);
    expect(await preparedNames(cold)).toEqual([]);
    await cold.close();
  });
});
