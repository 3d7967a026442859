// Route guards: signed-in user, Pro user, admin. Use them as `preHandler`s:
//   app.post('/api/x', { preHandler: ctx.guards.pro }, handler)  // then request.user is set
import type { FastifyRequest } from 'fastify';
import { fail } from '../errors.js';
import type { User, UsersRepository } from '../db/repositories/users.repository.js';
import { isAdmin, isPro } from '../services/entitlements.service.js';
import { guard } from './route-errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    user: User | null;
  }
}

export function createGuards(deps: { users: UsersRepository; adminEmails: string[] }) {
  /** Loads the signed-in user (or null) once per request. */
  async function currentUser(request: FastifyRequest): Promise<User | null> {
    if (request.user !== undefined && request.user !== null) return request.user;
    const id = request.session?.data.userId;
    const stored = request.session?.storedUser;
    // The session hook already read the user unless the session changed hands during this request.
    request.user = !id ? null : stored?.id === id ? stored : ((await deps.users.findById(id)) ?? null);
    return request.user;
  }
  return {
    currentUser,
    user: guard(['auth.required'], async (request: FastifyRequest) => {
      if (!(await currentUser(request))) throw fail('auth.required');
    }),
    pro: guard(['auth.required', 'billing.pro_required'], async (request: FastifyRequest) => {
      const user = await currentUser(request);
      if (!user) throw fail('auth.required');
      if (!isPro(user)) throw fail('billing.pro_required');
    }),
    admin: guard(['auth.required', 'auth.admin_required'], async (request: FastifyRequest) => {
      const user = await currentUser(request);
      if (!user) throw fail('auth.required');
      if (!isAdmin(user, deps.adminEmails)) throw fail('auth.admin_required');
    }),
  };
}
export type Guards = ReturnType<typeof createGuards>;

/** The user a `user`/`pro`/`admin` guard has set; a route without a guard fails closed (401) instead of reading null. */
export function signedInUser(request: FastifyRequest): User {
  if (!request.user) throw fail('auth.required');
  return request.user;
}
