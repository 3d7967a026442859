// What the admin command line can do. Runs in the CLI process (PostgreSQL, or PGlite while the
// server is stopped) or inside the server, reached through its admin socket (PGlite running).
import { z } from 'zod';
import { emailSchema } from '../../shared/contracts/index.js';
import { fail } from '../errors.js';
import type { UsersRepository } from '../db/repositories/users.repository.js';
import { hashPassword } from './auth.service.js';
import { checkPassword } from '../lib/password-policy.js';

export const adminCommandSchema = z.discriminatedUnion('command', [
  z.object({
    command: z.literal('user:create'),
    email: emailSchema,
    password: z.string().min(8, 'Password must be at least 8 characters').max(256, 'Password is too long'),
    pro: z.boolean().default(false),
    admin: z.boolean().default(false),
  }),
  z.object({ command: z.literal('user:grant-pro'), email: emailSchema }),
  z.object({ command: z.literal('user:revoke-pro'), email: emailSchema }),
  z.object({ command: z.literal('user:grant-admin'), email: emailSchema }),
  z.object({ command: z.literal('user:revoke-admin'), email: emailSchema }),
]);
export type AdminCommand = z.infer<typeof adminCommandSchema>;

export function createAdminService(deps: { users: UsersRepository; adminEmails: string[] }) {
  async function userByEmail(email: string) {
    const user = await deps.users.findByEmail(email);
    if (!user) throw fail('user.not_found', { email });
    return user;
  }
  return {
    async run(cmd: AdminCommand): Promise<string> {
      switch (cmd.command) {
        case 'user:create': {
          checkPassword(cmd.password, { email: cmd.email });
          const user = await deps.users.createWithPassword(
            { email: cmd.email, proGranted: cmd.pro, adminGranted: cmd.admin },
            await hashPassword(cmd.password),
          );
          if (!user) throw fail('auth.email_taken', { variant: 'admin', email: cmd.email });
          return `Created ${cmd.email}${cmd.pro ? ' with Pro' : ''}${cmd.admin ? ' as an administrator' : ''} (id ${user.id}).`;
        }
        case 'user:grant-admin': {
          const user = await userByEmail(cmd.email);
          await deps.users.update(user.id, { adminGranted: true });
          return `${cmd.email} is now an administrator.`;
        }
        case 'user:revoke-admin': {
          const user = await userByEmail(cmd.email);
          await deps.users.update(user.id, { adminGranted: false });
          const viaProvider = user.emailVerified && !!user.email && deps.adminEmails.includes(user.email);
          return (
            `${cmd.email} is no longer an administrator by ` +
            `grant${viaProvider ? ' (still one through ADMIN_EMAILS with a provider-verified email)' : ''}.`
          );
        }
        case 'user:grant-pro': {
          const user = await userByEmail(cmd.email);
          await deps.users.update(user.id, { proGranted: true });
          return `${cmd.email} now has Pro.`;
        }
        case 'user:revoke-pro': {
          const user = await userByEmail(cmd.email);
          await deps.users.update(user.id, { proGranted: false });
          return `${cmd.email} no longer has granted Pro (a paid subscription, if any, still counts).`;
        }
      }
    },
  };
}
