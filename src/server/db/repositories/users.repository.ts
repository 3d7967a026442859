import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../client.js';
import { passwordCredentials, userIdentities, users } from '../schema.js';

export type User = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;

export function createUsersRepository(db: Db) {
  return {
    async findById(id: string): Promise<User | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id));
      return row;
    },
    async findByEmail(email: string): Promise<User | undefined> {
      const [row] = await db.select().from(users).where(eq(users.email, email.toLowerCase()));
      return row;
    },
    /** Creates a user with a password; returns undefined when the email is taken. */
    async createWithPassword(data: NewUser, passwordHash: string): Promise<User | undefined> {
      return db.transaction(async (tx) => {
        const [user] = await tx.insert(users).values(data).onConflictDoNothing({ target: users.email }).returning();
        if (!user) return undefined;
        await tx.insert(passwordCredentials).values({ userId: user.id, passwordHash });
        return user;
      });
    },
    async getPasswordHash(userId: string): Promise<string | undefined> {
      const [row] = await db.select().from(passwordCredentials).where(eq(passwordCredentials.userId, userId));
      return row?.passwordHash;
    },
    async setPassword(userId: string, passwordHash: string): Promise<void> {
      await db
        .insert(passwordCredentials)
        .values({ userId, passwordHash })
        .onConflictDoUpdate({ target: passwordCredentials.userId, set: { passwordHash, updatedAt: new Date() } });
    },
    async update(id: string, patch: Partial<NewUser>): Promise<User | undefined> {
      const [row] = await db
        .update(users)
        .set({ ...patch, updatedAt: new Date() })
        .where(eq(users.id, id))
        .returning();
      return row;
    },
    /**
     * Finds the user linked to an OpenID identity, creating it when new. An existing account with
     * the same email is linked only when the provider says the email is verified; otherwise the
     * email stays with the account that already holds it. `linkByEmail` is the provider's
     * email_verified claim and is stored as `emailVerified` (admin rights depend on it).
     */
    async upsertFromIdentity(
      identity: { issuer: string; subject: string },
      profile: Pick<NewUser, 'email' | 'firstName' | 'lastName' | 'profileImageUrl'>,
      linkByEmail: boolean,
    ): Promise<User> {
      return db.transaction(async (tx) => {
        const [link] = await tx
          .select()
          .from(userIdentities)
          .where(and(eq(userIdentities.issuer, identity.issuer), eq(userIdentities.subject, identity.subject)));
        const [holder] = profile.email ? await tx.select().from(users).where(eq(users.email, profile.email)) : [];
        let userId = link?.userId ?? (linkByEmail ? holder?.id : undefined);
        const email = holder && holder.id !== userId ? undefined : (profile.email ?? undefined);
        if (!userId) {
          const [created] = await tx
            .insert(users)
            .values({ ...profile, email: email ?? null })
            .returning();
          userId = created.id;
        }
        if (!link)
          await tx
            .insert(userIdentities)
            .values({ ...identity, userId })
            .onConflictDoNothing();
        const [updated] = await tx
          .update(users)
          .set({ ...profile, email, emailVerified: !!email && linkByEmail, updatedAt: sql`now()` })
          .where(eq(users.id, userId))
          .returning();
        return updated;
      });
    },
  };
}
export type UsersRepository = ReturnType<typeof createUsersRepository>;
