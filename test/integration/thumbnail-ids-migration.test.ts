// Migrations 0010-0011 (issue 35): downloads kept the thumbnail as a route path
// (/api/video/thumbnail/<id>[?platform=]); now a flag, and the link is made from platform and
// video id when answered. Existing rows are converted, on PGlite and on PostgreSQL, by the same
// migrations the server runs at start.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from '../../src/server/db/client.js';
import { createPostgresDatabase } from '../helpers/test-db.js';

/** A copy of migrations/ that stops before `tag`: the schema as an older release left it. */
function migrationsBefore(tag: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'smt-migrations-'));
  fs.cpSync(migrationsFolder(), dir, { recursive: true });
  const journalFile = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: Array<{ tag: string }> };
  const at = journal.entries.findIndex((e) => e.tag === tag);
  expect(at).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, at);
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

type Query = (text: string) => Promise<Array<Record<string, unknown>>>;

async function seedOldRows(query: Query) {
  const [{ id }] = await query(`insert into users (email) values ('old@example.com') returning id`);
  await query(`insert into downloads (user_id, url, platform, video_id, thumbnail) values
    ('${id}', 'https://www.tiktok.com/@a/video/7312', 'tiktok', '7312', '/api/video/thumbnail/7312'),
    ('${id}', 'https://clips.example/v/ab12', 'clips', 'ab12', '/api/video/thumbnail/ab12?platform=clips'),
    ('${id}', 'https://www.tiktok.com/@a/video/7313', 'tiktok', '7313', null)`);
}

async function expectConverted(query: Query) {
  const rows = await query('select video_id, has_thumbnail from downloads order by video_id');
  expect(rows).toEqual([
    { video_id: '7312', has_thumbnail: true },
    { video_id: '7313', has_thumbnail: false },
    { video_id: 'ab12', has_thumbnail: true },
  ]);
  const columns = await query(
    `select column_name from information_schema.columns where table_name = 'downloads' and column_name = 'thumbnail'`,
  );
  expect(columns).toEqual([]);
}

describe('downloads.thumbnail: route paths become a flag', () => {
  const cleanups: Array<() => Promise<unknown> | unknown> = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });
  const old = migrationsBefore('0010_downloads_thumbnail_flag');
  cleanups.push(() => fs.rmSync(old, { recursive: true, force: true }));

  it('on PGlite', async () => {
    const client = new PGlite();
    cleanups.push(() => client.close());
    const db = drizzlePglite(client);
    await migratePglite(db, { migrationsFolder: old });
    const query: Query = async (text) => (await client.query<Record<string, unknown>>(text)).rows;
    await seedOldRows(query);
    await migratePglite(db, { migrationsFolder: migrationsFolder() });
    await expectConverted(query);
  });

  it('on PostgreSQL', async () => {
    const database = await createPostgresDatabase();
    cleanups.push(() => database.drop());
    const pool = new pg.Pool({ connectionString: database.url, max: 1 });
    cleanups.push(() => pool.end());
    const db = drizzlePg(pool);
    await migratePg(db, { migrationsFolder: old });
    const query: Query = async (text) => (await pool.query(text)).rows;
    await seedOldRows(query);
    await migratePg(db, { migrationsFolder: migrationsFolder() });
    await expectConverted(query);
  });
});
