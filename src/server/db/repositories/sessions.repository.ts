import { eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../client.js';
import { sessions, users } from '../schema.js';
import type { User } from './users.repository.js';

export type SessionData = Record<string, unknown> & { userId?: string };

export function createSessionsRepository(db: Db) {
  // Every signed-in request runs this: built once, it costs half of a query built per call.
  const byId = db
    .select({ sess: sessions.sess, expire: sessions.expire, user: users })
    .from(sessions)
    .leftJoin(users, eq(users.id, sql`${sessions.sess}->>'userId'`))
    .where(eq(sessions.sid, sql.placeholder('sid')))
    .prepare('session_with_user');
  return {
    /** The session and, in the same query, the user it is signed in as (null when none or gone). */
    async get(sid: string): Promise<{ data: SessionData; user: User | null } | undefined> {
      const [row] = await byId.execute({ sid });
      if (!row || row.expire.getTime() <= Date.now()) return undefined;
      return { data: row.sess as SessionData, user: row.user };
    },
    async set(sid: string, sess: SessionData, expire: Date): Promise<void> {
      await db
        .insert(sessions)
        .values({ sid, sess, expire })
        .onConflictDoUpdate({ target: sessions.sid, set: { sess, expire } });
    },
    async destroy(sid: string): Promise<void> {
      await db.delete(sessions).where(eq(sessions.sid, sid));
    },
    async pruneExpired(now = new Date()): Promise<number> {
      const rows = await db.delete(sessions).where(lt(sessions.expire, now)).returning({ sid: sessions.sid });
      return rows.length;
    },
  };
}
export type SessionsRepository = ReturnType<typeof createSessionsRepository>;
