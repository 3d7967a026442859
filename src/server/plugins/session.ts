// Server-side sessions in the `sessions` table. The cookie holds only a signed random id.
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SessionData, SessionsRepository } from '../db/repositories/sessions.repository.js';
import type { User } from '../db/repositories/users.repository.js';

export const SESSION_COOKIE = 'smt.sid';
const MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

export interface Session {
  readonly id: string | null;
  data: SessionData;
  /** The user the stored session was signed in as, read with it (one query per request, not two). */
  readonly storedUser: User | null;
  /** Starts a fresh session id (every sign-in), dropping the old row. */
  regenerate(data: SessionData): Promise<void>;
  save(): Promise<void>;
  destroy(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyRequest {
    session: Session;
  }
}

export function registerSessions(app: FastifyInstance, opts: { repo: SessionsRepository; secure: boolean }): void {
  const cookieOptions = { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: opts.secure, signed: true };

  app.decorateRequest('session', null as unknown as Session);
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    let sid: string | null = null;
    let data: SessionData = {};
    let storedUser: User | null = null;
    const raw = request.cookies[SESSION_COOKIE];
    if (raw) {
      const unsigned = request.unsignCookie(raw);
      if (unsigned.valid && unsigned.value) {
        const stored = await opts.repo.get(unsigned.value);
        if (stored) {
          sid = unsigned.value;
          data = stored.data;
          storedUser = stored.user;
        }
      }
    }
    const write = async (id: string) => {
      await opts.repo.set(id, session.data, new Date(Date.now() + MAX_AGE_MS));
      reply.setCookie(SESSION_COOKIE, id, { ...cookieOptions, maxAge: MAX_AGE_MS / 1000 });
    };
    const session: Session = {
      get id() {
        return sid;
      },
      data,
      storedUser,
      async regenerate(next) {
        if (sid) await opts.repo.destroy(sid);
        sid = crypto.randomBytes(32).toString('base64url');
        session.data = next;
        await write(sid);
      },
      async save() {
        sid ??= crypto.randomBytes(32).toString('base64url');
        await write(sid);
      },
      async destroy() {
        if (sid) await opts.repo.destroy(sid);
        sid = null;
        session.data = {};
        reply.clearCookie(SESSION_COOKIE, { path: '/' });
      },
    };
    request.session = session;
  });
  // Expired rows are pruned by the scheduled task `sessions-prune` (context.ts).
}
