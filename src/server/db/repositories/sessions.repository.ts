import { eq, lt } from 'drizzle-orm';
import type { Db } from '../client.js';
import { sessions } from '../schema.js';

export type SessionData = Record<string, unknown> & { userId?: string };

export function createSessionsRepository(db: Db) {
  return {
    async get(sid: string): Promise<SessionData | undefined> {
      const [row] = await db.select().from(sessions).where(eq(sessions.sid, sid));
      if (!row || row.expire.getTime() <= Date.now()) return undefined;
      return row.sess as SessionData;
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
